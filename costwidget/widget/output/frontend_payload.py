"""What the front end needs to move the operating point by itself, packed as binary buffers.

The browser module ``js/src/operating_point.mjs`` computes PCF(+), each classifier's optimal
vertex, the constrained rules and the readout from a few arrays per classifier. They are sent
once, and again only when the classifiers change, as little-endian float64 buffers (one
contiguous ``bytes`` object per array) and a small JSON header naming them, never as JSON lists:

* exact: every double arrives bit for bit, and thresholds ``±inf`` and ``NaN`` (a classifier
  without thresholds) survive, which JSON cannot carry;
* small and fast: 8 bytes a number, decoded into a ``Float64Array`` without parsing (the
  ipywidgets comm and an exported page's base64 both carry buffers as they are).

Per classifier (``PAYLOAD_ARRAYS``):

``hull_threshold, hull_fpr, hull_tpr``
    The ROC convex hull's vertices (``clf.hull``), for the constraints.
``segment_lo, segment_hi, segment_vertex``
    The lower envelope as its pieces of positive length (``clf.segments``): hull vertex
    ``segment_vertex[i]`` is optimal on ``[segment_lo[i], segment_hi[i])``. The ``segment_lo``
    are the envelope's breakpoints; a binary search over them finds the optimal vertex with the
    model's tie rule (``clf.best``).
``single_threshold, single_fpr, single_tpr``
    The ROC points that can be a constraint's best single threshold: the first point (lowest
    FPR) of each distinct TPR. Any other point has a TPR equal to one of these and no lower FPR,
    hence no lower load under Neyman-Pearson or any workforce population.
``scalars``
    ``[n_pos, n_neg, range_lo, range_hi]``: the class totals (NaN when unknown, from_roc) and
    the operating range.
``hull_next_score``
    The next lower distinct score below each hull vertex's threshold (``-inf`` below the
    lowest, NaN without thresholds): the headline shows a threshold with the digits that select
    the same cases (`costwidget.model.kernels.readable.selecting_threshold`).
``hull_counted_fpr, hull_counted_tpr``
    Per-case costs only (the classifiers are then the cost-weighted twins): each hull vertex's
    FPR and TPR counted on the cases, with ``sample_weight`` (`counted_rates` of the classifier
    as given at the vertex's threshold), the rates the headline prints (`hull_counted_rates`).

The single candidates are as many as the distinct TPRs (up to the number of positives: three
float64 each would make the payload grow with the data, 21.6 MB for 3 × 10^6 scores). When the
class totals are known they travel instead as one byte buffer per classifier (``"single"`` in
the header, :func:`encode_single`): per candidate two or three unsigned LEB128 varints,

* the change in the count of false positives (zigzag) times 2, plus 1 when the count of true
  positives does not rise by exactly one, and then that change (zigzag): exact, the front end
  divides by ``n_pos``, ``n_neg`` as the model does (checked bit for bit here, else the three
  float64 arrays are sent);
* the threshold to 6 significant digits, as a change in an order-preserving integer key, times
  3, plus which side of that decimal's nearest double the exact threshold lies (0 on it, 1
  below, 2 above). The front end takes that double's neighbour on that side: a number that
  prints as the exact threshold does at 6 significant digits (the constraint's message) and at
  4 (``readable``, the table), and lies within ``THRESHOLD_RELATIVE_BOUND`` of it. The FPRs,
  TPRs and so which point is the best single choice are exact.

A candidate then costs 2 to 3 bytes: the payload grows with the number of distinct TPRs of
each classifier, not with bytes per double (0.7 MB for 3 × 10^6 continuous scores).

Uses only the public API of :mod:`costwidget.model`.
"""

from __future__ import annotations

import json

import numpy as np

from ...frontend.contract import (
    PAYLOAD_ARRAYS,
    PAYLOAD_FORMAT,
    PAYLOAD_VERSION,
    SINGLE_ARRAYS,
    THRESHOLD_DIGITS,
    THRESHOLD_RELATIVE_BOUND,
)
from ...model import Classifier, next_lower_scores
from .single_varints import decode_single, encode_single

__all__ = [
    "PAYLOAD_ARRAYS",
    "PAYLOAD_FORMAT",
    "PAYLOAD_VERSION",
    "SINGLE_ARRAYS",
    "THRESHOLD_DIGITS",
    "THRESHOLD_RELATIVE_BOUND",
    "classifier_arrays",
    "hull_counted_rates",
    "encode_single",
    "decode_single",
    "pack_classifiers",
    "unpack_classifiers",
    "payload_json",
]

_DTYPE = np.dtype("<f8")


def _segment_vertices(hull, segments) -> np.ndarray:
    """Index in the hull of each segment's vertex.

    The segments are a subsequence of the hull, and the hull's (fpr, tpr) strictly increase in
    lexicographic order, so a search over complex numbers (numpy orders them by real part, then
    imaginary part) finds each; it is then checked exactly.
    """
    key = np.empty(len(hull), dtype=np.complex128)
    key.real, key.imag = hull["fpr"].to_numpy(), hull["tpr"].to_numpy()
    want = np.empty(len(segments), dtype=np.complex128)
    want.real, want.imag = segments["fpr"].to_numpy(), segments["tpr"].to_numpy()
    idx = np.searchsorted(key, want)
    ok = (idx < len(key)) & (key[np.minimum(idx, len(key) - 1)] == want)
    if not ok.all():
        raise AssertionError("an envelope segment's vertex is not a hull vertex")
    return idx.astype(np.float64)


