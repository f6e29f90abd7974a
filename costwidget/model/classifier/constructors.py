"""How a :class:`~costwidget.Classifier` is built: from scores, a frame, an estimator, a confusion
matrix, counts per score or ROC points (layer 5, classifier/).

Each classmethod checks its input and calls ``cls(...)`` with the classifier's fields; it is
inherited by ``Classifier``, so ``Classifier.from_scores(...)`` is unchanged. Equation numbers are
those of Drummond & Holte (2000).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..base.case_costs import check_case_costs, frame_cost_columns, frame_costs
from ..base.case_weighted_roc import cost_weighted_counts
from ..kernels.roc import RocCounts, roc_counts
from ..kernels.sample import (
    ScoredSample,
    align_instances,
    case_token_of,
    check_instance_ids,
    split_folds,
)
from ..kernels.validation import (
    as_1d,
    check_binary_labels,
    check_finite,
    check_same_length,
    check_sample_weight,
    missing_columns,
    order_models,
)

__all__ = ["ClassifierConstructors"]


class ClassifierConstructors:
    """The constructors of :class:`~costwidget.Classifier` (a base class of it; see there)."""

    __slots__ = ()

    @classmethod
    def from_scores(
        cls,
        y_true,
        y_score,
        *,
        name=None,
        pos_label=None,
        sample_weight=None,
        folds=None,
        instance=None,
        cost_fn=None,
        cost_fp=None,
        cost_tp=None,
        cost_tn=None,
        _estimator_source=None,
        _cost_names=None,
    ):
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
        cost_fn, cost_fp, cost_tp, cost_tn : float or array-like of shape (n_samples,), optional
            Costs that differ from case to case (money, as empulse's ``cost_loss``): what a
            miss, a false alarm, a catch and a correct pass cost for each case; a number is the
            same for every case, a cost not given is 0. With any of them the classifier is the
            cost-weighted one (Fawcett 2006): each case weighs what deciding it wrongly costs
            beyond deciding it rightly, ``cost_fn - cost_tp`` for a positive and ``cost_fp -
            cost_tn`` for a negative (times ``sample_weight``); a case whose error is the
            cheaper decision counts on the other side. Its ROC, hull, envelope and operating
            range are those of the cost-weighted cases, :attr:`n_pos` and :attr:`n_neg` are
            the cost totals, and :attr:`case_costs` keeps the costs (see the user guide's
            "Costs per case" page and :mod:`costwidget.model.base.case_costs`).

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
        name = check_name(name)
        y_score = check_finite(as_1d(y_score, "y_score"), "y_score")
        y_arr = as_1d(y_true, "y_true")
        if len(y_score) != len(y_arr):
            model = f" of {name!r}" if name is not None else ""
            raise ValueError(
                f"y_score{model} has {len(y_score)} scores but y_true has "
                f"{len(y_arr)} labels: give one score per case, in the order of "
                "y_true."
            )
        n = len(y_arr)
        weights = check_sample_weight(sample_weight, n)
        ids = None if instance is None else check_instance_ids(instance, n)
        is_pos, pos_label, _ = check_binary_labels(y_arr, pos_label)
        costs = check_case_costs(
            is_pos,
            weights,
            cost_fn=cost_fn,
            cost_fp=cost_fp,
            cost_tp=cost_tp,
            cost_tn=cost_tn,
            names=_cost_names,
            both_sides=False,
        )
        if costs is None:
            counts = roc_counts(is_pos, y_score, weights)
        else:  # the cost-weighted cases stand for the cases from here on
            is_pos, weights, _ = costs.checked_roc_weights()
            counts = cost_weighted_counts(is_pos, y_score, weights)
        # The same label memory means the same cases in the same order (known, not guessed).
        token = case_token_of(y_arr)
        if folds is None:
            return cls(
                counts=counts,
                name=name,
                pos_label=pos_label,
                sample=ScoredSample(is_pos, y_score, weights, instance=ids, case_token=token),
                estimator_source=_estimator_source,
                case_costs=costs,
            )
        labels, codes = split_folds(folds, n, is_pos, weights)
        sample = ScoredSample(is_pos, y_score, weights, codes, instance=ids, case_token=token)
        parts = {}
        for k, label in enumerate(labels):
            part = sample.subset(codes == k)
            parts[label] = cls(
                counts=roc_counts(part.is_pos, part.scores, part.weights),
                name=name,
                pos_label=pos_label,
                sample=part,
            )
        return cls(
            counts=counts,
            name=name,
            pos_label=pos_label,
            sample=sample,
            folds=parts,
            estimator_source=_estimator_source,
            case_costs=costs,
        )

    @classmethod
    def from_frame(
        cls,
        frame,
        *,
        y_true="label",
        y_score="score",
        model="model",
        fold=None,
        instance=None,
        pos_label=None,
        cost_fn=None,
        cost_fp=None,
        cost_tp=None,
        cost_tn=None,
    ):
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
        cost_fn, cost_fp, cost_tp, cost_tn : str or float, optional
            Per-case costs (see :meth:`from_scores`): the name of a column of money per case,
            or one number for every case.

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
        label, score = y_true, y_score
        roles = [
            (role, c)
            for role, c in (
                ("y_true", label),
                ("y_score", score),
                ("model", model),
                ("fold", fold),
                ("instance", instance),
                *frame_cost_columns(
                    cost_fn=cost_fn, cost_fp=cost_fp, cost_tp=cost_tp, cost_tn=cost_tn
                ),
            )
            if c is not None
        ]
        missing_columns("frame", roles, frame.columns)
        if model is None:
            groups = {score: frame}
        else:
            no_model = frame[model].isna().to_numpy()
            if no_model.any():
                first = frame.index[np.argmax(no_model)]
                raise ValueError(
                    f"Column {model!r} has {int(no_model.sum())} missing model "
                    f"name(s) (first at index {first!r}); those rows would be dropped. "
                    f"Drop or name them first, e.g. frame.dropna(subset=[{model!r}])."
                )
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
                    align_instances(reference[1], ids, f"model {reference[0]!r}", f"model {name!r}")
            parts[name] = part
        out = {}
        for name, part in parts.items():
            out[name] = cls.from_scores(
                part[label].to_numpy(),
                part[score].to_numpy(),
                name=str(name),
                pos_label=pos_label,
                folds=None if fold is None else part[fold].to_numpy(),
                instance=None if instance is None else part[instance].to_numpy(),
                **frame_costs(
                    part, cost_fn=cost_fn, cost_fp=cost_fp, cost_tp=cost_tp, cost_tn=cost_tn
                ),
            )
        return out

    @classmethod
    def from_estimator(
        cls,
        estimator,
        X,
        y,
        *,
        cv=None,
        pos_label=None,
        name=None,
        response_method="auto",
        groups=None,
        cost_fn=None,
        cost_fp=None,
        cost_tp=None,
        cost_tn=None,
    ):
        """Evaluate a scikit-learn estimator: fitted and scored on test data, or cross-validated.

        With ``cv=None`` (the default) ``estimator`` must be fitted and is
        scored on ``(X, y)`` as sklearn's ``RocCurveDisplay.from_estimator``
        does. With ``cv`` (an int, a CV splitter or a list of (train, test)
        pairs) clones are fitted and scored by ``cross_val_predict``, and each
        sample's test fold is kept (:attr:`folds`, :meth:`fold_average`). The
        score is ``predict_proba`` of ``pos_label`` or ``decision_function``,
        negated when ``pos_label`` is ``classes_[0]``. Needs scikit-learn
        (extra ``sklearn``). See
        :func:`costwidget.model.classifier.estimators.classifier_from_estimator`.

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
        cost_fn, cost_fp, cost_tp, cost_tn : float or array-like of shape (n_samples,), optional
            Per-case costs, as in :meth:`from_scores`.

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
        from ..kernels.estimator_scoring import estimator_scores

        label = type(estimator).__name__ if name is None else name
        return cls.from_scores(
            **estimator_scores(
                estimator,
                X,
                y,
                cv=cv,
                pos_label=pos_label,
                label=label,
                response_method=response_method,
                groups=groups,
            ),
            name=label,
            cost_fn=cost_fn,
            cost_fp=cost_fp,
            cost_tp=cost_tp,
            cost_tn=cost_tn,
        )

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
            missing = (
                "positive (tp + fn)" if cells["tp"] + cells["fn"] == 0 else "negative (fp + tn)"
            )
            raise ValueError(
                f"The confusion matrix has no {missing} cases; both classes are needed."
            )
        # Whole numbers below 2**53 stay exact integers; other counts are scaled by a
        # power of two (exact) so that the largest is in [0.5, 1): the totals then
        # neither overflow (1e308 + 1e308) nor lose bits as subnormals.
        exponent = 0
        if all(c == int(c) and c < 2.0**53 for c in cells.values()):
            dtype = np.int64
        else:
            dtype = np.float64
            exponent = int(np.frexp(max(cells.values()))[1])
            cells = {k: float(np.ldexp(v, -exponent)) for k, v in cells.items()}
        n_pos, n_neg = cells["tp"] + cells["fn"], cells["fp"] + cells["tn"]
        tp_pts = np.array([0, cells["tp"], n_pos], dtype=dtype)
        fp_pts = np.array([0, cells["fp"], n_neg], dtype=dtype)
        counts = _dedupe_counts(
            RocCounts(
                thresholds=np.array([np.inf, np.nan, -np.inf]),
                tp=tp_pts,
                fp=fp_pts,
                n_pos=n_pos,
                n_neg=n_neg,
                exponent=exponent,
            )
        )
        return cls(counts=counts, name=check_name(name))

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
        from ..kernels.counts import counts_classifier

        return counts_classifier(cls, score, n_pos, n_neg, name=check_name(name), folds=folds)

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
        counts = _dedupe_counts(
            RocCounts(thresholds=th[order], tp=t[order], fp=f[order], n_pos=1.0, n_neg=1.0)
        )
        return cls(counts=counts, name=check_name(name), rates_only=True)


def check_name(name) -> str | None:
    if name is not None and not isinstance(name, str):
        raise TypeError(f"name must be a string or None, got {type(name).__name__}.")
    return name


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
            f"thresholds in the same order as fpr and tpr (as roc_curve returns them)."
        )


def _dedupe_counts(c: RocCounts) -> RocCounts:
    """Drop repeated ROC points (already sorted), keeping the first of each run."""
    same = (c.tp[1:] == c.tp[:-1]) & (c.fp[1:] == c.fp[:-1])
    keep = np.concatenate(([True], ~same))
    return RocCounts(
        thresholds=c.thresholds[keep],
        tp=c.tp[keep],
        fp=c.fp[keep],
        n_pos=c.n_pos,
        n_neg=c.n_neg,
        exponent=c.exponent,
    )
