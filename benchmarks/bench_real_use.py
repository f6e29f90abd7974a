"""The widget in real use (issue 18): display time while bands compute, and what a cell re-run
leaves behind (threads and ipywidgets models).

2. **Display while bands compute.** 5 classifiers x 10^6 cases; ``w.show_bands = True`` starts
   the bootstrap bands in the background, then ``w._repr_mimebundle_()`` (what Jupyter calls to
   show the widget, with its static PNG) is timed. Display never waits: it returns while the
   bands still compute (``busy`` stays True), and its image shows what is drawn now. As a peer,
   the time the bands take (``w.wait()``) is printed: before the fix the display took that long.
1. **30 widgets built and dropped** (a cell re-run 30 times, each showing bands): worker threads
   and ipywidgets models (``ipywidgets.Widget.widgets``) alive afterwards, then after
   ``close()`` of each. The threads are bounded by the shared pool
   (``costwidget.widget.state.background.MAX_WORKERS``); a dropped widget's models stay registered
   until ``close()``.

Run: ``.venv/bin/python benchmarks/bench_real_use.py`` (``--quick``: 10^5 cases, 10 widgets)
"""

from __future__ import annotations

import argparse
import gc
import threading
import time

import numpy as np


def classifiers(n_classifiers=5, n_cases=1_000_000, seed=0):
    from costwidget import Classifier

    rng = np.random.default_rng(seed)
    y = rng.random(n_cases) < 0.3
    return [
        Classifier.from_scores(
            y, np.round(y * (0.5 + 0.2 * i) + rng.normal(size=n_cases), 3), name=f"model {i}"
        )
        for i in range(n_classifiers)
    ]


def bench_display(n_classifiers=5, n_cases=1_000_000):
    import matplotlib

    matplotlib.use("Agg")
    from costwidget.widget import CostWidget

    clfs = classifiers(n_classifiers, n_cases)
    with CostWidget(clfs) as w:
        w._repr_mimebundle_()  # warm up matplotlib (fonts) on the same widget, no bands yet
        t0 = time.perf_counter()
        w.show_bands = True
        t_set = time.perf_counter() - t0
        t0 = time.perf_counter()
        bundle = w._repr_mimebundle_()
        t_display = time.perf_counter() - t0
        busy_after_display = w.busy
        t0 = time.perf_counter()
        w.wait(timeout=1800)
        t_bands = time.perf_counter() - t0 + t_display
    return {
        "cases": n_cases,
        "classifiers": n_classifiers,
        "set_show_bands_s": t_set,
        "display_s": t_display,
        "busy_after_display": busy_after_display,
        "image": "image/png" in bundle,
        "bands_s": t_bands,
    }


def _models():
    from ipywidgets.widgets import widget

    instances = getattr(widget, "_instances", None)
    return len(instances if instances is not None else widget.Widget.widgets)


def _threads():
    return sum(t.name.startswith("costwidget-worker") for t in threading.enumerate())


def bench_dropped(n_widgets=30, n_cases=2_000):
    from costwidget.widget import CostWidget
    from costwidget.widget.state import background

    clfs = classifiers(2, n_cases)
    threads0, models0 = threading.active_count(), _models()
    refs = []
    for _ in range(n_widgets):
        w = CostWidget(clfs)  # a cell re-run: the previous widget is dropped, not closed
        w.show_bands = True
        w.wait(timeout=600)
        refs.append(w)
    del w
    dropped = {
        "threads": threading.active_count() - threads0,
        "costwidget_threads": _threads(),
        "models": _models() - models0,
    }
    for w in refs:
        w.close()
    refs.clear()
    gc.collect()
    closed = {"threads": threading.active_count() - threads0, "models": _models() - models0}
    return {
        "widgets": n_widgets,
        "max_workers": getattr(background, "MAX_WORKERS", None),
        "dropped": dropped,
        "models_per_widget": dropped["models"] / n_widgets,
        "closed": closed,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    import warnings

    warnings.simplefilter("ignore", DeprecationWarning)
    # First, so that the threads counted are the ones these widgets started.
    r = bench_dropped(n_widgets=10 if args.quick else 30)
    print(
        f"1. {r['widgets']} widgets built (bands shown) and dropped: "
        f"+{r['dropped']['threads']} threads ({r['dropped']['costwidget_threads']} widget "
        f"workers, pool limit {r['max_workers']}), +{r['dropped']['models']} ipywidgets models "
        f"({r['models_per_widget']:.0f} per widget)\n   after close() of each: "
        f"+{r['closed']['threads']} threads, +{r['closed']['models']} models"
    )
    d = bench_display(n_cases=100_000 if args.quick else 1_000_000)
    print(
        f"2. display with bands computing, {d['classifiers']} classifiers x {d['cases']:,} "
        f"cases:\n   show_bands = True took {d['set_show_bands_s'] * 1e3:.1f} ms; display "
        f"(_repr_mimebundle_, with its PNG) {d['display_s'] * 1e3:.0f} ms, busy after it: "
        f"{d['busy_after_display']}; the bands took {d['bands_s']:.2f} s in all"
    )


if __name__ == "__main__":
    main()
