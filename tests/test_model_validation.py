"""Bad input gives a clear ValueError/TypeError naming what is wrong."""

import numpy as np
import pandas as pd
import pytest

import costwidget as cw

fs = cw.Classifier.from_scores


@pytest.mark.parametrize(
    "y,kw,match",
    [
        ([0, 0, 0], {}, r"no samples of the positive class.*only holds \[0\]"),
        ([1, 1, 1], {}, r"only the positive class 1: the negative class is missing"),
        (["a", "a", "a"], {"pos_label": "a"}, r"negative class is missing"),
        (
            ["a", "a", "a"],
            {"pos_label": "b"},
            r"no samples of the positive class \(pos_label='b'\)",
        ),
        (["a", "a", "a"], {}, r"only one class 'a'; the other class is missing"),
        ([0, 0, 0], {"pos_label": 0}, r"only the positive class 0: the negative class is missing"),
        ([0, 1, 2], {}, r"3 distinct labels \[0, 1, 2\].*exactly two"),
        (["x", "y"], {}, r"pos_label is ambiguous"),
    ],
)
def test_bad_labels(y, kw, match):
    with pytest.raises(ValueError, match=match):
        fs(y, [0.1, 0.2, 0.3][: len(y)], **kw)


@pytest.mark.parametrize(
    "score,match",
    [
        ([0.1, np.nan, 0.3, np.nan], r"y_score has 2 NaN values \(first at index 1"),
        ([0.1, 0.2, np.inf, 0.4], r"y_score has 1 infinite value \(first at index 2"),
        ([-np.inf, 0.2, np.nan, 0.4], r"y_score has 2 NaN or infinite values \(first at index 0"),
    ],
)
def test_non_finite_scores(score, match):
    with pytest.raises(ValueError, match=match):
        fs([0, 1, 0, 1], score)


def test_lengths_empty_weights():
    with pytest.raises(
        ValueError,
        match="^y_score has 2 scores but y_true has 3 labels: give one "
        "score per case, in the order of y_true",
    ):
        fs([0, 1, 0], [0.1, 0.2])
    with pytest.raises(ValueError, match="^y_score of 'b' has 2 scores but y_true has 3 labels"):
        fs([0, 1, 0], [0.1, 0.2], name="b")
    with pytest.raises(ValueError, match="y_score is empty"):
        fs([], [])
    with pytest.raises(ValueError, match=r"sample_weight has 1 negative weight.*index 1"):
        fs([0, 1, 0], [0.1, 0.2, 0.3], sample_weight=[1, -1, 1])
    with pytest.raises(ValueError, match="sample_weight has 2 entries but there are 3 samples"):
        fs([0, 1, 0], [0.1, 0.2, 0.3], sample_weight=[1, 1])
    with pytest.raises(ValueError, match="positive class a total weight of 0"):
        fs([0, 1, 0], [0.1, 0.2, 0.3], sample_weight=[1, 0, 1])
    with pytest.raises(TypeError, match="y_score must hold numbers"):
        fs([0, 1], ["a", "b"])
    with pytest.raises(TypeError, match="name must be a string"):
        fs([0, 1], [0.1, 0.2], name=3)


@pytest.mark.parametrize("p", [-0.1, 1.5, np.nan])
def test_p_pos_outside_unit_interval(p):
    with pytest.raises(ValueError, match="p_pos must lie in \\[0, 1\\]"):
        cw.probability_cost(p, 1, 1)
    clf = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7)
    with pytest.raises(ValueError, match="p_pos must lie in"):
        clf.operating_point(p_pos=p)


@pytest.mark.parametrize(
    "fn,fp,match",
    [
        (-1, 1, r"cost_fn .* must be a finite number >= 0, got -1.0"),
        (1, -2, r"cost_fp .* must be a finite number >= 0, got -2.0"),
        (np.nan, 1, r"cost_fn .* got nan"),
        (1, np.inf, r"cost_fp .* got inf"),
        (0, 0, r"cost_fn and cost_fp are both 0"),
    ],
)
def test_bad_costs(fn, fp, match):
    with pytest.raises(ValueError, match=match):
        cw.probability_cost(0.3, fn, fp)


def test_undefined_pcf_names_the_cause():
    with pytest.raises(ValueError, match="PCF\\(\\+\\) is undefined"):
        cw.probability_cost(1.0, 0.0, 1.0)