def _single_candidates(roc) -> np.ndarray:
    """Indices (in ROC order) of the first ROC point of each distinct TPR."""
    _, first = np.unique(roc["tpr"].to_numpy(), return_index=True)
    return np.sort(first)


def classifier_arrays(clf: Classifier) -> dict[str, np.ndarray]:
    """The float64 arrays of one classifier that the front end needs (see the module docstring).

    Parameters
    ----------
    clf : Classifier

    Returns
    -------
    dict
        ``{name: 1-D float64 array}`` for every name of ``PAYLOAD_ARRAYS``.

    Examples
    --------
    >>> import costwidget as cw
    >>> a = classifier_arrays(cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7))
    >>> a["hull_fpr"].tolist(), a["segment_lo"].tolist(), a["segment_vertex"].tolist()
    ([0.0, 0.3, 1.0], [0.0, 0.3, 0.7], [0.0, 1.0, 2.0])
    >>> a["hull_threshold"].tolist(), a["scalars"].tolist()
    ([inf, nan, -inf], [10.0, 10.0, 0.3, 0.7])
    """
    if not isinstance(clf, Classifier):
        raise TypeError(f"expected a Classifier, got {type(clf).__name__}.")
    hull = clf.hull
    segments = clf.segments
    roc = clf.roc
    single = _single_candidates(roc)
    lo, hi = clf.operating_range
    nan = float("nan")
    out = {
        "hull_threshold": hull["threshold"].to_numpy(),
        "hull_fpr": hull["fpr"].to_numpy(),
        "hull_tpr": hull["tpr"].to_numpy(),
        "segment_lo": segments["pcf_lo"].to_numpy(),
        "segment_hi": segments["pcf_hi"].to_numpy(),
        "segment_vertex": _segment_vertices(hull, segments),
        "single_threshold": roc["threshold"].to_numpy()[single],
        "single_fpr": roc["fpr"].to_numpy()[single],
        "single_tpr": roc["tpr"].to_numpy()[single],
        "scalars": np.array(
            [
                nan if clf.n_pos is None else float(clf.n_pos),
                nan if clf.n_neg is None else float(clf.n_neg),
                lo,
                hi,
            ]
        ),
        "hull_next_score": next_lower_scores(
            roc["threshold"].to_numpy(), hull["threshold"].to_numpy()
        ),
    }
    return {k: np.ascontiguousarray(v, dtype=_DTYPE) for k, v in out.items()}


def hull_counted_rates(twin: Classifier, given: Classifier) -> dict[str, np.ndarray]:
    """``{"hull_counted_fpr", "hull_counted_tpr"}`` of a cost-weighted ``twin``: at each of its
    hull vertices, the FPR and TPR of "flag when score >= the vertex's threshold" counted on the
    cases of ``given`` (`counted_rates`, which the kernel's headline prints), to the last bit;
    NaN at a vertex without a threshold.

    Examples
    --------
    >>> import costwidget as cw
    >>> from costwidget.model import cost_weighted
    >>> clf = cw.Classifier.from_scores([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1],
    ...                                 cost_fn=[10.0, 0, 4.0, 0], cost_fp=1.0)
    >>> twin = cost_weighted(clf)[0]
    >>> r = hull_counted_rates(twin, clf)
    >>> r["hull_counted_fpr"].tolist(), r["hull_counted_tpr"].tolist()
    ([0.0, 0.0, 0.5, 1.0], [0.0, 0.5, 1.0, 1.0])
    """
    cc = given.case_costs
    scores = np.asarray(given.sample.scores, dtype=np.float64)
    thresholds = twin.hull["threshold"].to_numpy()
    out = {}
    for key, side in (("hull_counted_fpr", ~cc.is_pos), ("hull_counted_tpr", cc.is_pos)):
        weights = None if cc.weights is None else np.asarray(cc.weights, float)[side]
        out[key] = _counted_side(scores[side], weights, thresholds)
    return out


def _counted_side(scores, weights, thresholds) -> np.ndarray:
    """The share of one class's cases scored >= each threshold, as `counted_rates` sums it:
    ``(w * (scores >= t)).sum() / w.sum()`` over the class's cases in their order (the same
    products in the same order, so the same pairwise sum). Without weights the sums are counts,
    exact, found by a binary search."""
    rates = np.full(len(thresholds), np.nan)
    known = ~np.isnan(thresholds)
    if weights is None:
        total = float(len(scores))
        below = np.searchsorted(np.sort(scores), thresholds[known], side="left")
        sums = (len(scores) - below).astype(np.float64)
    else:
        total = float(weights.sum())
        sums = np.array([float((weights * (scores >= t)).sum()) for t in thresholds[known]])
    rates[known] = sums / total if total > 0 else 0.0
    return np.ascontiguousarray(rates, dtype=_DTYPE)


