"""Exact stratified-bootstrap counts, drawn fast for many replicates at once.

A stratified bootstrap replicate redraws the ``n_s`` instances of every
stratum ``s`` (a class, or a class within a fold) with replacement. Instances
that nothing downstream tells apart form a *unit* (a score bin of one class;
for a paired analysis, a pair of score bins): the draws per unit are
``Multinomial(n_s, c / n_s)``, ``c`` the units' instance counts. numpy draws a
multinomial as one binomial per unit in sequence (about 140 ns a unit); this
module draws the same law in a few ns a unit:

1. every unit gets an independent ``X ~ Poisson(r_s·c)`` with
   ``r_s = 1 - 4/sqrt(n_s)``, so that the stratum's total ``T_s`` exceeds
   ``n_s`` only with probability about 3e-5;
2. a replicate in which some ``T_s > n_s`` has its Poisson draws made again;
3. the ``n_s - T_s`` draws still missing are made one at a time: an instance
   of the stratum picked uniformly, counted in its unit.

This is exact, not an approximation. Given ``T_s = t``, independent Poisson
counts are ``Multinomial(t, c/n_s)`` (a Poisson vector conditioned on its
sum); adding ``n_s - t`` independent uniform picks of instances gives
``Multinomial(n_s, c/n_s)`` whatever ``t`` is. So neither the law of ``T_s``
nor step 2's redraw (which looks at the totals only) changes the result.

Poisson draws of small means are made by inversion from tables, vectorized
over replicates. A unit of up to 512 instances is drawn as a few pieces of 15
fixed sizes from 1 to 128 (the sum of independent Poisson draws is Poisson with
the summed mean); larger units use numpy's sampler (about 40 ns a value).
For a piece, the top
12 bits of a random 16-bit word pick one of 4096 equal slices of [0, 1); for
a slice that no step of the Poisson CDF crosses the table holds the value, and
a slice that a step crosses (well under 1 % of draws) is resolved with a fresh
uniform ``V``: ``U = (slice + V) / 4096`` against the CDF. That is plain
inversion sampling, ``X = #{k : F(k) <= U}``, with a finer-than-double uniform.

The draws are summed into the caller's *keys* as they are made (e.g. the
score bins of classifier A, and those of B: each unit has one key per
grouping), a few replicates at a time by a sparse 0/1 matrix product, so the
full (units x replicates) matrix never exists. Nothing here is shared between
calls: separate threads can draw at the same time.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["unit_sums", "stratified_sums", "stratified_counts"]

#: Piece sizes with an inversion table (at most 16: the table id takes 4 bits of a word).
PIECE_SIZES = (128, 96, 64, 48, 32, 24, 16, 12, 8, 6, 5, 4, 3, 2, 1)
#: Units up to this size are drawn as pieces from the tables, larger ones by numpy's sampler.
SPLIT_MAX_COUNT = 512
_SLICE_BITS = 12
_SLICES = 1 << _SLICE_BITS
#: Poisson totals are aimed this many standard deviations below the stratum size.
MARGIN_SD = 4.0
#: Values per chunk of the table draws: about 2M, so that with many units (paired bands)
#: a chunk is a few dozen replicates and the products that sum it per key stay in cache.
_BLOCK_VALUES = 1 << 21
#: Strata up to this size map a uniform pick to its unit with a lookup table.
_LOOKUP_MAX = 1 << 23

_RAW64 = tuple(getattr(np.random, name) for name in ("PCG64", "PCG64DXSM", "SFC64", "Philox"))


def _random_words(rng: np.random.Generator, shape) -> np.ndarray:
    """Uniform 16-bit words: four per raw 64-bit output when the bit generator gives 64 bits."""
    size = int(np.prod(shape))
    bitgen = rng.bit_generator
    if isinstance(bitgen, _RAW64):
        raw = bitgen.random_raw((size + 3) // 4)
        return raw.view(np.uint16)[:size].reshape(shape)
    return rng.integers(0, 1 << 16, size=shape, dtype=np.uint16)


def _poisson_cdfs(lams: np.ndarray) -> np.ndarray:
    """CDF rows ``F[i, k] = P(Poisson(lams[i]) <= k)``, long enough to reach 1.0 in float.

    The pmf is made by the ratio recurrence ``p_k / p_{k-1} = λ/k`` outwards
    from the mode and normalized by its sum (the terms left out are below
    1e-30), so that each term is within a few hundred units in the last place
    of its value and the CDF within about 1e-15 (scipy.stats would cost a
    second to import).
    """
    top = float(lams.max()) if lams.size else 0.0
    k = np.arange(int(top + 12 * math.sqrt(top + 1) + 40) + 1, dtype=np.float64)
    out = np.empty((len(lams), len(k)))
    for row, lam in zip(out, lams):
        mode = int(lam)
        w = np.ones(len(k))
        w[mode + 1 :] = np.cumprod(lam / k[mode + 1 :])
        if mode > 0:
            w[:mode] = np.cumprod(k[mode:0:-1] / lam)[::-1]
        row[:] = np.cumsum(w) / w.sum()
    np.minimum(out, 1.0, out=out)
    out[:, -1] = 1.0
    return out


def _inversion_table(cdf: np.ndarray) -> np.ndarray:
    """Value of ``#{k : F(k) <= U}`` for every U in each slice, or -1 where a CDF step crosses it.

    ``cdf`` has one row per table; the result is flat, table ``i`` at
    ``[i·4096, (i+1)·4096)``, int32 (what the sums per key are made in).
    """
    left = np.arange(_SLICES) / _SLICES
    right = (np.arange(_SLICES) + 1) / _SLICES
    out = np.empty((len(cdf), _SLICES), dtype=np.int32)
    for i, row in enumerate(cdf):
        lo = np.searchsorted(row, left, side="right")  # value at the slice's lowest U
        hi = np.searchsorted(row, right, side="left")  # value just below its upper end
        out[i] = np.where(lo == hi, lo, -1)
    return out.ravel()


class _Stratum:
    """The units of one stratum and their draw plan."""

    def __init__(self, counts, keys, n_keys):
        from scipy import sparse

        self.n = int(counts.sum())
        self.counts = counts
        self.keys = keys  # key of each unit, per grouping
        self.rate = max(0.0, 1.0 - MARGIN_SD / math.sqrt(self.n)) if self.n else 0.0
        # Units up to SPLIT_MAX_COUNT are drawn from the tables as pieces of the sizes in
        # PIECE_SIZES, largest first (a sum of independent Poisson draws is Poisson of the
        # summed mean); larger units by numpy's sampler.
        none = np.zeros(0, np.int64)
        tabled = np.flatnonzero(counts <= SPLIT_MAX_COUNT) if self.rate > 0 else none
        self.large = np.flatnonzero(counts > SPLIT_MAX_COUNT) if self.rate > 0 else none
        units, pieces, left = [], [], counts[tabled].copy()
        for size in PIECE_SIZES:
            q = left // size
            units.append(np.repeat(tabled, q))
            pieces.append(np.full(int(q.sum()), size))
            left -= q * size
        order = np.argsort(np.concatenate(units), kind="stable")
        self.small = np.concatenate(units)[order]  # the unit of each piece
        piece = np.concatenate(pieces)[order]

        def summing(rows, dtype):
            # (n_keys x len(rows)) 0/1 matrix: its product with counts sums them per key.
            return [
                sparse.csr_matrix(
                    (np.ones(len(rows), dtype), (key[rows], np.arange(len(rows)))),
                    shape=(k, len(rows)),
                )
                for key, k in zip(keys, n_keys)
            ]

        self.sum_small = summing(self.small, np.int32)
        self.sum_large = summing(self.large, np.int64)
        if self.small.size:
            present = np.unique(piece)
            self.cdf = _poisson_cdfs(self.rate * present.astype(np.float64))
            self.table = _inversion_table(self.cdf)
            tid = np.searchsorted(present, piece)
            self.tid = tid.astype(np.intp)
            # Table id in the word's top bits: tid·4096 + slice indexes the flat table.
            self.tid_bits = tid.astype(np.uint16) << _SLICE_BITS
        # Instance i of the stratum (in unit order) is in unit searchsorted(cum, i, "right");
        # a table of every instance's keys is faster when it is small enough.
        self.cum = np.cumsum(counts)
        self.instance_keys = (
            [np.repeat(key.astype(np.int32), counts) for key in keys]
            if self.n <= _LOOKUP_MAX
            else None
        )

    def keys_of(self, instance):
        """Each grouping's keys of the given instances of the stratum."""
        if self.instance_keys is not None:
            return [k[instance] for k in self.instance_keys]
        unit = np.searchsorted(self.cum, instance, side="right")
        return [key[unit] for key in self.keys]