def test_weights_that_round_to_zero_are_refused_with_the_remedy():
    """p(+) = 2.2e-311 with C(-|+) = 2.2e-16 and C(+|-) = 0: PCF(+) is 1 in exact arithmetic,
    but both weights round to 0; the refusal no longer claims p(+) is 0 or 1 (found by the
    hypothesis states of test_one_decision), and the widget keeps its state."""
    with pytest.raises(ValueError, match="both round to 0 .* scale both costs up"):
        cw.probability_cost(2.2e-311, 2.2e-16, 0.0)
    assert cw.probability_cost(2.2e-311, 2.2e-16 * 2.0**600, 0.0) == 1.0  # scaled: defined


@pytest.mark.parametrize("bad", [-0.01, 1.01, np.nan])
def test_pcf_and_max_fpr_outside_unit_interval(bad):
    clf = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7)
    with pytest.raises(ValueError, match="pcf must lie in"):
        clf.nec(bad)
    with pytest.raises(ValueError, match="max_fpr must"):
        clf.neyman_pearson(bad)


def test_capacity_and_types():
    clf = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7)
    with pytest.raises(ValueError, match="capacity must be >= 0"):
        clf.workforce(-1)
    with pytest.raises(TypeError, match="capacity must be a number"):
        clf.workforce("10")
    with pytest.raises(TypeError, match="max_fpr must be a number"):
        clf.neyman_pearson(None)
    with pytest.raises(ValueError, match="tp must be a finite count >= 0"):
        cw.Classifier.from_confusion(tp=-1, fn=3, fp=3, tn=7)
    with pytest.raises(ValueError, match=r"no positive \(tp \+ fn\) cases"):
        cw.Classifier.from_confusion(tp=0, fn=0, fp=3, tn=7)
    with pytest.raises(ValueError, match="fpr must lie in \\[0, 1\\]; entry 1"):
        cw.Classifier.from_roc([0.1, 1.2], [0.5, 0.6])


def test_all_scores_equal_is_valid():
    clf = fs([0, 1, 1, 0], [2.0, 2.0, 2.0, 2.0])
    assert clf.hull[["fpr", "tpr"]].to_numpy().tolist() == [[0, 0], [1, 1]]
    assert clf.nec(0.25) == 0.25 and clf.nec(0.75) == 0.25


# ---------------------------------------------------------------- issue 14: cryptic or silent input
_SCORES4 = [0.1, 0.2, 0.3, 0.4]


@pytest.mark.parametrize(
    "labels,kw",
    [
        (lambda: __import__("pandas").array([True, None, False, True], dtype="boolean"), {}),
        (
            lambda: __import__("pandas").array(["a", None, "b", "a"], dtype="string"),
            {"pos_label": "a"},
        ),
        (
            lambda: np.array(["a", __import__("pandas").NA, "b", "a"], dtype=object),
            {"pos_label": "a"},
        ),
        (lambda: np.array(["a", None, "b", "a"], dtype=object), {"pos_label": "a"}),
    ],
)
def test_missing_labels_pd_na_named(labels, kw):
    with pytest.raises(ValueError, match=r"y_true has 1 missing label .*first at index 1.*Drop"):
        fs(labels(), _SCORES4, **kw)


def test_y_true_one_row_refused():
    with pytest.raises(ValueError, match=r"y_true must be 1-dimensional.*shape \(1, 4\).*one row"):
        fs(np.array([[0, 1, 0, 1]]), _SCORES4)
    # A column vector is one label per sample, as in sklearn.
    assert fs(np.array([[0], [1], [0], [1]]), _SCORES4).n_pos == 2


def test_compare_needs_classifiers():
    clf = fs([0, 1, 0, 1], _SCORES4)
    with pytest.raises(TypeError, match=r"b must be a Classifier, got str.*from_scores"):
        cw.compare(clf, "b")
    with pytest.raises(TypeError, match=r"classifiers\[1\] must be a Classifier"):
        cw.combined_envelope([clf, None])


@pytest.mark.parametrize(
    "call,exc,match",
    [
        (
            lambda c: c.best([[0.2, 0.5]]),
            ValueError,
            r"pcf must be a number or a 1-D array.*\(1, 2\)",
        ),
        (lambda c: c.best("0.5"), TypeError, r"pcf must be a number.*got '0.5'"),
        (lambda c: c.nec("0.5"), TypeError, r"pcf must be a number.*got '0.5'"),
        (lambda c: c.nec(None), TypeError, r"pcf is required.*got None"),
        (lambda c: c.best(None), TypeError, r"pcf is required.*got None"),
        (lambda c: c.area([0.1, 0.2], 1), TypeError, r"lo must be a single number.*shape \(2,\)"),
        (lambda c: c.area(0, "1"), TypeError, r"hi must be a number"),
        (lambda c: c.operating_point(p_pos="0.3"), TypeError, r"p_pos must be a number"),
    ],
)
def test_pcf_arguments_refused_clearly(call, exc, match):
    with pytest.raises(exc, match=match):
        call(cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7))


