"""``python -m costwidget``: print a cost-curve summary of the bundled demo models.

Usage: ``python -m costwidget [dataset]`` with dataset one of sonar, german_credit,
breast_cancer (default german_credit).
"""

from __future__ import annotations

import sys

from . import Classifier, combined_envelope
from .datasets import DATASETS, load_demo_scores, positive_label


def summary(dataset: str = "german_credit") -> str:
    scores = load_demo_scores(dataset)
    pos = positive_label(dataset)
    lines = [
        f"costwidget summary: {dataset} ({len(scores['row'].unique())} cases, "
        f"positive class {pos!r}), 5-fold cross-validated scores",
        "",
    ]
    header = (
        f"{'model':<22}{'ROC pts':>8}{'hull':>6}{'range lo':>10}{'range hi':>10}"
        f"{'NEC@0.5':>9}{'thr@0.5':>9}{'area':>8}"
    )
    lines += [header, "-" * len(header)]
    classifiers = []
    for model, group in scores.groupby("model", sort=False):
        clf = Classifier.from_scores(group["label"], group["score"], pos_label=pos, name=model)
        classifiers.append(clf)
        lo, hi = clf.operating_range
        op = clf.best(0.5)
        lines.append(
            f"{model:<22}{len(clf.roc):>8}{len(clf.hull):>6}{lo:>10.4f}{hi:>10.4f}"
            f"{op.nec:>9.4f}{op.threshold:>9.4f}{clf.area():>8.4f}"
        )
    lines += ["", "Best of all models, by operating point PCF(+):"]
    best = combined_envelope(classifiers)
    for row in best.itertuples():
        lines.append(
            f"  {row.pcf_lo:.4f} - {row.pcf_hi:.4f}: {row.classifier}"
            + (
                f" (threshold {row.threshold:.4f})"
                if row.classifier not in ("all negative", "all positive")
                else ""
            )
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    dataset = argv[0] if argv else "german_credit"
    if dataset not in DATASETS:
        print(f"unknown data set {dataset!r}; choose one of {sorted(DATASETS)}", file=sys.stderr)
        return 2
    print(summary(dataset))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