def _named(classifiers):
    if isinstance(classifiers, dict):
        return list(classifiers.items())
    out = []
    for i, item in enumerate(classifiers):
        if isinstance(item, Classifier):
            out.append((item.name if item.name is not None else f"classifier {i}", item))
        else:
            name, clf = item
            out.append((str(name), clf))
    return out


def pack_classifiers(classifiers, extra=None) -> tuple[dict, list[bytes]]:
    """Pack classifiers for the front end: a JSON-able header and one ``bytes`` per array.

    Parameters
    ----------
    classifiers : dict, or sequence of Classifier or of (name, Classifier)
        In the order the front end draws them (a dict's order; unnamed classifiers are
        called ``"classifier i"``, as the widget names them).
    extra : dict, optional
        ``{name: {array name: array}}``: optional arrays of ``PAYLOAD_OPTIONAL_ARRAYS`` to send
        too (the per-case costs' `hull_counted_rates`).

    Returns
    -------
    header : dict
        ``{"format", "version", "dtype": "<f8", "classifiers": [{"name", "arrays": {array name:
        {"buffer": index, "offset": byte offset, "length": number of float64}}, "single":
        {"encoding", "buffer", "offset", "bytes", "length": number of candidates}}]}``;
        ``"single"`` only when :func:`encode_single` applies (the ``single_*`` arrays then are
        not in ``"arrays"``).
    buffers : list of bytes
        Little-endian float64, one per array, and the single candidates' varints;
        ``buffers[i]`` is what ``"buffer": i`` names.

    Examples
    --------
    >>> import costwidget as cw
    >>> header, buffers = pack_classifiers([cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7,
    ...                                                                    name="a")])
    >>> header["classifiers"][0]["arrays"]["hull_fpr"], len(buffers)
    ({'buffer': 1, 'offset': 0, 'length': 3}, 9)
    >>> np.frombuffer(buffers[1], "<f8").tolist()
    [0.0, 0.3, 1.0]
    """
    entries, buffers = [], []
    for name, clf in _named(classifiers):
        all_arrays = classifier_arrays(clf)
        for key, arr in (extra or {}).get(name, {}).items():
            all_arrays[key] = np.ascontiguousarray(arr, dtype=_DTYPE)
        single = _encoded_single(clf, all_arrays)
        entry = {"name": name, "arrays": {}}
        for key, arr in all_arrays.items():
            if single is not None and key in SINGLE_ARRAYS:
                continue
            entry["arrays"][key] = {"buffer": len(buffers), "offset": 0, "length": int(arr.size)}
            buffers.append(arr.tobytes())
        if single is not None:
            entry["single"] = {
                "encoding": "leb128-counts-6g",
                "buffer": len(buffers),
                "offset": 0,
                "bytes": len(single),
                "length": int(all_arrays["single_fpr"].size),
            }
            buffers.append(single)
        entries.append(entry)
    header = {
        "format": PAYLOAD_FORMAT,
        "version": PAYLOAD_VERSION,
        "dtype": _DTYPE.str,
        "classifiers": entries,
    }
    return header, buffers


def _encoded_single(clf: Classifier, arrays: dict) -> bytes | None:
    roc = clf.roc
    if not {"tp", "fp"} <= set(roc.columns):
        return None
    first = _single_candidates(roc)
    return encode_single(arrays, roc["tp"].to_numpy()[first], roc["fp"].to_numpy()[first])


def unpack_classifiers(header: dict, buffers) -> list[tuple[str, dict[str, np.ndarray]]]:
    """The inverse of :func:`pack_classifiers` (for tests and tools): ``[(name, arrays)]``.

    Examples
    --------
    >>> import costwidget as cw
    >>> clf = cw.Classifier.from_scores([0, 1, 1], [0.2, 0.9, 0.2])
    >>> (name, arrays), = unpack_classifiers(*pack_classifiers({"s": clf}))
    >>> name, arrays["hull_threshold"].tolist()
    ('s', [inf, 0.9, 0.2])
    """
    if header.get("format") != PAYLOAD_FORMAT or header.get("version") != PAYLOAD_VERSION:
        raise ValueError(f"not a costwidget operating-point payload of version {PAYLOAD_VERSION}")
    out = []
    for entry in header["classifiers"]:
        arrays = {}
        for key, spec in entry["arrays"].items():
            arrays[key] = np.frombuffer(
                buffers[spec["buffer"]], dtype=_DTYPE, count=spec["length"], offset=spec["offset"]
            )
        if "single" in entry:
            spec = entry["single"]
            data = bytes(buffers[spec["buffer"]])[spec["offset"] : spec["offset"] + spec["bytes"]]
            arrays.update(
                decode_single(
                    data, spec["length"], n_pos=arrays["scalars"][0], n_neg=arrays["scalars"][1]
                )
            )
        out.append((entry["name"], arrays))
    return out


def payload_json(header: dict) -> str:
    """The header as compact JSON text (it holds no floats, so strict JSON always works)."""
    return json.dumps(header, separators=(",", ":"), allow_nan=False)