def test_fold_with_zero_class_weight_is_named():
    with pytest.raises(
        ValueError,
        match=r"Fold 'f2': sample_weight gives its positive class a "
        r"total weight of 0",
    ):
        fs([0, 1, 0, 1], _SCORES4, folds=["f1", "f1", "f2", "f2"], sample_weight=[1, 1, 1, 0])


def test_from_roc_thresholds_against_fpr_order():
    with pytest.raises(ValueError, match=r"thresholds contradict the ROC points' order: point 0"):
        cw.Classifier.from_roc([0.1, 0.3], [0.5, 0.8], [0.4, 0.7])
    # NaN (unknown) thresholds are not ordered; known ones are, in the given order.
    clf = cw.Classifier.from_roc([0.3, 0.1], [0.8, 0.5], [0.4, np.nan])
    assert clf.hull.threshold.tolist()[1:3] == [pytest.approx(np.nan, nan_ok=True), 0.4]


def test_from_roc_takes_roc_curve_output():
    from sklearn.metrics import roc_curve

    y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.8, 0.2]
    fpr, tpr, thr = roc_curve(y, s)
    clf = cw.Classifier.from_roc(*roc_curve(y, s))
    assert clf.n_pos is None and clf.n_neg is None and clf.prevalence is None
    np.testing.assert_array_equal(clf.roc.fpr, fpr)
    np.testing.assert_array_equal(clf.roc.tpr, tpr)
    np.testing.assert_array_equal(clf.roc.threshold[1:-1], thr[1:-1])


def test_from_frame_refuses_missing_model_names():
    import pandas as pd

    df = pd.DataFrame(
        {
            "label": [0, 1, 0, 1, 0, 1],
            "score": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6],
            "model": ["a", "a", "a", None, "b", "b"],
        }
    )
    with pytest.raises(ValueError, match=r"'model' has 1 missing model name.*index 3.*dropna"):
        cw.Classifier.from_frame(df)


@pytest.mark.parametrize(
    "label_dtype,score_dtype",
    [
        ("Int64", "float64"),
        ("boolean", "float32"),
        ("int64", "Float64"),
        ("string", "float32"),
        ("category", "float64"),
    ],
)
def test_nullable_and_float32_dtypes_work_as_plain_ones(label_dtype, score_dtype):
    import pandas as pd
    from sklearn.metrics import roc_curve

    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 60)
    s = rng.integers(0, 12, 60) / 8  # ties, and exact in float32
    labels = (
        pd.Series(y).astype(label_dtype)
        if label_dtype != "string"
        else pd.Series(np.where(y == 1, "pos", "neg")).astype("string")
    )
    pos = "pos" if label_dtype == "string" else (True if label_dtype == "boolean" else 1)
    if label_dtype == "boolean":
        labels = pd.Series(y.astype(bool)).astype("boolean")
    clf = fs(labels, pd.Series(s).astype(score_dtype), pos_label=pos)
    fpr, tpr, thr = roc_curve(y, s)
    np.testing.assert_array_equal(clf.roc.fpr, fpr)
    np.testing.assert_array_equal(clf.roc.tpr, tpr)
    np.testing.assert_array_equal(clf.roc.threshold[1:], thr[1:])


# ---------------------------------------------------------------- issue 14: one API
def test_from_frame_takes_sklearn_column_names_and_warns_on_old_ones():
    import pandas as pd

    df = pd.DataFrame({"y": [0, 1, 0, 1], "s": [0.1, 0.8, 0.4, 0.35], "m": ["a"] * 4})
    new = cw.Classifier.from_frame(df, y_true="y", y_score="s", model="m")["a"]
    assert new.roc[["fpr", "tpr"]].to_numpy().tolist() == [
        [0, 0],
        [0, 0.5],
        [0.5, 0.5],
        [0.5, 1],
        [1, 1],
    ]


