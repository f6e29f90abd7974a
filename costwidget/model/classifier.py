"""`Classifier`: one evaluated classifier, its ROC points, hull, lower envelope and operating points.

Equation numbers ("eq. 8") are those of Drummond & Holte (2000).
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd

from .constraints import ConstrainedPoint, solve_linear_constraint
from .costs import expected_cost as _expected_cost
from .costs import probability_cost
from .envelope import Envelope
from .fields import ClassifierFields
from .replicates import ReplicateCache
from .hull import upper_hull
from .roc import RocCounts, roc_counts
from .sample import ScoredSample, align_instances, case_token_of, check_instance_ids
from .validation import (
    as_1d,
    check_binary_labels,
    check_finite,
    check_pcf,
    check_same_length,
    check_number,
    check_sample_weight,
    check_scalar,
    check_scalar_or_1d,
    missing_columns,
    order_models,
    renamed_keyword,
)

__all__ = ["Classifier", "OperatingPoint"]

_CACHE_CREATION = threading.Lock()


@dataclass(frozen=True)
class OperatingPoint:
    """The optimal hull vertex at one operating point (what :meth:`Classifier.best` returns).

    ``threshold`` is NaN when the classifier has no score threshold (a single
    confusion matrix). ``expected_cost`` is per case, in the units of the
    costs given, and NaN when only a pcf was given.

    Parameters
    ----------
    pcf, threshold, fpr, tpr, nec : float
        Where, which threshold, its rates and its normalized expected cost.
    expected_cost : float, default=nan

    Examples
    --------
    >>> import costwidget as cw
    >>> op = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7).best(0.5)
    >>> op.fpr, op.tpr, round(op.slope, 6)
    (0.3, 0.7, 0.0)
    """

    pcf: float
    threshold: float
    fpr: float
    tpr: float
    nec: float
    expected_cost: float = math.nan

    @property
    def slope(self) -> float:
        """Slope of this vertex's cost line, ``1 - TPR - FPR`` (eq. 8)."""
        return 1.0 - self.tpr - self.fpr


def _check_name(name) -> str | None:
    if name is not None and not isinstance(name, str):
        raise TypeError(f"name must be a string or None, got {type(name).__name__}.")
    return name


