"""Bundled real data sets (UCI; see ``costwidget/data/README.md`` for the citation).

Examples
--------
>>> from costwidget.datasets import load_dataset
>>> X, y = load_dataset("sonar")
>>> X.shape, y.value_counts().to_dict()
((208, 60), {'M': 111, 'R': 97})
"""

from __future__ import annotations

from importlib import resources

import pandas as pd

__all__ = ["DATASETS", "load_dataset", "load_demo_scores", "positive_label"]

#: name -> (file, label column, positive label)
DATASETS = {
    "sonar": ("sonar.csv", "Class", "M"),
    "german_credit": ("german_credit.csv", "Class", "Bad"),
    "breast_cancer": ("breast_cancer_wisconsin.csv", "Class", "malignant"),
}


def _read(filename: str) -> pd.DataFrame:
    with resources.files("costwidget.data").joinpath(filename).open("rb") as fh:
        return pd.read_csv(fh)


def load_dataset(name: str) -> tuple[pd.DataFrame, pd.Series]:
    """Return ``(X, y)`` for a bundled data set (see :func:`positive_label` for its positive class).

    Parameters
    ----------
    name : {"sonar", "german_credit", "breast_cancer"}
    """
    if name not in DATASETS:
        raise ValueError(f"Unknown data set {name!r}; choose one of {sorted(DATASETS)}.")
    filename, label, _ = DATASETS[name]
    frame = _read(filename)
    return frame.drop(columns=[label]), frame[label]


def positive_label(name: str) -> str:
    """The positive class of a bundled data set (e.g. ``"Bad"`` for German credit)."""
    if name not in DATASETS:
        raise ValueError(f"Unknown data set {name!r}; choose one of {sorted(DATASETS)}.")
    return DATASETS[name][2]


def load_demo_scores(dataset: str | None = None) -> pd.DataFrame:
    """Cross-validated scores shipped with the package (long format).

    Columns: ``dataset``, ``row``, ``fold``, ``label``, ``model``, ``score``.
    """
    frame = _read("demo_scores.csv")
    if dataset is not None:
        if dataset not in set(frame["dataset"]):
            raise ValueError(
                f"No demo scores for {dataset!r}; have {sorted(set(frame['dataset']))}."
            )
        frame = frame[frame["dataset"] == dataset].reset_index(drop=True)
    return frame
