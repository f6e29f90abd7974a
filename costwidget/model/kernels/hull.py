"""The ROC convex hull: the upper hull of points sorted by x then y.

Integer coordinates (unweighted counts) are tested exactly in int64 (Python ints
from 2**31 on, where int64 cross products could overflow).
Floating-point coordinates use a relative tolerance of a few ulps so that
points that are collinear on paper (e.g. (0.1, 0.1), (0.2, 0.2), (0.3, 0.3))
are treated as collinear and dropped.

The hull is found by vectorized pruning: every interior point that does not
make a strict right turn with its current neighbours lies on or below the
chord joining them, so it is not a hull vertex and can be dropped, all such
points at once. Repeating until nothing is dropped leaves a strictly concave
chain, which is the hull. Random ROC curves need a handful of passes; if the
chain shrinks slowly the rest is finished by the sequential monotone chain.
"""

from __future__ import annotations

import numpy as np

__all__ = ["upper_hull"]

_FLOAT_RTOL = 64 * np.finfo(np.float64).eps
_SLOW_SHRINK = 0.9  # a pass that keeps more than this fraction hands over to the monotone chain
_SEQUENTIAL_MAX = 20_000
_INT_EXACT_MAX = 1 << 31  # int64 cross products of coordinates below this cannot overflow
_SKELETON_MIN = 2048  # below this many candidates the pruning passes are cheap enough
_SKELETON_SAMPLE = 1024  # points of the sample whose hull prunes the candidates


def _turns_right(ux, uy, vx, vy) -> np.ndarray:
    """True where u x v < 0 (a strict right turn from step u to step v), for arrays.

    Integers are exact. Floats get each vector scaled so that its larger
    component is 1 (a positive scale keeps the sign): products of tiny
    components such as 0.5 * 5e-324 would otherwise underflow to 0 and make a
    turn look collinear. The tolerance is relative to the products' sizes.
    """
    if np.result_type(ux, vx).kind in "iuO":  # int64, or Python ints for huge counts
        return ux * vy - uy * vx < 0
    ux, uy = _unit_max(ux, uy)
    vx, vy = _unit_max(vx, vy)
    left, right = ux * vy, uy * vx
    return left - right < -_FLOAT_RTOL * (np.abs(left) + np.abs(right))


def _unit_max(dx, dy):
    size = np.maximum(np.abs(dx), np.abs(dy))
    size = np.where(size > 0, size, 1.0)  # a zero vector stays zero
    return dx / size, dy / size


def _right_turn(ax, ay, bx, by, cx, cy) -> np.ndarray:
    return _turns_right(bx - ax, by - ay, cx - bx, cy - by)


def _monotone_chain(x, y, idx: np.ndarray) -> np.ndarray:
    xs, ys = x[idx].tolist(), y[idx].tolist()
    exact = x.dtype.kind in "iuO"
    stack: list[int] = []
    for k in range(len(xs)):
        while len(stack) >= 2:
            a, b = stack[-2], stack[-1]
            ux, uy, vx, vy = xs[b] - xs[a], ys[b] - ys[a], xs[k] - xs[b], ys[k] - ys[b]
            if exact:
                right = ux * vy - uy * vx < 0
            else:  # as in _turns_right, scaled against underflow
                su, sv = max(abs(ux), abs(uy)) or 1.0, max(abs(vx), abs(vy)) or 1.0
                left, rite = (ux / su) * (vy / sv), (uy / su) * (vx / sv)
                right = left - rite < -_FLOAT_RTOL * (abs(left) + abs(rite))
            if right:
                break
            stack.pop()
        stack.append(k)
    return idx[np.asarray(stack, dtype=np.intp)]