class Classifier(ClassifierFields):
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

    def __init__(self, *, counts: RocCounts, name: str | None = None, pos_label=None,
                 rates_only: bool = False, sample: ScoredSample | None = None, folds=None,
                 score_counts=None, envelope_error_bound: float = 0.0):
        # Every field is set here, once; free functions read them and never set any.
        self._name = _check_name(name)
        self.pos_label = pos_label
        # Class totals in the data's units; the counts themselves may be scaled by a
        # power of two (weighted data), and every rate is computed from those.
        # rates_only (from_roc): the class totals are unknown.
        self.n_pos = None if rates_only else _in_units(counts.n_pos, counts.exponent)
        self.n_neg = None if rates_only else _in_units(counts.n_neg, counts.exponent)
        self._counts = counts
        self._thresholds = counts.thresholds
        hull = upper_hull(counts.fp, counts.tp, counts.hull_candidates)
        self._hull_index = hull
        hull_fp, hull_tp = counts.fp[hull], counts.tp[hull]
        self._envelope = Envelope(hull_fp / counts.n_neg, hull_tp / counts.n_pos,
                                  crossings=_crossings(hull_fp, hull_tp, counts.n_pos, counts.n_neg))
        self._sample = sample  # the scored cases, for resampling and folds (from_scores)
        self._folds = dict(folds or {})  # fold label -> Classifier (from_scores/from_counts folds=)
        # Counts per score (counts.FoldCounts) of a from_counts classifier, for its bootstrap.
        self._score_counts = score_counts
        #: Largest error of the envelope (NEC) from grouping scores; 0.0 unless built by the
        #: aggregation layer from rounded scores (costwidget.from_duckdb / from_spark).
        self.envelope_error_bound = float(envelope_error_bound)
        self._band_cache = None  # replicates.ReplicateCache of bootstrap replicates, made on first band

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
        """The lower envelope in cost space as an :class:`~costwidget.model.envelope.Envelope`."""
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

    @name.setter
    def name(self, value):
        # Kept one release for code that assigned names; identity is read-only after that.
        import warnings

        warnings.warn("Setting Classifier.name is deprecated and will be an error in the next "
                      "release; use clf.renamed(name), which returns a renamed copy.",
                      DeprecationWarning, stacklevel=2)
        self._name = _check_name(value)

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
        out._name = _check_name(name)
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

    @property
    def _scored_data(self):
        # (is_pos, scores, weights): the older private spelling, still read by the widget.
        s = self._sample
        return None if s is None else (s.is_pos, s.scores, s.weights)

    @property
    def _fold_codes(self):
        return None if self._sample is None else self._sample.fold_codes

    # Rates of every ROC point, made on first use: at 10^6 points they cost more
    # than the hull, and the envelope needs only the hull's.
    @cached_property
    def _fpr(self) -> np.ndarray:
        return self._counts.fp / self._counts.n_neg

    @cached_property
    def _tpr(self) -> np.ndarray:
        return self._counts.tp / self._counts.n_pos

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_scores(cls, y_true, y_score, *, name=None, pos_label=None, sample_weight=None,
                    folds=None, instance=None):
        """Evaluate a scoring classifier: one ROC point per distinct score threshold.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            Two distinct labels (ints, strings or bools).
        y_score : array-like of shape (n_samples,)
            Scores; higher means more positive. Predicted positive means
            ``score >= threshold``; tied scores make a single ROC point.
        name : str, optional
        pos_label : label, optional
            The positive class. May be omitted for labels {0, 1}, {-1, 1} or
            {False, True} (as in scikit-learn).
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative weights; samples of weight 0 are ignored.
        folds : array-like of shape (n_samples,), optional
            Fold (or run) of each sample, e.g. the test fold of a cross-validation.
            The classifier itself is then the pooled one; each fold's own
            classifier is in :attr:`folds`, and :meth:`fold_average` /
            :meth:`fold_spread` summarize them. Every fold needs both classes.
        instance : array-like of shape (n_samples,), optional
            A distinct id for each case. Classifiers with instance ids are
            compared paired (:func:`difference_band`) by id, whatever the
            order of their cases. Without ids, two classifiers pair only when
            built over the same ``y_true`` array (the same numpy array or
            pandas column, not equal copies): case ``i`` is then the same
            case in both.

        Returns
        -------
        Classifier

        Examples
        --------
        >>> import costwidget as cw
        >>> clf = cw.Classifier.from_scores(["ham", "spam", "spam"], [0.2, 0.9, 0.2],
        ...                                 pos_label="spam")
        >>> clf.roc[["threshold", "fpr", "tpr"]].to_numpy().tolist()
        [[inf, 0.0, 0.0], [0.9, 0.0, 0.5], [0.2, 1.0, 1.0]]

        Scores of the same cases in another order pair by their ids:

        >>> a = cw.Classifier.from_scores([0, 1, 1, 0], [.1, .8, .6, .3], instance=["p", "q", "r", "s"])
        >>> b = cw.Classifier.from_scores([1, 0, 1, 0], [.7, .2, .9, .4], instance=["r", "s", "q", "p"])
        >>> cw.difference_band(a, b, n_boot=20, grid=3, random_state=0)["diff"].tolist()
        [0.0, 0.0, 0.0]
        """
        name = _check_name(name)
        y_score = check_finite(as_1d(y_score, "y_score"), "y_score")
        y_arr = as_1d(y_true, "y_true")
        n = check_same_length(y_true=y_arr, y_score=y_score)
        weights = check_sample_weight(sample_weight, n)
        ids = None if instance is None else check_instance_ids(instance, n)
        is_pos, pos_label, _ = check_binary_labels(y_arr, pos_label)
        counts = roc_counts(is_pos, y_score, weights)
        # The same label memory means the same cases in the same order (known, not guessed).
        token = case_token_of(y_arr)
        if folds is None:
            return cls(counts=counts, name=name, pos_label=pos_label,
                       sample=ScoredSample(is_pos, y_score, weights, instance=ids,
                                           case_token=token))
        from .folds import split_folds

        labels, codes = split_folds(folds, n, is_pos, weights)
        sample = ScoredSample(is_pos, y_score, weights, codes, instance=ids, case_token=token)
        parts = {}
        for k, label in enumerate(labels):
            part = sample.subset(codes == k)
            parts[label] = cls(counts=roc_counts(part.is_pos, part.scores, part.weights),
                               name=name, pos_label=pos_label, sample=part)
        return cls(counts=counts, name=name, pos_label=pos_label, sample=sample, folds=parts)

    @classmethod
    def from_frame(cls, frame, *, y_true="label", y_score="score", model="model", fold=None,
                   instance=None, pos_label=None, label=None, score=None):
        """Classifiers from a long DataFrame: one row per (model, instance), one Classifier per model.

        Parameters
        ----------
        frame : pandas.DataFrame
        y_true, y_score : str, default "label", "score"
            Column names of the true label and the score (the names of
            :meth:`CostWidget.from_frame`, :func:`~costwidget.from_duckdb` and
            :func:`~costwidget.from_spark`).
        model : str or None, default "model"
            Column of model names: one classifier per model. ``None``: every
            row is one model's score, keyed by the score column's name. A
            missing column is refused, with the same message as
            :func:`~costwidget.from_duckdb` and :func:`~costwidget.from_spark`.
        fold : str, optional
            Column of the fold (or run) id; each classifier then carries folds
            (see :meth:`from_scores`).
        instance : str, optional
            Column of case ids, distinct within each model. Every model must
            score the same instances (a duplicated id, or an id that only
            some models scored, is refused, naming a few); rows may come in
            any order. Each model's rows are sorted by it, and the classifiers
            keep the ids, so that they can be compared paired
            (:func:`difference_band`). Without it the rows are taken in frame
            order, and the classifiers cannot be paired: nothing says which
            row of one model is which row of another.
        pos_label : label, optional
        label, score : str, optional
            Deprecated spellings of ``y_true`` and ``y_score`` (they warn, and
            will be removed in the next release).

        Returns
        -------
        dict
            Model name -> :class:`Classifier`, sorted by model name (as from
            DuckDB and Spark; in order of first appearance if the names do
            not sort).

        Examples
        --------
        >>> import costwidget as cw
        >>> from costwidget.datasets import load_demo_scores
        >>> models = cw.Classifier.from_frame(load_demo_scores("sonar"), fold="fold",
        ...                                   instance="row", pos_label="M")
        >>> sorted(models)
        ['gradient boosting', 'logistic regression', 'naive Bayes', 'random forest']
        >>> len(models["naive Bayes"].folds)
        5
        """
        if not isinstance(frame, pd.DataFrame):
            raise TypeError(f"frame must be a pandas DataFrame, got {type(frame).__name__}.")
        label = renamed_keyword("from_frame", "label", label, "y_true", y_true, "label")
        score = renamed_keyword("from_frame", "score", score, "y_score", y_score, "score")
        roles = [(role, c) for role, c in (("y_true", label), ("y_score", score), ("model", model),
                                          ("fold", fold), ("instance", instance)) if c is not None]
        missing_columns("frame", roles, frame.columns)
        if model is None:
            groups = {score: frame}
        else:
            no_model = frame[model].isna().to_numpy()
            if no_model.any():
                first = frame.index[np.argmax(no_model)]
                raise ValueError(f"Column {model!r} has {int(no_model.sum())} missing model "
                                 f"name(s) (first at index {first!r}); those rows would be dropped. "
                                 f"Drop or name them first, e.g. frame.dropna(subset=[{model!r}]).")
            groups = dict(list(frame.groupby(model, sort=False, observed=True)))
        parts, reference = {}, None
        for name in order_models(groups):
            part = groups[name]
            if instance is not None:
                part = part.sort_values(instance, kind="stable")
                what = f"column {instance!r} (instance=) of model {name!r}"
                ids = check_instance_ids(part[instance].to_numpy(), len(part), what)
                if reference is None:
                    reference = (name, ids)
                else:
                    align_instances(reference[1], ids, f"model {reference[0]!r}",
                                    f"model {name!r}")
            parts[name] = part
        out = {}
        for name, part in parts.items():
            out[name] = cls.from_scores(
                part[label].to_numpy(), part[score].to_numpy(), name=str(name),
                pos_label=pos_label, folds=None if fold is None else part[fold].to_numpy(),
                instance=None if instance is None else part[instance].to_numpy())
        return out

    @classmethod
    def from_estimator(cls, estimator, X, y, *, cv=None, pos_label=None, name=None,
                       response_method="auto", groups=None):
        """Evaluate a scikit-learn estimator: fitted and scored on test data, or cross-validated.

        With ``cv=None`` (the default) ``estimator`` must be fitted and is
        scored on ``(X, y)`` as sklearn's ``RocCurveDisplay.from_estimator``
        does. With ``cv`` (an int, a CV splitter or a list of (train, test)
        pairs) clones are fitted and scored by ``cross_val_predict``, and each
        sample's test fold is kept (:attr:`folds`, :meth:`fold_average`). The
        score is ``predict_proba`` of ``pos_label`` or ``decision_function``,
        negated when ``pos_label`` is ``classes_[0]``. Needs scikit-learn
        (extra ``sklearn``). See :func:`costwidget.model.estimators.classifier_from_estimator`.

        Parameters
        ----------
        estimator : scikit-learn binary classifier
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        cv : None, int, CV splitter or iterable of (train, test), default=None
        pos_label : label, optional
            Default ``classes_[1]``, as in scikit-learn's displays; a label not
            among the classes is refused with a message naming them.
        name : str, optional
            Default: the estimator's class name.
        response_method : {"auto", "predict_proba", "decision_function"}
        groups : array-like, optional
            Group labels for group splitters.

        Returns
        -------
        Classifier

        Examples
        --------
        >>> import numpy as np
        >>> import costwidget as cw
        >>> from sklearn.svm import LinearSVC
        >>> rng = np.random.default_rng(0)
        >>> X = rng.normal(size=(200, 2))
        >>> y = (X[:, 0] + 0.5 * rng.normal(size=200) > 0).astype(int)
        >>> fitted = LinearSVC().fit(X[:100], y[:100])
        >>> test = cw.Classifier.from_estimator(fitted, X[100:], y[100:], pos_label=0)
        >>> bool(test.area() < 0.25), test.pos_label
        (True, 0)
        >>> cv = cw.Classifier.from_estimator(LinearSVC(), X, y, cv=5)
        >>> sorted(cv.folds)
        [0, 1, 2, 3, 4]
        """
        from .estimator_scoring import estimator_scores

        label = type(estimator).__name__ if name is None else name
        return cls.from_scores(**estimator_scores(estimator, X, y, cv=cv, pos_label=pos_label,
                                                  label=label, response_method=response_method,
                                                  groups=groups), name=label)

    @classmethod
    def from_confusion(cls, *, tp, fn, fp, tn, name=None):
        """A classifier known only by its confusion matrix: one ROC point plus the trivial ones.

        Parameters
        ----------
        tp, fn, fp, tn : float
            Counts (>= 0, finite) of true positives, false negatives, false
            positives and true negatives; both classes must have cases. Whole
            numbers below 2**53 are kept as exact integers; other counts may be
            weighted sums of any scale (only their ratios matter for the curves).
        name : str, optional

        Returns
        -------
        Classifier
            ROC points (0, 0), (FPR, TPR) and (1, 1); ``threshold`` is NaN for
            the middle one.

        Examples
        --------
        >>> import costwidget as cw
        >>> clf = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7)
        >>> clf.operating_range   # Drummond & Holte (2000), figure 4: FPR 0.3, TPR 0.7
        OperatingRange(lo=0.3, hi=0.7)
        """
        cells = {}
        for key, value in (("tp", tp), ("fn", fn), ("fp", fp), ("tn", tn)):
            v = np.asarray(value, dtype=np.float64) if not isinstance(value, str) else None
            if v is None or v.ndim != 0 or not np.isfinite(v) or v < 0:
                raise ValueError(f"{key} must be a finite count >= 0, got {value!r}.")
            cells[key] = float(v)
        if cells["tp"] + cells["fn"] == 0 or cells["fp"] + cells["tn"] == 0:
            missing = "positive (tp + fn)" if cells["tp"] + cells["fn"] == 0 else "negative (fp + tn)"
            raise ValueError(f"The confusion matrix has no {missing} cases; both classes are needed.")
        # Whole numbers below 2**53 stay exact integers; other counts are scaled by a
        # power of two (exact) so that the largest is in [0.5, 1): the totals then
        # neither overflow (1e308 + 1e308) nor lose bits as subnormals.
        exponent = 0
        if all(c == int(c) and c < 2.0 ** 53 for c in cells.values()):
            dtype = np.int64
        else:
            dtype = np.float64
            exponent = int(np.frexp(max(cells.values()))[1])
            cells = {k: float(np.ldexp(v, -exponent)) for k, v in cells.items()}
        n_pos, n_neg = cells["tp"] + cells["fn"], cells["fp"] + cells["tn"]
        tp_pts = np.array([0, cells["tp"], n_pos], dtype=dtype)
        fp_pts = np.array([0, cells["fp"], n_neg], dtype=dtype)
        counts = _dedupe_counts(RocCounts(
            thresholds=np.array([np.inf, np.nan, -np.inf]), tp=tp_pts, fp=fp_pts,
            n_pos=n_pos, n_neg=n_neg, exponent=exponent))
        return cls(counts=counts, name=_check_name(name))

    @classmethod
    def from_counts(cls, score, n_pos, n_neg, *, name=None, folds=None):
        """A scoring classifier from class counts per score, e.g. a ``GROUP BY score`` result.

        It equals :meth:`from_scores` on the cases counted: same ROC points,
        hull and envelope. Bands work from the counts (the bootstrap resamples
        them); see :func:`costwidget.from_duckdb` to count with a database.

        Parameters
        ----------
        score : array-like of shape (n_rows,)
            Finite scores, in any order; rows with the same score are summed.
        n_pos, n_neg : array-like of shape (n_rows,)
            Positives and negatives with that score: counts, or non-negative
            weights (float). Whole numbers are counted exactly in int64.
        name : str, optional
        folds : array-like of shape (n_rows,), optional
            Fold of each row, as in :meth:`from_scores`.

        Returns
        -------
        Classifier

        Examples
        --------
        >>> import costwidget as cw
        >>> clf = cw.Classifier.from_counts([0.8, 0.1, 0.4, 0.35], [1, 0, 0, 1], [0, 1, 1, 0])
        >>> clf.roc[["threshold", "tp", "fp"]].to_numpy().tolist()
        [[inf, 0.0, 0.0], [0.8, 1.0, 0.0], [0.4, 1.0, 1.0], [0.35, 2.0, 1.0], [0.1, 2.0, 2.0]]
        >>> clf.nec(0.5) == cw.Classifier.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).nec(0.5)
        True
        """
        from .counts import counts_classifier

        return counts_classifier(cls, score, n_pos, n_neg, name=_check_name(name), folds=folds)

    @classmethod
    def from_roc(cls, fpr, tpr, thresholds=None, *, name=None):
        """A classifier from given ROC points, e.g. classifiers trained at several cost ratios.

        (0, 0) and (1, 1) are added when missing. Points need not be monotone;
        they are sorted by FPR then TPR, and repeated points are kept once.
        The arguments are in the order ``sklearn.metrics.roc_curve`` returns
        them, so ``Classifier.from_roc(*roc_curve(y, s))`` works.

        Parameters
        ----------
        fpr, tpr : array-like of shape (n_points,)
            Rates in [0, 1].
        thresholds : array-like of shape (n_points,), optional
            Score threshold of each point (NaN where unknown). A higher
            threshold cannot have a higher FPR or TPR: thresholds whose order
            contradicts the points' order are refused.
        name : str, optional

        Returns
        -------
        Classifier
            With ``n_pos`` and ``n_neg`` None (the class totals are unknown).

        Examples
        --------
        >>> import costwidget as cw
        >>> clf = cw.Classifier.from_roc([0.1, 0.3], [0.5, 0.8], [0.7, 0.4])
        >>> clf.hull[["threshold", "fpr", "tpr"]].to_numpy().tolist()
        [[inf, 0.0, 0.0], [0.7, 0.1, 0.5], [0.4, 0.3, 0.8], [-inf, 1.0, 1.0]]
        >>> from sklearn.metrics import roc_curve
        >>> clf = cw.Classifier.from_roc(*roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]))
        >>> clf.nec(0.5), clf.n_pos
        (0.25, None)
        """
        f = check_finite(as_1d(fpr, "fpr"), "fpr")
        t = check_finite(as_1d(tpr, "tpr"), "tpr")
        check_same_length(fpr=f, tpr=t)
        for arr, label in ((f, "fpr"), (t, "tpr")):
            bad = (arr < 0) | (arr > 1)
            if bad.any():
                i = int(np.flatnonzero(bad)[0])
                raise ValueError(f"{label} must lie in [0, 1]; entry {i} is {float(arr[i])}.")
        if thresholds is None:
            th = np.full(len(f), np.nan)
        else:
            th = as_1d(thresholds, "thresholds", dtype=np.float64)
            check_same_length(fpr=f, thresholds=th)
            _check_threshold_order(f, t, th)
        f = np.concatenate(([0.0], f, [1.0]))
        t = np.concatenate(([0.0], t, [1.0]))
        th = np.concatenate(([np.inf], th, [-np.inf]))
        # Sort by fpr then tpr; among exact repeats keep the first given (stable).
        order = np.lexsort((t, f))
        counts = _dedupe_counts(RocCounts(thresholds=th[order], tp=t[order], fp=f[order],
                                          n_pos=1.0, n_neg=1.0))
        return cls(counts=counts, name=_check_name(name), rates_only=True)

    # ------------------------------------------------------------------ tables
    def _frame(self, index) -> pd.DataFrame:
        cols = {
            "threshold": self._thresholds[index],
            "fpr": self._fpr[index],
            "tpr": self._tpr[index],
        }
        if self.n_pos is not None:
            cols["tp"] = _in_units(self._counts.tp[index], self._counts.exponent)
            cols["fp"] = _in_units(self._counts.fp[index], self._counts.exponent)
        return pd.DataFrame(cols)

    @property
    def roc(self) -> pd.DataFrame:
        """ROC points: one row per distinct threshold, from (0, 0) to (1, 1), sorted by fpr then tpr.

        Returns
        -------
        DataFrame
            Columns ``threshold``, ``fpr``, ``tpr`` and, when the class totals
            are known, the (weighted) counts ``tp`` and ``fp``.

        Examples
        --------
        >>> import costwidget as cw
        >>> cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7).roc.tp.tolist()
        [0, 7, 10]
        """
        return self._frame(slice(None))

    @property
    def hull(self) -> pd.DataFrame:
        """Vertices of the ROC convex hull, from (0, 0) to (1, 1); collinear points dropped.

        Returns
        -------
        DataFrame
            The columns of :attr:`roc`, one row per vertex.

        Examples
        --------
        >>> import costwidget as cw
        >>> cw.Classifier.from_roc([.2, .4, .5], [.6, .7, .9]).hull[["fpr", "tpr"]].to_numpy().tolist()
        [[0.0, 0.0], [0.2, 0.6], [0.5, 0.9], [1.0, 1.0]]
        """
        return self._frame(self._hull_index).reset_index(drop=True)

    @property
    def envelope(self) -> pd.DataFrame:
        """Every breakpoint ``(pcf, nec)`` of the lower envelope, from pcf 0 to 1.

        Returns
        -------
        DataFrame
            Columns ``pcf`` and ``nec``; the envelope is linear in between.

        Examples
        --------
        >>> import costwidget as cw
        >>> cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7).envelope.round(6).to_numpy().tolist()
        [[0.0, 0.0], [0.3, 0.3], [0.7, 0.3], [1.0, 0.0]]
        """
        x, y = self._envelope.breakpoints()
        return pd.DataFrame({"pcf": x, "nec": y})

    @property
    def segments(self) -> pd.DataFrame:
        """Which hull vertex is optimal where: ``pcf_lo``, ``pcf_hi``, ``threshold``, ``fpr``, ``tpr``.

        Returns
        -------
        DataFrame
            One row per piece of the envelope, from pcf 0 to 1.

        Examples
        --------
        >>> import costwidget as cw
        >>> seg = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7).segments
        >>> seg[["pcf_lo", "pcf_hi", "fpr", "tpr"]].round(6).to_numpy().tolist()
        [[0.0, 0.3, 0.0, 0.0], [0.3, 0.7, 0.3, 0.7], [0.7, 1.0, 1.0, 1.0]]
        """
        lo, hi, k = self._envelope.segments()
        h = self._hull_index[k]
        return pd.DataFrame({"pcf_lo": lo, "pcf_hi": hi, "threshold": self._thresholds[h],
                             "fpr": self._fpr[h], "tpr": self._tpr[h]})

    @property
    def prevalence(self) -> float | None:
        """Share of positives in the evaluation data (weighted), or None if unknown.

        Returns
        -------
        float or None
            ``n_pos / (n_pos + n_neg)``; None for :meth:`from_roc`.

        Examples
        --------
        >>> import costwidget as cw
        >>> cw.Classifier.from_scores([0, 1, 1, 1], [0.1, 0.2, 0.3, 0.4],
        ...                           sample_weight=[1e308, 1e308, 1e308, 1e308]).prevalence
        0.75
        """
        if self.n_pos is None:
            return None
        # From the (possibly power-of-two scaled) counts: their sum cannot overflow.
        return self._counts.n_pos / (self._counts.n_pos + self._counts.n_neg)

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
            from .threshold_choice import nec_by_threshold_choice
            return nec_by_threshold_choice(self, pcf, threshold_choice, prior=prior,
                                           threshold=threshold)
        x = check_pcf(pcf)
        out = self._envelope.nec(x)
        return float(out) if np.ndim(out) == 0 else out

    def cost_curve(self, threshold_choice="optimal", *, prior=None, threshold=0.5):
        """The exact cost curve of a threshold choice method, as pieces over PCF(+).

        Delegates to :func:`costwidget.model.cost_curve` (see it for the columns).

        Examples
        --------
        >>> import costwidget as cw
        >>> clf = cw.Classifier.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> round(float(clf.cost_curve("score").attrs["area"]), 6) >= round(clf.area(), 6)
        True
        """
        from .threshold_choice import cost_curve
        return cost_curve(self, threshold_choice, prior=prior, threshold=threshold)

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
        nec = self._envelope.slope[k] * x + self._envelope.intercept[k]
        if np.ndim(x) == 0:
            return OperatingPoint(pcf=float(x), threshold=float(self._thresholds[h]),
                                  fpr=float(self._fpr[h]), tpr=float(self._tpr[h]), nec=float(nec))
        return pd.DataFrame({"pcf": x, "threshold": self._thresholds[h], "fpr": self._fpr[h],
                             "tpr": self._tpr[h], "nec": nec})

    def operating_point(self, *, p_pos=None, cost_fn=1.0, cost_fp=1.0) -> OperatingPoint:
        """The optimal vertex for a deployment prevalence and costs, with expected cost per case.

        Parameters
        ----------
        p_pos : float, optional
            Probability of the positive class at deployment; defaults to the
            evaluation data's prevalence.
        cost_fn, cost_fp : float, default=1.0
            Costs of a false negative and of a false positive, in your units.

        Returns
        -------
        OperatingPoint
            With ``expected_cost`` per case in the units of the costs.

        Examples
        --------
        >>> import costwidget as cw
        >>> clf = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7)
        >>> op = clf.operating_point(p_pos=0.5, cost_fn=10, cost_fp=10)
        >>> round(op.nec, 6), round(op.expected_cost, 6)
        (0.3, 3.0)
        """
        if p_pos is None:
            if self.prevalence is None:
                raise ValueError("p_pos is required: this classifier was built from rates only.")
            p_pos = self.prevalence
        pcf = probability_cost(p_pos, cost_fn, cost_fp)
        op = self.best(pcf)
        cost = _expected_cost(op.nec, p_pos, cost_fn, cost_fp)
        return OperatingPoint(op.pcf, op.threshold, op.fpr, op.tpr, op.nec, float(cost))

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
        lo_, hi_ = (float(check_pcf(check_scalar(v, name), name))
                    for v, name in ((lo, "lo"), (hi, "hi")))
        if hi_ < lo_:
            raise ValueError(f"area needs lo <= hi, got lo={lo!r}, hi={hi!r}.")
        return self._envelope.area(lo_, hi_)

    def total_expected_cost(self, density) -> float:
        """Expected NEC when pcf follows ``density`` (TEC, Drummond & Holte (2000), eq. 11).

        The envelope is linear on each piece, so the expectation is a sum over
        pieces of slope × partial first moment + intercept × mass of the
        density there. Mass outside [0, 1] is left out: the result is
        normalized by the mass on [0, 1], i.e. it is ``E[NEC(X) | 0 <= X <= 1]``
        (eq. 11 for a density of pcf, which lives on [0, 1]).

        Parameters
        ----------
        density : scipy.stats continuous distribution or callable
            * A frozen scipy.stats distribution (``scipy.stats.beta(2, 3)``) or
              a new-style one (``scipy.stats.Normal(mu=0.3, sigma=0.1)``):
              masses from its cdf and survival function, first moments in
              closed form for the normal, uniform, beta and truncated normal
              (exact to rounding however narrow: ``norm(0.3, 1e-9)`` works), and
              for other distributions from its quantile function by a checked
              Gauss-Kronrod rule (absolute error about 1e-15). All pieces at
              once: 10^5 pieces take milliseconds for the closed forms.
            * A callable ``pdf(x)`` (need not be normalized): adaptive
              quadrature on each piece, one piece after the other. A density
              narrower than quadrature resolves is missed: pass a scipy.stats
              distribution instead.

        Returns
        -------
        float
            The expected normalized expected cost.

        Raises
        ------
        ValueError
            If the density has no mass on [0, 1] (then nothing is defined), or
            a callable is negative or not finite inside (0, 1).
        TypeError
            If ``density`` is a discrete distribution or not a density at all.

        Examples
        --------
        >>> import costwidget as cw
        >>> from scipy import stats
        >>> clf = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7)   # NEC = min(x, 0.3, 1 - x)
        >>> round(clf.total_expected_cost(stats.uniform()), 12) == round(clf.area(), 12)
        True
        >>> clf.total_expected_cost(stats.norm(0.3, 1e-5))   # 0.3 - 1e-5/sqrt(2π), at the kink
        0.299996010577196
        >>> round(clf.total_expected_cost(lambda x: 1.0), 12) == round(clf.area(), 12)
        True
        """
        from .integrate import expected_under_density

        return expected_under_density(self._envelope, density)

    # ------------------------------------------------------------------ constraints
    def neyman_pearson(self, max_fpr: float) -> ConstrainedPoint:
        """Largest TPR with FPR <= ``max_fpr`` (Drummond & Holte (2000), sec. 2.2.2, figures 11-12).

        Parameters
        ----------
        max_fpr : float in [0, 1]
            The largest false positive rate allowed.

        Returns
        -------
        ConstrainedPoint
            The point of the ROC hull on ``FPR = max_fpr`` (a randomized mix of
            two vertices when it falls on an edge) and the best single threshold.

        Examples
        --------
        >>> import costwidget as cw
        >>> clf = cw.Classifier.from_roc([0.2, 0.5], [0.6, 0.9], thresholds=[0.8, 0.5])
        >>> r = clf.neyman_pearson(0.35)
        >>> round(r.tpr, 6), r.randomized, round(r.prob_low, 6), r.single_threshold
        (0.75, True, 0.5, 0.8)
        """
        max_fpr = check_number(max_fpr, "max_fpr")
        if not 0.0 <= max_fpr <= 1.0:
            raise ValueError(f"max_fpr must lie in [0, 1], got {max_fpr!r}.")
        h = self._hull_index
        return solve_linear_constraint(
            kind="neyman_pearson", load_hull=self._fpr[h], hull_fpr=self._fpr[h],
            hull_tpr=self._tpr[h], hull_thresholds=self._thresholds[h], load_roc=self._fpr,
            roc_fpr=self._fpr, roc_tpr=self._tpr, roc_thresholds=self._thresholds,
            limit=max_fpr, describe=f"limit FPR <= {max_fpr:.4g}")

    def workforce(self, capacity: float, *, n_pos=None, n_neg=None) -> ConstrainedPoint:
        """Largest TPR with ``TPR·n_pos + FPR·n_neg <= capacity`` (eq. 12-13).

        ``capacity`` is the number of cases the workforce can handle;
        ``n_pos``/``n_neg`` are the positives and negatives in the population
        it is drawn from (default: the evaluation data's totals). The cost line
        of the answer is eq. 14 at its FPR.

        Parameters
        ----------
        capacity : float
            Cases the workforce can handle, >= 0.
        n_pos, n_neg : float, optional
            Positives and negatives of the population (finite); required for
            :meth:`from_roc` classifiers.

        Returns
        -------
        ConstrainedPoint

        Examples
        --------
        >>> import costwidget as cw
        >>> clf = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7)
        >>> r = clf.workforce(10)   # TPR·10 + FPR·10 <= 10 holds at (0.3, 0.7) exactly
        >>> round(r.fpr, 6), round(r.tpr, 6)
        (0.3, 0.7)
        """
        capacity = check_number(capacity, "capacity", finite=False)
        if capacity < 0:
            raise ValueError(f"capacity must be >= 0 (a number of cases), got {capacity!r}.")
        n_pos = self.n_pos if n_pos is None else check_number(n_pos, "n_pos")
        n_neg = self.n_neg if n_neg is None else check_number(n_neg, "n_neg")
        if n_pos is None or n_neg is None:
            raise ValueError("n_pos and n_neg are required: this classifier was built from rates only.")
        if n_pos <= 0 or n_neg < 0:
            raise ValueError(f"n_pos must be > 0 and n_neg >= 0, got n_pos={n_pos!r}, n_neg={n_neg!r}.")
        h = self._hull_index
        load = self._tpr * n_pos + self._fpr * n_neg
        return solve_linear_constraint(
            kind="workforce", load_hull=load[h], hull_fpr=self._fpr[h], hull_tpr=self._tpr[h],
            hull_thresholds=self._thresholds[h], load_roc=load, roc_fpr=self._fpr,
            roc_tpr=self._tpr, roc_thresholds=self._thresholds, limit=capacity,
            describe=f"capacity of {capacity:.6g} cases")

    # ------------------------------------------------------------------ folds and bands
    @property
    def folds(self) -> dict:
        """Fold label -> that fold's own :class:`Classifier` (empty without folds).

        Returns
        -------
        dict

        Examples
        --------
        >>> import costwidget as cw
        >>> clf = cw.Classifier.from_scores([0, 1, 0, 1], [.2, .6, .4, .9], folds=["x", "x", "y", "y"])
        >>> {k: c.sample.scores.tolist() for k, c in clf.folds.items()}
        {'x': [0.2, 0.6], 'y': [0.4, 0.9]}
        """
        return dict(self._folds)

    def fold_average(self, method: str = "cost", *, space: str = "cost", on: str = "hull",
                     thresholds=None) -> pd.DataFrame:
        """Average the folds' curves (Drummond & Holte (2004), sec. 7; Drummond & Holte (2000), sec. 2.2.3).

        Every average is exact: no grid, no sampling.

        Parameters
        ----------
        method : {"cost", "vertical", "threshold", "pooled"}
            * ``"cost"``: the mean NEC of the fold envelopes at each pcf, exact
              at the union of their breakpoints (linear in between). This is
              the papers' recommendation: the mean cost of using each fold's
              best threshold.
            * ``"vertical"``: the mean TPR at each FPR (Provost et al.; Fawcett
              2006, Algorithm 3) of the folds' polylines as they are, linear
              between their points. The result holds every FPR where some
              fold has a point, and is linear in between. Where a fold's curve
              has a vertical run (several points at one FPR), the mean has one
              too and both its ends are rows: first the mean of the TPR at
              which the curves arrive at that FPR (their left limits), then
              the mean of the TPR at which they leave it (the tops of the
              runs; Fawcett's ``TPR_FOR_FPR`` reads this one).
            * ``"threshold"``: the mean (FPR, TPR) at each score threshold
              (Fawcett 2006, Algorithm 4): fold k contributes its classifier
              ``score >= threshold``, counted exactly (a step function of the
              threshold). ``on`` does not apply.
            * ``"pooled"``: all folds' scores as one curve (the classifier itself).
        space : {"cost", "roc"}
            ``"cost"`` gives ``pcf``, ``nec`` breakpoints: an ROC-space average is
            mapped to the lower envelope of its points' cost lines. ``"roc"``
            gives ``fpr``, ``tpr`` (and ``threshold``): the cost average becomes
            the ROC points dual to its linear pieces.
        on : {"hull", "roc"}
            Curves averaged by ``"vertical"``: the folds' hulls (as the papers
            do) or their raw ROC curves.
        thresholds : array-like, optional
            Thresholds for ``"threshold"`` (default: every distinct score of
            every fold, descending).

        Returns
        -------
        DataFrame
            ``pcf``, ``nec`` (``space="cost"``) or ``fpr``, ``tpr`` (``"threshold"``
            and ``"pooled"`` also ``threshold``), sorted along the curve.

        Notes
        -----
        ROCR's ``plot(perf, avg=...)`` differs by definition, not only by
        rounding: its vertical average reads each curve with
        ``approxfun(ties=mean)``, which collapses a vertical run to its mean
        TPR; its threshold average interpolates FPR and TPR linearly in the
        cutoff between a curve's own cutoffs (here a fold's point at a
        threshold is its classifier ``score >= threshold``); and both sample
        evenly spaced grids (of FPR, or of cutoffs) as many as the longest
        curve has points, where these averages use the exact breakpoints.

        Examples
        --------
        >>> import costwidget as cw
        >>> clf = cw.Classifier.from_scores([0, 1, 0, 1, 0, 1, 0, 1], [.1, .9, .6, .4, .2, .8, .1, .9],
        ...                                 folds=[0, 0, 0, 0, 1, 1, 1, 1])
        >>> [c.nec(0.5) for c in clf.folds.values()]   # fold 1 separates the classes
        [0.25, 0.0]
        >>> clf.fold_average("cost").to_numpy().tolist()   # pcf, mean NEC
        [[0.0, 0.0], [0.5, 0.125], [1.0, 0.0]]

        Fold 0's raw curve rises at FPR 0 and at FPR 0.5, fold 1's only at FPR 0;
        each vertical run gives two rows:

        >>> clf = cw.Classifier.from_scores([1, 0, 1, 0, 1, 1, 0, 0], [.9, .8, .7, .6, .9, .8, .2, .1],
        ...                                 folds=[0, 0, 0, 0, 1, 1, 1, 1])
        >>> clf.fold_average("vertical", space="roc", on="roc")[["fpr", "tpr"]].to_numpy().tolist()
        [[0.0, 0.0], [0.0, 0.75], [0.5, 0.75], [0.5, 1.0], [1.0, 1.0]]
        """
        from .folds import fold_average

        return fold_average(self, method, space=space, on=on, thresholds=thresholds)

    def fold_spread(self, *, grid=512, quantiles=None) -> pd.DataFrame:
        """Spread of the fold envelopes at each pcf: ``pcf``, ``nec``, ``lower``, ``upper``.

        Parameters
        ----------
        grid : int or array-like, default=512
            Number of evenly spaced pcf values in [0, 1], or the pcf values.
        quantiles : (float, float), optional
            ``lower``/``upper`` are these quantiles of the folds' NEC; by
            default the min and max over folds.

        Returns
        -------
        DataFrame
            ``pcf``; ``nec``, the mean of the fold envelopes (the band's
            centre, named as in :meth:`band`); ``lower`` and ``upper``.

        Examples
        --------
        >>> import costwidget as cw
        >>> clf = cw.Classifier.from_scores([0, 1, 0, 1, 0, 1, 1, 0], [.1, .9, .4, .6, .2, .3, .8, .7],
        ...                                 folds=[0, 0, 0, 0, 1, 1, 1, 1])
        >>> clf.fold_spread(grid=3).round(3).to_numpy().tolist()
        [[0.0, 0.0, 0.0, 0.0], [0.5, 0.125, 0.0, 0.25], [1.0, 0.0, 0.0, 0.0]]
        """
        from .folds import fold_spread

        return fold_spread(self, grid=grid, quantiles=quantiles)

    def band(self, level=0.90, *, threshold=None, method="auto", n_boot=1000, grid=512,
             random_state=None, interval="basic") -> pd.DataFrame:
        """Pointwise confidence band on the cost curve (Drummond & Holte (2004), sec. 8).

        Resampling is stratified: the class totals (and the fold totals, with
        folds) are those of the data, so the positives and the negatives are
        resampled separately. (The fixed-threshold band resamples the pooled
        confusion matrix by class only, also with folds.)

        The default band is the one to read for the cost curve itself (the
        best achievable cost at each pcf, what the lower envelope estimates):
        the *basic* bootstrap interval, the percentile limits reflected about
        the original curve. The paper's percentile band
        (``interval="percentile"``) sits too low for the envelope: each
        replicate's envelope is a minimum and lies below the original one,
        which already lies below the true one. In simulations (binormal
        scores, d' = 1.2, 160 + 240 cases, B = 1000, 2000 samples,
        ``benchmarks/coverage_band.py``) the default 90 % band covered the
        true best cost 75-85 % of the time from pcf 0.1 to 0.9 (83-93 % with
        10x the cases), the percentile one 31-72 %; the basic band still
        covers a little less than ``level`` at this size. The
        ``threshold="optimal"`` band covered the true cost of the threshold
        chosen on the data only 42-83 %. The band is pointwise: it is not a
        band that the whole true curve lies in with probability ``level``;
        to compare two classifiers across pcf use :func:`difference_band`.

        Parameters
        ----------
        level : float in (0, 1)
            Confidence level of the interval at each pcf.
        threshold : float, "optimal" or None
            * a number: the classifier ``score >= threshold`` held fixed (one
              confusion matrix). Its two rows are independent binomials, so the
              band can be computed exactly (``method="exact"``, the default
              here) or by Monte Carlo (``"bootstrap"``).
            * None: the band around the lower envelope. The threshold is
              re-optimized in every replicate, so this is the uncertainty of
              the *best achievable* cost; bootstrap only. For a classifier from
              :meth:`from_confusion` (no thresholds: give none) it is the exact
              band of its one confusion matrix, also when that matrix is a
              trivial classifier's (then of width 0: nothing varies).
            * ``"optimal"``: at each pcf the threshold that is optimal on the
              original data, held fixed in every replicate. It treats that
              threshold as given, so it misses the optimism of having chosen
              it on the same data (see above).
        method : {"auto", "exact", "bootstrap"}
            ``"exact"`` is only for a fixed threshold; ``"auto"`` picks it there
            and the bootstrap otherwise.
        n_boot : int
            B, the number of bootstrap replicates.
        grid : int or array-like
            Number of pcf values evenly over [0, 1], or the pcf values.
        random_state : None, int or numpy Generator
            None (the default) draws fresh replicates on every call, as in
            numpy and scikit-learn. The same int gives the same band bit for
            bit; its replicates are cached per (threshold, method, n_boot,
            grid, random_state), so that another ``level`` or ``interval``
            costs only look-ups.
        interval : {"basic", "percentile"}
            ``"basic"`` (the default): the percentile limits reflected about
            the original curve, ``2·nec − upper`` to ``2·nec − lower``,
            clipped to [0, 1] (to [0, min(pcf, 1 − pcf)] for the envelope,
            which no classifier's best cost exceeds). ``"percentile"``: the
            ``k``-th lowest and highest replicate, ``k = ceil(B·(1-level)/2)``
            (the paper's "fifth lowest and fifth highest" of 100).

        Returns
        -------
        DataFrame
            ``pcf``, ``nec`` (the original curve), ``lower``, ``upper``.
            ``attrs``: ``"kind"`` (``"pointwise"``), ``"label"`` (e.g.
            ``"pointwise 90 % band"``), ``"interval"``, ``"level"``,
            ``"n_boot"`` (None when exact), ``"threshold"`` (``"envelope"``,
            ``"optimal"``, ``"fixed"`` or the number). With many distinct
            scores the envelope bootstrap bins them;
            ``attrs["coarsening_bound"]`` is the largest NEC error this can add
            to any replicate (0 with <= 4096 distinct scores, about 0.001 at most
            otherwise).

        Examples
        --------
        >>> import costwidget as cw
        >>> clf = cw.Classifier.from_confusion(tp=16, fn=4, fp=4, tn=6)   # the paper's fig. 11
        >>> b = clf.band(0.90, grid=5)
        >>> b.round(3).to_numpy().tolist()[2]   # pcf, nec, lower, upper
        [0.5, 0.3, 0.15, 0.45]
        >>> b.attrs["label"]
        'pointwise 90 % band'
        """
        from .bands import classifier_band

        return classifier_band(self, level, threshold=threshold, method=method, n_boot=n_boot,
                               grid=grid, random_state=random_state, interval=interval)

    # ------------------------------------------------------------------ the thesis's axis
    def mtmcs(self, fp_cost):
        """MTMCS in percent at normalized FP cost(s) x = FPcost (FNcost = 1 - x), exactly.

        Al-Saffar (2018), sec. 4.1: ``min over thresholds of FNrate·(1-x) + FPrate·x``,
        which is ``100 * nec(1 - x)``. See :func:`costwidget.model.ranges.mtmcs`.

        Parameters
        ----------
        fp_cost : float or array-like
            Normalized FP cost(s) in [0, 1].

        Returns
        -------
        float or ndarray
            Percent.

        Examples
        --------
        >>> import costwidget as cw
        >>> cw.Classifier.from_confusion(tp=8, fn=2, fp=3, tn=7).mtmcs(0.5)
        25.0
        """
        from .ranges import mtmcs

        return mtmcs(self, fp_cost)

    def optimal_thresholds(self, fp_cost) -> pd.DataFrame:
        """The score thresholds reaching MTMCS at each FP cost x (Al-Saffar (2018), sec. 4.4).

        Columns ``fp_cost``, ``mtmcs``, ``threshold`` (as :meth:`best`),
        ``threshold_lo``/``threshold_hi`` (every optimal θ has lo < θ <= hi),
        ``tie`` and ``gap``. See :func:`costwidget.model.ranges.optimal_thresholds`.

        Parameters
        ----------
        fp_cost : float or array-like
            Normalized FP cost(s) in [0, 1].

        Returns
        -------
        DataFrame
            One row per FP cost.

        Examples
        --------
        >>> import costwidget as cw
        >>> clf = cw.Classifier.from_scores([0, 1, 0, 1], [0.1, 0.4, 0.5, 0.9])
        >>> clf.optimal_thresholds(0.5)[["threshold", "threshold_lo", "threshold_hi"]]
           threshold  threshold_lo  threshold_hi
        0        0.4           0.1           0.9
        """
        from .ranges import optimal_thresholds

        return optimal_thresholds(self, fp_cost)

    def __repr__(self) -> str:
        name = f"{self.name!r}, " if self.name is not None else ""
        return (f"Classifier({name}{len(self._thresholds)} ROC points, "
                f"{len(self._hull_index)} hull vertices)")


