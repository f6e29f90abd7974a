"""The snapshot record of an analysis: plain JSON, versioned, with a fingerprint of each classifier.

A snapshot is a dict of JSON values only (str, bool, int, float, None, lists, dicts with str
keys), so ``json.loads(json.dumps(s)) == s``. JSON has no NaN or infinity: a NaN (an unknown
threshold, an empty readout cell) is written as ``None``, and ±inf (the threshold of the ROC
point (0, 0)) as the strings ``"inf"`` / ``"-inf"``; :func:`from_json_number` reads them back.
"""

from __future__ import annotations

import hashlib
import math

import numpy as np

from ..model import jsonable  # noqa: F401 - the snapshot's values, shared with DecisionRule

__all__ = [
    "FORMAT",
    "VERSION",
    "SnapshotError",
    "fingerprint",
    "jsonable",
    "from_json_number",
    "compare_fingerprints",
]

FORMAT = "costwidget.snapshot"
VERSION = 1


class SnapshotError(ValueError):
    """A snapshot that cannot be restored: malformed, of another version, or of other classifiers."""


def from_json_number(value) -> float:
    """The float a snapshot number stands for (None -> NaN, "inf" -> inf)."""
    if value is None:
        return math.nan
    if value in ("inf", "-inf"):
        return float(value)
    return float(value)


def fingerprint(clf, color=None) -> dict:
    """Name, class totals and a SHA-256 of the ROC hull (its thresholds, FPRs and TPRs as
    little-endian float64): enough to tell whether a snapshot was made on these classifiers."""
    hull = clf.hull
    digest = hashlib.sha256()
    for column in ("threshold", "fpr", "tpr"):
        digest.update(
            np.ascontiguousarray(hull[column].to_numpy(dtype=np.float64), dtype="<f8").tobytes()
        )
    out = {
        "name": clf.name,
        "n_pos": jsonable(clf.n_pos),
        "n_neg": jsonable(clf.n_neg),
        "hull_vertices": int(len(hull)),
        "hull_sha256": digest.hexdigest(),
    }
    if color is not None:
        out["color"] = color
    return out


_IDENTITY = ("n_pos", "n_neg", "hull_vertices", "hull_sha256")


def compare_fingerprints(snapshot_classifiers, current) -> list[str]:
    """What differs between the snapshot's classifiers and ``current`` (both lists of
    :func:`fingerprint` dicts), as sentences; empty when they are the same classifiers
    (order and colours aside)."""
    theirs = {c.get("name"): c for c in snapshot_classifiers}
    ours = {c["name"]: c for c in current}
    problems = []
    missing = [n for n in theirs if n not in ours]
    extra = [n for n in ours if n not in theirs]
    if missing:
        problems.append(f"classifiers in the snapshot but not in this widget: {missing}")
    if extra:
        problems.append(f"classifiers in this widget but not in the snapshot: {extra}")
    for name in (n for n in theirs if n in ours):
        diffs = [
            f"{key} {theirs[name].get(key)!r} in the snapshot, {ours[name][key]!r} here"
            for key in _IDENTITY
            if theirs[name].get(key) != ours[name][key]
        ]
        if diffs:
            problems.append(f"classifier {name!r} differs: " + "; ".join(diffs))
    return problems
