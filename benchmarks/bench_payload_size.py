"""How the interactive page and the live link grow with the data (issue 29, item 7).

For 3 classifiers of ``n`` cases each (continuous float64 scores, 30 % positives: every score
distinct, the worst case for the payload), prints

* the page growth: bytes of ``w.to_html()`` (interactive) minus ``w.to_html(interactive=False)``;
* the live payload: bytes the live link sends once when the widget is displayed (the payload's
  binary buffers and its JSON header, ``page_spec.live_spec``).

Run from the repository (``n`` defaults to 10^5, 10^6, 3·10^6)::

    PYTHONPATH=. python benchmarks/bench_payload_size.py [n ...]

Sizes are deterministic (fixed seed); no timing is measured.
"""

from __future__ import annotations

import sys

import numpy as np


def build(n_scores: int, n_classifiers: int = 3, seed: int = 0):
    from costwidget import Classifier
    from costwidget.widget import CostWidget

    rng = np.random.default_rng(seed)
    y = rng.random(n_scores) < 0.3
    clfs = [
        Classifier.from_scores(
            y, y * (0.5 + 0.5 * i) + rng.normal(size=n_scores), name=f"model {i}"
        )
        for i in range(n_classifiers)
    ]
    return CostWidget(clfs)


def sizes(w) -> tuple[int, int]:
    """(page growth, live payload) in bytes."""
    from costwidget.widget.output.frontend_payload import payload_json
    from costwidget.widget.output.page_spec import live_spec

    spec = live_spec(w)
    live = sum(len(b) for b in spec["buffers"]) + len(payload_json(spec["header"]).encode())
    page = len(w.to_html().encode()) - len(w.to_html(interactive=False).encode())
    return page, live


def main(argv) -> None:
    import costwidget

    counts = [int(float(a)) for a in argv] or [10**5, 10**6, 3 * 10**6]
    print(f"costwidget from {costwidget.__file__}")
    print(f"{'cases per classifier':>22} {'page growth MB':>15} {'live payload MB':>16}")
    for n in counts:
        w = build(n)
        page, live = sizes(w)
        print(f"{n:>22,} {page / 1e6:>15.2f} {live / 1e6:>16.2f}", flush=True)
        del w


if __name__ == "__main__":
    main(sys.argv[1:])