class OperatingRange(tuple):
    """``(lo, hi)`` of the operating range; ``empty`` when ``lo >= hi``.

    Parameters
    ----------
    lo, hi : float
        The open PCF(+) interval where a classifier beats both trivial ones.

    Examples
    --------
    >>> from costwidget.model import OperatingRange
    >>> r = OperatingRange(0.3, 0.7)
    >>> r.lo, r.hi, r.empty, OperatingRange(0.5, 0.5).empty
    (0.3, 0.7, False, True)
    """

    __slots__ = ()

    def __new__(cls, lo: float, hi: float):
        return super().__new__(cls, (lo, hi))

    @property
    def lo(self) -> float:
        return self[0]

    @property
    def hi(self) -> float:
        return self[1]

    @property
    def empty(self) -> bool:
        return self[0] >= self[1]

    def __repr__(self) -> str:
        return f"OperatingRange(lo={self[0]!r}, hi={self[1]!r})"


def _check_threshold_order(fpr, tpr, thresholds) -> None:
    """Refuse thresholds that rise where the ROC points rise: lower threshold, higher rates."""
    known = ~np.isnan(thresholds)
    order = np.lexsort((tpr[known], fpr[known]))
    th = thresholds[known][order]
    up = np.flatnonzero(np.diff(th) > 0)
    if up.size:
        i = np.flatnonzero(known)[order]
        a, b = i[up[0]], i[up[0] + 1]
        raise ValueError(
            f"thresholds contradict the ROC points' order: point {a} (fpr={fpr[a]}, tpr={tpr[a]}) "
            f"has threshold {thresholds[a]} but point {b} (fpr={fpr[b]}, tpr={tpr[b]}), which "
            f"predicts more cases positive, has the higher threshold {thresholds[b]}. Pass the "
            f"thresholds in the same order as fpr and tpr (as roc_curve returns them).")


