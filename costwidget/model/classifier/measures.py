"""The measures of a :class:`~costwidget.Classifier` that live in free functions (layers 3-4):
expected cost, constraints, folds, bands and the thesis's measures.

Each method here is a short delegation with the user's docstring; the work is in the free-function
module it imports (:mod:`..uncertainty.bands`, :mod:`..uncertainty.folds`,
:mod:`..comparison.ranges`, :mod:`..decisions.integrate`, :mod:`..decisions.constraints`,
:mod:`..decisions.threshold_choice`), which takes the classifier as an argument and never
imports the class. This is a base class of ``Classifier``.
"""

from __future__ import annotations

import pandas as pd

from ..base.results import ConstrainedPoint, OperatingPoint
from ..kernels.costs import expected_cost as _expected_cost
from ..kernels.costs import probability_cost

__all__ = ["ClassifierMeasures"]


class ClassifierMeasures:
    """Measures on a :class:`~costwidget.Classifier`, each a delegation to a free function."""

    __slots__ = ()

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
        from ..decisions.threshold_choice import cost_curve

        return cost_curve(self, threshold_choice, prior=prior, threshold=threshold)

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
            With ``expected_cost`` per case in the units of the costs. With per-case costs
            (``clf.case_costs``) ``cost_fn``/``cost_fp`` multiply each case's costs, and the
            point is the cost-weighted one with its money per case, as :func:`decide` gives.

        Examples
        --------
        >>> import costwidget as cw
        >>> clf = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7)
        >>> op = clf.operating_point(p_pos=0.5, cost_fn=10, cost_fp=10)
        >>> round(op.nec, 6), round(op.expected_cost, 6)
        (0.3, 3.0)
        """
        if getattr(self, "case_costs", None) is not None:
            from ..decisions.per_case import per_case_operating_point

            return per_case_operating_point(self, p_pos=p_pos, cost_fn=cost_fn, cost_fp=cost_fp)
        if p_pos is None:
            if self.prevalence is None:
                raise ValueError("p_pos is required: this classifier was built from rates only.")
            p_pos = self.prevalence
        pcf = probability_cost(p_pos, cost_fn, cost_fp)
        op = self.best(pcf)
        cost = _expected_cost(op.nec, p_pos, cost_fn, cost_fp)
        return OperatingPoint(op.pcf, op.threshold, op.fpr, op.tpr, op.nec, float(cost))

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
        from ..decisions.integrate import expected_under_density

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
        from ..decisions.constraints import neyman_pearson

        return neyman_pearson(self, max_fpr)

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
        from ..decisions.constraints import workforce

        return workforce(self, capacity, n_pos=n_pos, n_neg=n_neg)

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

    def fold_average(
        self,
        method: str = "cost",
        *,
        space: str = "cost",
        on: str = "hull",
        thresholds=None,
        cost_fn=1.0,
        cost_fp=1.0,
        p_pos=None,
    ) -> pd.DataFrame:
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
        cost_fn, cost_fp, p_pos : float, optional
            Only with per-case costs: the multipliers of each case's costs and the deployment
            prevalence (the data's by default), as in :func:`~costwidget.decide`. Each fold's
            curve is then its money per case, put on the cost pane's axes of the whole data's
            cost-weighted twin (:mod:`~costwidget.model.uncertainty.case_folds`); refused for
            per-class costs, whose folds need no setting.

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
        from ..uncertainty.folds import fold_average

        return fold_average(
            self,
            method,
            space=space,
            on=on,
            thresholds=thresholds,
            cost_fn=cost_fn,
            cost_fp=cost_fp,
            p_pos=p_pos,
        )

    def fold_spread(
        self, *, grid=512, quantiles=None, cost_fn=1.0, cost_fp=1.0, p_pos=None
    ) -> pd.DataFrame:
        """Spread of the fold envelopes at each pcf: ``pcf``, ``nec``, ``lower``, ``upper``.

        Parameters
        ----------
        grid : int or array-like, default=512
            Number of evenly spaced pcf values in [0, 1], or the pcf values.
        quantiles : (float, float), optional
            ``lower``/``upper`` are these quantiles of the folds' NEC; by
            default the min and max over folds.
        cost_fn, cost_fp, p_pos : float, optional
            Only with per-case costs: the setting, as in :meth:`fold_average`.

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
        from ..uncertainty.folds import fold_spread

        return fold_spread(
            self, grid=grid, quantiles=quantiles, cost_fn=cost_fn, cost_fp=cost_fp, p_pos=p_pos
        )

    def honest_cost(self, pcf=None, *, n_splits=5, n_repeats=10, random_state=None) -> pd.DataFrame:
        """The cost on new data of the threshold tuned at each PCF(+), beside the envelope.

        Every case is judged by the threshold chosen without it (on the other folds, or on
        random stratified splits without folds). See :func:`costwidget.honest_cost`, which
        documents the parameters and the result.

        Returns
        -------
        DataFrame
            ``pcf``, ``nec`` (the honest cost), ``envelope``, ``optimism``.

        Examples
        --------
        >>> import costwidget as cw
        >>> clf = cw.Classifier.from_scores([1, 0, 1, 0, 1, 0, 1, 0], [.9, .8, .7, .1, .6, .4, .3, .2],
        ...                                 folds=[0, 0, 0, 0, 1, 1, 1, 1])
        >>> float(clf.honest_cost(0.5)["optimism"].iloc[0])
        0.125
        """
        from ..uncertainty.honest import honest_cost

        return honest_cost(
            self, pcf, n_splits=n_splits, n_repeats=n_repeats, random_state=random_state
        )

    def band(
        self,
        level=0.90,
        *,
        threshold=None,
        method="auto",
        n_boot=1000,
        grid=512,
        random_state=None,
        interval="basic",
        cost_fn=1.0,
        cost_fp=1.0,
        p_pos=None,
    ) -> pd.DataFrame:
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
        scores, d' 0.8-1.6, 40 % positives, B = 1000, ``benchmarks/coverage_band.py``)
        the default nominal 90 % band covered the true best cost 56-80 % of the
        time from pcf 0.1 to 0.9 at n = 50, 66-84 % at n = 200 and 76-89 % at
        n = 1000, the percentile one 17-81 %: it covers less than ``level``, and
        ``attrs["coverage"]`` and ``attrs["label"]`` say what was measured (no
        bias correction, m-out-of-n or double bootstrap tried reached the level:
        ``benchmarks/coverage_envelope_methods.py``). The
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
              confusion matrix). Its cost is a weighted sum of two independent
              binomial rates; the default band (``method="score"``) is the MOVER
              interval with Wilson limits (Zou & Donner (2008); Newcombe (1998)),
              whose exact coverage at level 0.9 is at least 0.876, mean 0.91, over
              n = 20-100 (``benchmarks/coverage_fixed_band.py``). The paper's
              percentile band is ``method="exact"`` (its exact percentiles) or
              ``"bootstrap"`` (Monte Carlo); it covers as little as 0.64 there.
            * None: the band around the lower envelope. The threshold is
              re-optimized in every replicate, so this is the uncertainty of
              the *best achievable* cost; bootstrap only. For a classifier from
              :meth:`from_confusion` (no thresholds: give none) it is the exact
              band of its cost curve, the envelope ``min(line, pcf, 1 - pcf)`` of
              its one confusion matrix's line and the two trivial classifiers
              (what ``nec`` and the readout read): ``(min(lower, c), min(upper,
              c))`` of the matrix's band (as for a number above), ``c = min(pcf,
              1 - pcf)``, as the trivial lines do not vary: the band of the
              matrix's line alone would leave the readout's NEC where flagging
              no case, or every case, is cheaper. Of width 0 where a
              trivial classifier is cheapest for sure, and when the matrix is a
              trivial classifier's (nothing varies).
            * ``"optimal"``: at each pcf the threshold that is optimal on the
              original data, held fixed in every replicate. It treats that
              threshold as given, so it misses the optimism of having chosen
              it on the same data (see above).
        method : {"auto", "score", "exact", "bootstrap"}
            ``"score"`` and ``"exact"`` are only for a fixed threshold; ``"auto"``
            picks ``"score"`` there and the bootstrap otherwise.
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
            (the paper's "fifth lowest and fifth highest" of 100). For the envelope
            and ``threshold="optimal"`` only: a fixed rule's band (a number for
            ``threshold``, or :meth:`from_confusion`) is the score interval
            (``attrs["interval"]`` says ``"score"``) or, with ``method="exact"`` or
            ``"bootstrap"``, the percentile band of Drummond & Holte (2004), sec. 8;
            reflected it would cover a binomial rate too rarely (0.685 for a nominal
            0.9 at 20 positives, FNR 0.12, PCF(+) = 1).
        cost_fn, cost_fp, p_pos : float, float, float or None
            For a classifier with per-case costs only: the multipliers of each case's
            ``cost_fn`` and ``cost_fp`` and the deployment prevalence (None: the data's), as
            in :func:`~costwidget.decide`. Its band is of money per case on its
            cost-weighted twin's axes: at each PCF(+) the twin's rule re-optimized in every
            replicate of the cases (each with its four costs and ``sample_weight``), mapped by
            the original data's affine map (:mod:`costwidget.model.uncertainty.case_bands`);
            ``attrs["money"]`` turns its NEC into money per case. Bootstrap only, not clipped,
            and its coverage is said from its own simulation, never the per-class figures
            above: the nominal 90 % envelope band covered the best money per case 50–52 % of
            the time at n = 50, 58–60 % at n = 200 and 58–72 % at n = 1000 (lognormal
            amounts, with and without a fee; ``benchmarks/coverage_case_band.py``).

        Returns
        -------
        DataFrame
            ``pcf``, ``nec`` (the original curve: for :meth:`from_confusion`
            its envelope, as ``clf.nec``), ``lower``, ``upper``.
            ``attrs``: ``"kind"`` (``"pointwise"``), ``"label"`` (e.g.
            ``"pointwise 90 % band"``), ``"interval"``, ``"level"``,
            ``"n_boot"`` (None unless drawn), ``"method"`` (a fixed rule's:
            ``"score"``, ``"exact"`` or ``"bootstrap"``), ``"threshold"`` (``"envelope"``,
            ``"optimal"``, ``"fixed"`` or the number). With many distinct
            scores the envelope bootstrap bins them;
            ``attrs["coarsening_bound"]`` is the largest NEC error this can add
            to any replicate (0 with <= 4096 distinct scores, about 0.001 at most
            otherwise). The band of a :meth:`from_confusion` classifier
            has ``attrs["exact_matrix"]`` ``(n_pos, n_neg, tp, fp)``, so that
            :func:`band_limits_at` computes it at any pcf, not linearly between
            rows (its curve bends between them).

        Examples
        --------
        >>> import costwidget as cw
        >>> clf = cw.Classifier.from_confusion(tp=16, fn=4, fp=4, tn=6)   # the paper's fig. 11
        >>> b = clf.band(0.90, grid=5)
        >>> b.round(3).to_numpy().tolist()[2]   # pcf, nec, lower, upper
        [0.5, 0.3, 0.184, 0.453]
        >>> clf.band(0.90, grid=5, method="exact").round(3).to_numpy().tolist()[2]  # the paper's
        [0.5, 0.3, 0.15, 0.45]
        >>> b.attrs["label"]
        'pointwise 90 % band'
        """
        from ..uncertainty.bands import classifier_band

        given = dict(threshold=threshold, method=method, n_boot=n_boot, grid=grid)
        given.update(random_state=random_state, interval=interval)
        if getattr(self, "case_costs", None) is not None:
            from ..uncertainty.case_bands import case_band

            return case_band(self, level, cost_fn=cost_fn, cost_fp=cost_fp, p_pos=p_pos, **given)
        if (cost_fn, cost_fp, p_pos) != (1.0, 1.0, None):
            raise ValueError(
                "cost_fn=, cost_fp= and p_pos= of band() are for classifiers with per-case "
                "costs; the band of per-class costs covers every PCF(+)."
            )
        return classifier_band(self, level, **given)

    # ------------------------------------------------------------------ the thesis's axis
    def mtmcs(self, fp_cost):
        """MTMCS in percent at normalized FP cost(s) x = FPcost (FNcost = 1 - x), exactly.

        Al-Saffar (2018), sec. 4.1: ``min over thresholds of FNrate·(1-x) + FPrate·x``,
        which is ``100 * nec(1 - x)``. See :func:`costwidget.model.comparison.ranges.mtmcs`.

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
        from ..comparison.ranges import mtmcs

        return mtmcs(self, fp_cost)

    def optimal_thresholds(self, fp_cost) -> pd.DataFrame:
        """The score thresholds reaching MTMCS at each FP cost x (Al-Saffar (2018), sec. 4.4).

        Columns ``fp_cost``, ``mtmcs``, ``threshold`` (as :meth:`best`),
        ``threshold_lo``/``threshold_hi`` (every optimal θ has lo < θ <= hi),
        ``tie`` and ``gap``. See :func:`costwidget.model.comparison.ranges.optimal_thresholds`.

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
        from ..comparison.ranges import optimal_thresholds

        return optimal_thresholds(self, fp_cost)