def test_column_names_are_one_set():
    a = cw.Classifier.from_confusion(tp=7, fn=3, fp=3, tn=7, name="A")
    b = cw.Classifier.from_confusion(tp=9, fn=1, fp=5, tn=5, name="B")
    assert "classifier" in cw.compare(a, b).intervals.columns
    assert "classifier" in cw.combined_envelope([a, b]).columns
    sel = cw.parameter_selection([0.3, 0.1], [0.7, 0.5], trained_pcf=[0.3, 0.6])
    assert "classifier" in sel.switches.columns
    folded = fs(
        [0, 1, 0, 1, 0, 1, 1, 0],
        [0.1, 0.9, 0.4, 0.6, 0.2, 0.3, 0.8, 0.7],
        folds=[0, 0, 0, 0, 1, 1, 1, 1],
    )
    assert list(folded.fold_spread(grid=3).columns) == ["pcf", "nec", "lower", "upper"]
    assert list(folded.band(grid=3, n_boot=20, random_state=0).columns)[:4] == [
        "pcf",
        "nec",
        "lower",
        "upper",
    ]


def test_significant_intervals_sign_is_int():
    import pandas as pd

    from costwidget.model.uncertainty.paired import significant_intervals

    band = pd.DataFrame({"pcf": [0, 0.5, 1], "lower": [0.1, -1, -0.3], "upper": [0.2, 1, -0.1]})
    band["significant"] = (band.lower > 0) | (band.upper < 0)
    iv = significant_intervals(band)
    assert iv.sign.dtype == np.int64 and iv.sign.tolist() == [1, -1]


def test_fold_average_roc_columns_are_the_same_for_every_method():
    clf = fs(
        [0, 1, 0, 1, 0, 1, 1, 0],
        [0.1, 0.9, 0.4, 0.6, 0.2, 0.3, 0.8, 0.7],
        folds=[0, 0, 0, 0, 1, 1, 1, 1],
    )
    for method in ("cost", "vertical", "threshold", "pooled"):
        assert list(clf.fold_average(method, space="roc").columns) == ["threshold", "fpr", "tpr"]
        assert list(clf.fold_average(method).columns) == ["pcf", "nec"]


def test_from_frame_without_a_model_column_says_what_to_use():
    frame = pd.DataFrame({"label": [0, 1], "score": [0.1, 0.2]})
    with pytest.raises(ValueError, match=r"no column model='model'.*pass model=None if every row"):
        cw.Classifier.from_frame(frame)
    # model=None: every row is one model's score, keyed by the score column (as from_duckdb).
    one = cw.Classifier.from_frame(frame, model=None)
    assert list(one) == ["score"] and one["score"].name == "score"
    assert one["score"].envelope.equals(cw.Classifier.from_scores([0, 1], [0.1, 0.2]).envelope)


MISMATCHED = [0.1, 0.9, 0.2, 0.8, 0.3]  # 5 scores for the 6 labels below
LABELS = [0, 1, 0, 1, 0, 1]
GOOD = [0.1, 0.9, 0.2, 0.8, 0.3, 0.7]
NAMED_LENGTH_ERROR = (
    r"^Every model must score the 6 cases of y_true, one score per label in the "
    r"same order: 'b' has 5 scores\. Pass each model's scores on the same cases"
)


@pytest.mark.parametrize(
    "build",
    [
        lambda: cw.classifiers_from_predictions(LABELS, {"a": GOOD, "b": MISMATCHED}),
        lambda: cw.CostWidget.from_predictions(LABELS, {"a": GOOD, "b": MISMATCHED}),
        lambda: cw.CostCurveDisplay.from_predictions(LABELS, {"a": GOOD, "b": MISMATCHED}),
    ],
    ids=[
        "classifiers_from_predictions",
        "CostWidget.from_predictions",
        "CostCurveDisplay.from_predictions",
    ],
)
def test_scores_of_another_length_name_the_model(build):
    """Scores of mismatched length across models: the error names the model, both lengths and
    how to fix it (issue 30, item 6), whichever entry point is used."""
    pytest.importorskip("matplotlib")
    with pytest.raises(ValueError, match=NAMED_LENGTH_ERROR):
        build()


def test_every_model_of_another_length_is_named_before_any_is_built():
    with pytest.raises(ValueError, match=r"'b' has 5 scores; 'c' has 7 scores\. Pass"):
        cw.classifiers_from_predictions(
            LABELS, {"a": GOOD, "b": MISMATCHED, "c": GOOD + [0.5], "d": np.array(GOOD)}
        )