def _in_units(counts, exponent: int):
    """Counts scaled by ``2**exponent`` (exact; inf if the true value overflows a float)."""
    if exponent == 0:
        return counts
    with np.errstate(over="ignore"):
        out = np.ldexp(counts, exponent)
    return float(out) if np.ndim(out) == 0 else out


def _crossings(hull_fp, hull_tp, n_pos, n_neg) -> np.ndarray:
    """pcf where consecutive hull vertices' cost lines cross: Δf / (Δf + Δt) (eq. 8).

    Integer counts: ΔFP·P / (ΔFP·P + ΔTP·N), exact products, one rounding.
    Float counts (weights, rates): from the rate differences ΔFP/N and ΔTP/P,
    which lie in [0, 1] whatever the scale of the counts; a product of two
    weighted counts would overflow at 1e160 or underflow at 1e-160.
    """
    if hull_fp.dtype.kind in "iu" and hull_tp.dtype.kind in "iu":
        dfp = np.diff(hull_fp) * float(n_pos)
        dtp = np.diff(hull_tp) * float(n_neg)
    else:
        dfp = np.diff(hull_fp) / n_neg
        dtp = np.diff(hull_tp) / n_pos
    return dfp / (dfp + dtp)


def _dedupe_counts(c: RocCounts) -> RocCounts:
    """Drop repeated ROC points (already sorted), keeping the first of each run."""
    same = (c.tp[1:] == c.tp[:-1]) & (c.fp[1:] == c.fp[:-1])
    keep = np.concatenate(([True], ~same))
    return RocCounts(thresholds=c.thresholds[keep], tp=c.tp[keep], fp=c.fp[keep],
                     n_pos=c.n_pos, n_neg=c.n_neg, exponent=c.exponent)