def _first_pass(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Indices of the points that may be hull vertices, from consecutive steps only (no gathers).

    ROC points never go down, and then a strict right turn needs a rising step
    in and a step to the right out (a flat step in or a vertical step out
    cannot turn right); two comparisons find those points, which is cheaper
    than the turn itself on a long list. Other inputs get the exact turn test.
    """
    keep = np.ones(len(x), dtype=bool)
    if np.all(y[1:] >= y[:-1]):
        np.greater(y[1:-1], y[:-2], out=keep[1:-1])
        keep[1:-1] &= x[2:] > x[1:-1]
        return np.flatnonzero(keep)
    dx, dy = np.diff(x), np.diff(y)
    keep[1:-1] = _turns_right(dx[:-1], dy[:-1], dx[1:], dy[1:])
    return np.flatnonzero(keep)


def _below_skeleton_dropped(x, y, idx: np.ndarray) -> np.ndarray:
    """``idx`` without the candidates on or below the hull of an evenly spaced sample of them.

    Any point on or below the chord joining two points of the set is not a strict vertex
    (the chord lies under the hull, which is concave), so one pass against the sample's
    hull drops most candidates of a long, smooth ROC curve at once, where the pruning
    passes would halve them a pass at a time. Integer coordinates only: the test is exact
    there, so the hull found is the same whichever true chords prune it.
    """
    sample = idx[:: max(2, len(idx) // _SKELETON_SAMPLE)]
    if sample[-1] != idx[-1]:
        sample = np.append(sample, idx[-1])
    skeleton = sample[upper_hull(x[sample], y[sample])]
    # The chord of skeleton points a < i < b (as indices) that each candidate lies under.
    right = np.searchsorted(skeleton, idx, side="left")
    on_skeleton = skeleton[np.minimum(right, len(skeleton) - 1)] == idx
    right = np.clip(right, 1, len(skeleton) - 1)
    a, b = skeleton[right - 1], skeleton[right]
    px, py = x[idx], y[idx]
    keep = _turns_right(px - x[a], py - y[a], x[b] - px, y[b] - py)
    keep |= on_skeleton
    return idx[keep]


def upper_hull(x: np.ndarray, y: np.ndarray, candidates: np.ndarray | None = None) -> np.ndarray:
    """Indices of the strict vertices of the upper convex hull of sorted points.

    Parameters
    ----------
    x, y : ndarray
        Points sorted by x, then by y, with no two points equal. The first
        and last points are always vertices.
    candidates : ndarray of intp, optional
        Increasing indices that include every hull vertex and the first and
        last points, e.g. the hull vertices of each part of the points.

    Returns
    -------
    ndarray of intp
        Increasing indices into ``x``/``y``; collinear interior points are dropped.

    Examples
    --------
    >>> import numpy as np
    >>> from costwidget.model.kernels.hull import upper_hull
    >>> upper_hull(np.array([0, 0, 1, 2, 3]), np.array([0, 1, 2, 3, 3])).tolist()   # (1, 2) is collinear
    [0, 1, 3, 4]
    >>> upper_hull(np.array([0, 0, 3 * 10**12]), np.array([0, 10**12, 10**12])).tolist()  # no int64 overflow
    [0, 1, 2]
    """
    if len(x) <= 2:
        return np.arange(len(x))
    # Extremes by min and max: no temporary array of absolute values over a long list.
    if x.dtype.kind in "iu" and max(-x.min(), x.max(), -y.min(), y.max()) >= _INT_EXACT_MAX:
        # Products of differences could overflow int64: use Python ints (exact, slower).
        x, y = x.astype(object), y.astype(object)
    idx = _first_pass(x, y) if candidates is None else candidates
    while len(idx) > _SKELETON_MIN and x.dtype.kind in "iu":
        fewer = _below_skeleton_dropped(x, y, idx)
        shrunk, idx = len(fewer) < len(idx) // 2, fewer
        if not shrunk:
            break
    while len(idx) > 2:
        px, py = x[idx], y[idx]
        keep = np.ones(len(idx), dtype=bool)
        keep[1:-1] = _right_turn(px[:-2], py[:-2], px[1:-1], py[1:-1], px[2:], py[2:])
        kept = int(keep.sum())
        if kept == len(idx):
            break
        idx = idx[keep]
        if kept > _SLOW_SHRINK * len(keep) and len(idx) <= _SEQUENTIAL_MAX:
            return _monotone_chain(x, y, idx)
    return idx
