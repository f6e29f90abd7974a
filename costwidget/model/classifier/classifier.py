"""`Classifier`: one evaluated classifier, its ROC points, hull, lower envelope and operating points.

Equation numbers ("eq. 8") are those of Drummond & Holte (2000).
"""

from __future__ import annotations

import threading
from functools import cached_property

import numpy as np
import pandas as pd

from ..base.fields import ClassifierFields
from ..base.results import OperatingPoint, OperatingRange
from ..kernels.costs import cost_line_value
from ..kernels.envelope import Envelope, envelope_of_counts
from ..kernels.roc import RocCounts
from ..kernels.roc import in_units as _in_units
from ..kernels.sample import ScoredSample
from ..kernels.validation import check_pcf, check_scalar, check_scalar_or_1d
from ..resampling.replicates import ReplicateCache
from .constructors import ClassifierConstructors, check_name
from .measures import ClassifierMeasures
from .tables import ClassifierTables

__all__ = ["Classifier", "OperatingPoint", "OperatingRange"]

_CACHE_CREATION = threading.Lock()


class Classifier(ClassifierConstructors, ClassifierTables, ClassifierMeasures, ClassifierFields):
    """A binary classifier as ROC points, their convex hull, and the dual lower envelope.

    Build one with :meth:`from_scores`, :meth:`from_confusion` or
    :meth:`from_roc`. Everything is computed once, exactly, at construction.

    Parameters
    ----------
    counts : RocCounts
        The ROC points as counts; use the constructors rather than this.
    name : str, optional
    pos_label : label, optional
    rates_only : bool, default=False
        The counts are rates: the class totals are unknown (:meth:`from_roc`).
    sample : ScoredSample, optional
        The scored cases, for bands and folds (:meth:`from_scores`).

    Attributes
    ----------
    name : str or None
        Read-only; :meth:`renamed` gives a renamed copy.
    n_pos, n_neg : float or None
        (Weighted) class totals of the evaluation data; None for :meth:`from_roc`.
    pos_label : object or None
        The label treated as positive (:meth:`from_scores` only).

    Examples
    --------
    >>> import costwidget as cw
    >>> clf = cw.Classifier.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], name="toy")
    >>> clf.roc
       threshold  fpr  tpr  tp  fp
    0        inf  0.0  0.0   0   0
    1       0.80  0.0  0.5   1   0
    2       0.40  0.5  0.5   1   1
    3       0.35  0.5  1.0   2   1
    4       0.10  1.0  1.0   2   2
    >>> clf.nec(0.5)
    0.25
    >>> clf.best(0.5)
    OperatingPoint(pcf=0.5, threshold=0.35, fpr=0.5, tpr=1.0, nec=0.25, expected_cost=nan)
    >>> clf.operating_range
    OperatingRange(lo=0.0, hi=1.0)
    """

    def __init__(
        self,
        *,
        counts: RocCounts,
        name: str | None = None,
        pos_label=None,
        rates_only: bool = False,
        sample: ScoredSample | None = None,
        folds=None,
        score_counts=None,
        envelope_error_bound: float = 0.0,
        estimator_source=None,
        case_costs=None,
    ):
        # Every field is set here, once; free functions read them and never set any.
        self._name = check_name(name)
        self.pos_label = pos_label
        # Class totals in the data's units; the counts themselves may be scaled by a
        # power of two (weighted data), and every rate is computed from those.
        # rates_only (from_roc): the class totals are unknown.
        self.n_pos = None if rates_only else _in_units(counts.n_pos, counts.exponent)
        self.n_neg = None if rates_only else _in_units(counts.n_neg, counts.exponent)
        self._counts = counts
        self._thresholds = counts.thresholds
        self._hull_index, self._envelope = envelope_of_counts(counts)
        self._sample = sample  # the scored cases, for resampling and folds (from_scores)
        self._folds = dict(folds or {})  # fold label -> Classifier (from_scores/from_counts folds=)
        # Counts per score (counts.FoldCounts) of a from_counts classifier, for its bootstrap.
        self._score_counts = score_counts
        #: Largest error of the envelope (NEC) from grouping scores; 0.0 unless built by the
        #: aggregation layer from rounded scores (costwidget.from_duckdb / from_spark).
        self.envelope_error_bound = float(envelope_error_bound)
        self._band_cache = (
            None  # replicates.ReplicateCache of bootstrap replicates, made on first band
        )
        #: How the scores were made from a scikit-learn estimator (``from_estimator``), else None:
        #: what ``to_estimator`` deploys.
        self.estimator_source = estimator_source
        #: The per-case costs (:class:`~costwidget.model.base.case_costs.CaseCosts`) of a
        #: classifier built with ``cost_fn=``/``cost_fp=``/``cost_tp=``/``cost_tn=``, else None.
        self.case_costs = case_costs

    @property
    def score_counts(self):
        """Counts per score (``counts.FoldCounts``) of a classifier built from counts, else None."""
        return self._score_counts

    @property
    def hull_index(self) -> np.ndarray:
        """Indices into the ROC points (:attr:`counts`) of the upper convex hull's vertices."""
        return self._hull_index

    @property
    def envelope_curve(self) -> Envelope:
        """The lower envelope in cost space.

        An :class:`~costwidget.model.kernels.envelope.Envelope`."""
        return self._envelope

    @property
    def band_cache(self) -> ReplicateCache:
        """This classifier's cache of bootstrap replicates, made on first use (thread-safe)."""
        cache = self._band_cache
        if cache is None:
            with _CACHE_CREATION:
                cache = self._band_cache
                if cache is None:
                    cache = self._band_cache = ReplicateCache()
        return cache

    # ------------------------------------------------------------------ identity and data
    @property
    def name(self) -> str | None:
        """The classifier's name (read-only; :meth:`renamed` gives a renamed copy).

        Returns
        -------
        str or None

        Examples
        --------
        >>> import costwidget as cw
        >>> cw.Classifier.from_confusion(tp=1, fn=1, fp=0, tn=2, name="rule").name
        'rule'
        """
        return self._name

    def renamed(self, name: str | None) -> Classifier:
        """A copy of this classifier under another name; this one is unchanged.

        The copy shares the (read-only) ROC data, sample and folds, but has its
        own band cache.

        Parameters
        ----------
        name : str or None

        Returns
        -------
        Classifier

        Examples
        --------
        >>> import costwidget as cw
        >>> clf = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7)
        >>> other = clf.renamed("mine")
        >>> other.name, clf.name, other.nec(0.5) == clf.nec(0.5)
        ('mine', None, True)
        """
        import copy

        out = copy.copy(self)
        out._name = check_name(name)
        out._band_cache = None
        return out

    @property
    def sample(self) -> ScoredSample | None:
        """The scored cases (:class:`ScoredSample`), or None when built without scores.

        Returns
        -------
        ScoredSample or None

        Examples
        --------
        >>> import costwidget as cw
        >>> cw.Classifier.from_scores([0, 1], [0.3, 0.7]).sample.scores.tolist()
        [0.3, 0.7]
        >>> cw.Classifier.from_confusion(tp=1, fn=1, fp=1, tn=1).sample is None
        True
        """
        return self._sample

    @property
    def counts(self) -> RocCounts:
        """The ROC points as exact (weighted) class counts, shared read-only by bands and folds.

        Returns
        -------
        RocCounts
            ``thresholds``, ``tp``, ``fp`` (int64 without weights), ``n_pos``,
            ``n_neg``; in the data's units after ``np.ldexp(..., exponent)``.
            Rates only (``n_pos = n_neg = 1``) for :meth:`from_roc`.

        Examples
        --------
        >>> import costwidget as cw
        >>> c = cw.Classifier.from_scores([0, 1, 1, 0], [0.2, 0.9, 0.4, 0.3]).counts
        >>> c.tp.tolist(), c.fp.tolist(), c.n_pos, c.n_neg
        ([0, 1, 2, 2, 2], [0, 0, 0, 1, 2], 2, 2)
        """
        return self._counts

    # Rates of every ROC point, made on first use: at 10^6 points they cost more
    # than the hull, and the envelope needs only the hull's.
    @cached_property
    def _fpr(self) -> np.ndarray:
        return self._counts.fp / self._counts.n_neg

    @cached_property
    def _tpr(self) -> np.ndarray:
        return self._counts.tp / self._counts.n_pos

    # ------------------------------------------------------------------ cost space
    def nec(self, pcf, threshold_choice="optimal", *, prior=None, threshold=0.5):
        """Normalized expected cost at ``pcf`` (float or array, same shape out).

        By default the lower envelope (the threshold tuned at each operating point); other
        threshold choice methods delegate to :func:`costwidget.model.nec_by_threshold_choice`.

        Parameters
        ----------
        pcf : float or array-like
            PCF(+) values in [0, 1].
        threshold_choice : {"optimal", "score", "rate", "fixed"}, default="optimal"
            How the threshold is chosen at each operating point (Hernández-Orallo, Flach &
            Ferri, 2012): tuned on this data, the Bayes threshold on calibrated scores, a share
            of cases predicted positive, or one fixed threshold.
        prior : float, optional
            Prevalence the scores are calibrated for (default the sample's).
        threshold : float, default=0.5
            The threshold of ``"fixed"``.

        Returns
        -------
        float or ndarray
            A float for a number, an array of the same shape for an array.

        Examples
        --------
        >>> import costwidget as cw
        >>> clf = cw.Classifier.from_confusion(tp=36, fn=64, fp=9, tn=91)   # FP 0.09, TP 0.36
        >>> float(clf.nec(0.0)), float(clf.nec(1.0))
        (0.0, 0.0)
        """
        if threshold_choice != "optimal" or prior is not None:
            from ..decisions.threshold_choice import nec_by_threshold_choice

            return nec_by_threshold_choice(
                self, pcf, threshold_choice, prior=prior, threshold=threshold
            )
        x = check_pcf(pcf)
        out = self._envelope.nec(x)
        return float(out) if np.ndim(out) == 0 else out

    def best(self, pcf):
        """The optimal hull vertex at ``pcf``: threshold, fpr, tpr, nec.

        A scalar pcf gives an :class:`OperatingPoint`; an array gives a
        DataFrame with one row per pcf. Where two vertices tie (a breakpoint of
        the envelope) the one optimal just to the right is returned, except at
        pcf = 1 (just to the left).

        Parameters
        ----------
        pcf : float or 1-D array-like
            PCF(+) values in [0, 1].

        Returns
        -------
        OperatingPoint or DataFrame
            An :class:`OperatingPoint` for a number; for an array, a DataFrame
            with columns ``pcf``, ``threshold``, ``fpr``, ``tpr``, ``nec``.

        Examples
        --------
        >>> import costwidget as cw
        >>> clf = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7)
        >>> op = clf.best(0.5)
        >>> (op.fpr, op.tpr), round(op.nec, 6)
        ((0.3, 0.7), 0.3)
        >>> clf.best([0.1, 0.5])[["pcf", "fpr", "tpr"]].to_numpy().tolist()
        [[0.1, 0.0, 0.0], [0.5, 0.3, 0.7]]
        """
        x = check_scalar_or_1d(check_pcf(pcf), "pcf")
        k = self._envelope.vertex_at(x)
        h = self._hull_index[k]
        nec = cost_line_value(self._fpr[h], self._tpr[h], x)
        if np.ndim(x) == 0:
            return OperatingPoint(
                pcf=float(x),
                threshold=float(self._thresholds[h]),
                fpr=float(self._fpr[h]),
                tpr=float(self._tpr[h]),
                nec=float(nec),
            )
        return pd.DataFrame(
            {
                "pcf": x,
                "threshold": self._thresholds[h],
                "fpr": self._fpr[h],
                "tpr": self._tpr[h],
                "nec": nec,
            }
        )

    @property
    def operating_range(self):
        """``(lo, hi)``: the open pcf interval where the envelope beats both trivial classifiers.

        Returns
        -------
        OperatingRange
            ``lo == hi`` (both 0.5) when the hull is the diagonal: no operating range.

        Examples
        --------
        >>> import costwidget as cw
        >>> cw.Classifier.from_roc([0.5], [0.5]).operating_range.empty
        True
        """
        return OperatingRange(*self._envelope.operating_range())

    def area(self, lo: float = 0.0, hi: float = 1.0) -> float:
        """Area under the cost curve (the lower envelope) over [lo, hi], exactly.

        Over [0, 1] this is the expected NEC when pcf is uniform (eq. 11).

        Parameters
        ----------
        lo, hi : float, default=0.0, 1.0
            PCF(+) bounds, ``0 <= lo <= hi <= 1``.

        Returns
        -------
        float

        Examples
        --------
        >>> import costwidget as cw
        >>> clf = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7)
        >>> round(clf.area(), 6)   # triangles 0.3²/2 twice, and 0.4 wide at height 0.3
        0.21
        """
        lo_, hi_ = (
            float(check_pcf(check_scalar(v, name), name)) for v, name in ((lo, "lo"), (hi, "hi"))
        )
        if hi_ < lo_:
            raise ValueError(f"area needs lo <= hi, got lo={lo!r}, hi={hi!r}.")
        return self._envelope.area(lo_, hi_)

    def __repr__(self) -> str:
        name = f"{self.name!r}, " if self.name is not None else ""
        return (
            f"Classifier({name}{len(self._thresholds)} ROC points, "
            f"{len(self._hull_index)} hull vertices)"
        )