def _draw_small(st: _Stratum, n_boot, rng, outs, total):
    """Table inversion for the small units, a few replicates at a time, summed per key."""
    if not st.small.size:
        return
    chunk = max(1, min(n_boot, _BLOCK_VALUES // st.small.size))
    for lo in range(0, n_boot, chunk):
        hi = min(n_boot, lo + chunk)
        words = _random_words(rng, (st.small.size, hi - lo))
        words >>= 16 - _SLICE_BITS
        words |= st.tid_bits[:, None]
        x = st.table[words]
        bad = np.flatnonzero(x < 0)
        if bad.size:
            # A CDF step crosses the slice: draw U uniformly inside it and invert exactly.
            slice_ = (words.ravel()[bad] & (_SLICES - 1)).astype(np.float64)
            u = (slice_ + rng.random(bad.size)) / _SLICES
            tid = st.tid[bad // (hi - lo)]
            flat = x.ravel()
            for t in np.unique(tid):
                at = tid == t
                flat[bad[at]] = np.searchsorted(st.cdf[t], u[at], side="right")
        for g, (out, summing) in enumerate(zip(outs, st.sum_small)):
            part = summing @ x
            out[:, lo:hi] += part
            if g == 0:  # every unit has one key in a grouping: the keys' sums add up to the total
                total[lo:hi] += part.sum(axis=0)


def _draw_large(st: _Stratum, n_boot, rng, outs, total):
    """numpy's Poisson sampler for the units too large for a table."""
    if st.large.size:
        lam = st.rate * st.counts[st.large].astype(np.float64)
        x = rng.poisson(lam[:, None], size=(st.large.size, n_boot))
        total += x.sum(axis=0)
        for out, summing in zip(outs, st.sum_large):
            out += summing @ x


def _redraw_replicate(strata, r, rng, outs, totals):
    """Replicate ``r``'s Poisson part again (numpy's sampler) until no total exceeds its n_s.

    Before the uniform picks ``outs[g][:, r]`` holds only the Poisson part, so it is replaced.
    """
    while True:
        draws = [
            rng.poisson(st.rate * st.counts.astype(np.float64))
            if st.rate > 0
            else np.zeros(len(st.counts), np.int64)
            for st in strata
        ]
        if all(int(x.sum()) <= st.n for x, st in zip(draws, strata)):
            break
    for g, out in enumerate(outs):
        out[:, r] = 0
        for st, x in zip(strata, draws):
            out[:, r] += np.bincount(st.keys[g], weights=x, minlength=out.shape[0]).astype(np.int64)
    totals[:, r] = [x.sum() for x in draws]


def unit_sums(stratum, count, keys, n_keys, n_boot: int, rng: np.random.Generator):
    """Bootstrap draws per key from units of interchangeable instances: (n_boot, n_keys) arrays.

    Parameters
    ----------
    stratum : array of int, one per unit
        Each stratum is resampled to its own size (the sum of its units' counts).
    count : array of int, one per unit
        The number of instances in the unit (> 0).
    keys : list of arrays of int, one per unit each
        For each grouping, the key each unit's draws are counted in.
    n_keys : list of int
        The number of keys of each grouping.
    n_boot : int
        The number of replicates.
    rng : numpy.random.Generator
        Consumed in a fixed order: the same units, in the same order, and the
        same generator state give the same counts.

    Returns
    -------
    list of ndarray
        One (n_boot, n_keys) int64 array per grouping.

    Examples
    --------
    >>> import numpy as np
    >>> (c,) = unit_sums(np.array([0, 0, 1]), np.array([2, 1, 3]), [np.array([0, 1, 2])], [3],
    ...                  4, np.random.default_rng(0))
    >>> c.shape, c[:, :2].sum(axis=1).tolist(), c[:, 2].tolist()
    ((4, 3), [3, 3, 3, 3], [3, 3, 3, 3])
    """
    stratum = np.asarray(stratum, dtype=np.int64)
    count = np.asarray(count, dtype=np.int64)
    keys = [np.asarray(k, dtype=np.int64) for k in keys]
    order = np.argsort(stratum, kind="stable")
    s_sorted = stratum[order]
    bounds = np.flatnonzero(np.concatenate(([True], s_sorted[1:] != s_sorted[:-1], [True])))
    outs = [np.zeros((k, n_boot), dtype=np.int64) for k in n_keys]
    strata = []
    totals = np.zeros((len(bounds) - 1, n_boot), dtype=np.int64)
    for i, (a, b) in enumerate(zip(bounds[:-1], bounds[1:])):
        rows = order[a:b]
        st = _Stratum(count[rows], [k[rows] for k in keys], n_keys)
        _draw_small(st, n_boot, rng, outs, totals[i])
        _draw_large(st, n_boot, rng, outs, totals[i])
        strata.append(st)
    sizes = np.array([st.n for st in strata])
    for r in np.flatnonzero((totals > sizes[:, None]).any(axis=0)):
        _redraw_replicate(strata, r, rng, outs, totals)
    rep_ids = np.arange(n_boot)
    for i, st in enumerate(strata):
        missing = st.n - totals[i]
        keys = st.keys_of(rng.integers(0, st.n, size=int(missing.sum())))
        rep = np.repeat(rep_ids, missing)
        for out, key in zip(outs, keys):
            key = key.astype(np.int64)
            key *= n_boot
            key += rep
            out += np.bincount(key, minlength=out.size).reshape(out.shape)
    return [np.ascontiguousarray(out.T) for out in outs]


def stratified_sums(cell, stratum, groupings, n_boot: int, rng: np.random.Generator):
    """Bootstrap counts of instances summed per key, for every grouping: (n_boot, n_keys) arrays.

    Parameters
    ----------
    cell : array of int, one per instance
        Instances in the same cell and stratum are interchangeable.
    stratum : array of int, one per instance
        Each stratum is resampled to its own size.
    groupings : list of (key, n_keys)
        ``key`` maps a cell id to a key in ``range(n_keys)`` (an array indexed
        by cell id). The result for a grouping is the number of draws per key.
    n_boot : int
        The number of replicates.
    rng : numpy.random.Generator
        Consumed in a fixed order: the same state gives the same counts.

    Returns
    -------
    list of ndarray
        One (n_boot, n_keys) int64 array per grouping.

    Examples
    --------
    >>> import numpy as np
    >>> cell = np.array([0, 0, 1, 2, 2, 2])
    >>> stratum = np.array([0, 0, 0, 1, 1, 1])
    >>> (counts,) = stratified_sums(cell, stratum, [(np.arange(3), 3)], 4,
    ...                             np.random.default_rng(0))
    >>> counts.shape, counts[:, :2].sum(axis=1).tolist(), counts[:, 2].tolist()
    ((4, 3), [3, 3, 3, 3], [3, 3, 3, 3])
    """
    cell = np.asarray(cell, dtype=np.int64)
    stratum = np.asarray(stratum, dtype=np.int64)
    # Units: (stratum, cell) pairs, in sorted order.
    order = np.lexsort((cell, stratum))
    s_sorted, c_sorted = stratum[order], cell[order]
    start = np.flatnonzero(
        np.concatenate(([True], (s_sorted[1:] != s_sorted[:-1]) | (c_sorted[1:] != c_sorted[:-1])))
    )
    unit_cell = c_sorted[start]
    count = np.diff(np.concatenate((start, [len(cell)])))
    keys = [np.asarray(key)[unit_cell] for key, _ in groupings]
    return unit_sums(s_sorted[start], count, keys, [k for _, k in groupings], n_boot, rng)


def stratified_counts(
    cell, stratum, n_cells: int, n_boot: int, rng: np.random.Generator
) -> np.ndarray:
    """Bootstrap counts per cell, (n_boot, n_cells): each stratum resampled to its own size.

    Parameters
    ----------
    cell : array of int, one per instance
        In ``range(n_cells)``.
    stratum : array of int, one per instance
    n_cells : int
    n_boot : int
    rng : numpy.random.Generator

    Returns
    -------
    ndarray of int64, (n_boot, n_cells)

    Examples
    --------
    >>> import numpy as np
    >>> c = stratified_counts(np.array([0, 1, 1, 2]), np.array([0, 0, 0, 1]), 3, 5,
    ...                       np.random.default_rng(1))
    >>> c[:, :2].sum(axis=1).tolist(), c[:, 2].tolist()
    ([3, 3, 3, 3, 3], [1, 1, 1, 1, 1])
    """
    (out,) = stratified_sums(cell, stratum, [(np.arange(n_cells), n_cells)], n_boot, rng)
    return out
