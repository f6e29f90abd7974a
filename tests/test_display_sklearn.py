"""CostCurveDisplay against scikit-learn's RocCurveDisplay: the cases of scikit-learn's
``metrics/_plot/tests/test_roc_curve_display.py`` and ``test_common_curve_display.py``, adapted.

Every expectation is computed apart from costwidget: AUCs with ``sklearn.metrics.roc_curve`` and
``auc``, envelopes as the minimum of every ROC point's cost line (eq. 8 of Drummond & Holte 2000),
scores from the estimator's own ``predict_proba``/``decision_function``, folds from
``cross_validate``, and the exceptions (type and message) from what ``RocCurveDisplay`` raises on
the same input. Where the installed scikit-learn has no counterpart (``from_cv_results`` before
1.7), the comparison with it is skipped and the independent computation stays.
"""

from __future__ import annotations

import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import sklearn  # noqa: E402
from sklearn import clone  # noqa: E402
from sklearn.base import BaseEstimator, ClassifierMixin  # noqa: E402
from sklearn.compose import make_column_transformer  # noqa: E402
from sklearn.datasets import load_breast_cancer, load_iris, make_classification  # noqa: E402
from sklearn.exceptions import NotFittedError  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.metrics import RocCurveDisplay, auc, roc_curve  # noqa: E402
from sklearn.model_selection import cross_validate, train_test_split  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor  # noqa: E402
from sklearn.utils import shuffle  # noqa: E402
from sklearn.utils.fixes import parse_version  # noqa: E402

import costwidget as cw  # noqa: E402
from costwidget.export import matplotlib_panes as mp  # noqa: E402

SKLEARN = parse_version(sklearn.__version__)
GRID = np.linspace(0.0, 1.0, 201)
needs_sklearn_1_7 = pytest.mark.skipif(
    SKLEARN < parse_version("1.7"), reason="RocCurveDisplay.from_cv_results is scikit-learn 1.7"
)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def data_binary():
    return make_classification(
        n_samples=200,
        n_features=20,
        n_informative=5,
        n_redundant=2,
        flip_y=0.1,
        class_sep=0.8,
        random_state=42,
    )


@pytest.fixture(scope="module")
def iris():
    X, y = load_iris(return_X_y=True)
    return X, y, X[y < 2], y[y < 2]


def _brute_envelope(fpr, tpr, x=GRID):
    """min over ROC points of their cost lines NEC = (1 - TPR - FPR) x + FPR (eq. 8), trivial
    classifiers included."""
    fpr = np.concatenate([np.asarray(fpr, float), [0.0, 1.0]])
    tpr = np.concatenate([np.asarray(tpr, float), [0.0, 1.0]])
    return ((1 - tpr - fpr)[:, None] * x[None, :] + fpr[:, None]).min(axis=0)


def _drawn(line, x=GRID):
    xy = line.get_xydata()
    return np.interp(x, xy[:, 0], xy[:, 1])


def _positive_scores(estimator, X, method, pos_label):
    """The positive class's score from the estimator's own method (not scikit-learn's helper)."""
    out = getattr(estimator, method)(X)
    classes = list(estimator.classes_)
    if out.ndim == 2:
        return out[:, classes.index(pos_label)]
    return out if pos_label == classes[1] else -out


def _raised(call):
    """The exception ``call`` raises (it must raise)."""
    try:
        call()
    except Exception as exc:  # noqa: BLE001 - any exception is the reference
        return exc
    raise AssertionError("the reference call raised nothing")


def _raises_as(reference_call, call):
    """``call`` raises what ``reference_call`` (scikit-learn) raises: the same type and message."""
    ref = _raised(reference_call)
    with pytest.raises(type(ref), match=re.escape(str(ref))) as info:
        call()
    assert type(info.value) is type(ref)


# ---------------------------------------------------------------------------- one curve
@pytest.mark.parametrize("response_method", ["predict_proba", "decision_function"])
@pytest.mark.parametrize("with_sample_weight", [True, False])
@pytest.mark.parametrize("with_strings", [True, False])
@pytest.mark.parametrize(
    "constructor_name, default_name",
    [("from_estimator", "LogisticRegression"), ("from_predictions", "Classifier")],
)
def test_display_plotting(
    data_binary, response_method, with_sample_weight, with_strings, constructor_name, default_name
):
    X, y = data_binary
    pos_label = None
    if with_strings:
        y = np.array(["c", "b"])[y]
        pos_label = "c"
    sample_weight = (
        np.random.RandomState(42).randint(1, 4, size=X.shape[0]) if with_sample_weight else None
    )
    lr = LogisticRegression().fit(X, y)
    y_score = _positive_scores(lr, X, response_method, lr.classes_[1])

    if constructor_name == "from_estimator":
        display = cw.CostCurveDisplay.from_estimator(
            lr,
            X,
            y,
            sample_weight=sample_weight,
            response_method=response_method,
            pos_label=pos_label,
            curve_kwargs={"alpha": 0.8},
        )
        scores = _positive_scores(lr, X, response_method, pos_label or lr.classes_[1])
    else:
        display = cw.CostCurveDisplay.from_predictions(
            y,
            y_score,
            sample_weight=sample_weight,
            pos_label=pos_label,
            curve_kwargs={"alpha": 0.8},
        )
        scores = y_score

    fpr, tpr, _ = roc_curve(
        y, scores, sample_weight=sample_weight, pos_label=pos_label, drop_intermediate=False
    )
    assert display.roc_auc == pytest.approx(auc(fpr, tpr), abs=1e-12)
    assert np.allclose(_drawn(display.line_), _brute_envelope(fpr, tpr), atol=1e-12)
    assert display.name == default_name
    assert isinstance(display.line_, matplotlib.lines.Line2D)
    assert display.line_.get_alpha() == 0.8
    assert display.line_.get_label() == f"{default_name} (AUC = {auc(fpr, tpr):.2f})"
    expected_pos_label = 1 if pos_label is None else pos_label
    assert display.ax_.get_xlabel().endswith(f"(positive label: {expected_pos_label})")
    assert isinstance(display.ax_, matplotlib.axes.Axes)
    assert isinstance(display.figure_, matplotlib.figure.Figure)
    # The same label as scikit-learn's own display of the same scores.
    ref = RocCurveDisplay.from_predictions(
        y, scores, sample_weight=sample_weight, pos_label=pos_label, name=default_name
    )
    assert display.line_.get_label() == ref.line_.get_label()


@pytest.mark.parametrize(
    "curve_kwargs, name, message",
    [
        ([{}, {}], None, "`curve_kwargs` must be None, a dictionary or a list of length 1"),
        (None, ["a", "b"], "name has 2 entries for 1 classifiers"),
        ({"c": "notacolor"}, None, "notacolor"),
    ],
)
def test_plot_parameter_length_validation(data_binary, curve_kwargs, name, message):
    X, y = data_binary
    clf = cw.Classifier.from_scores(y, X[:, 0], name="m")
    with pytest.raises(ValueError, match=re.escape(message)):
        cw.CostCurveDisplay(classifiers=clf).plot(curve_kwargs=curve_kwargs, name=name)
    assert not plt.get_fignums()  # refused before anything was drawn


# ---------------------------------------------------------------------------- curve_kwargs
@pytest.mark.parametrize(
    "user, expected",
    [
        ({"color": "red", "linewidth": 1.0, "label": "mine"}, ("#ff0000", 1.0, "mine")),
        ({"c": "red", "lw": 1.0, "label": "mine"}, ("#ff0000", 1.0, "mine")),
        ({"c": "green"}, ("#008000", 2.5, None)),
    ],
)
def test_curve_kwargs_color_c_lw_label_are_applied(data_binary, user, expected):
    """Today's code raised TypeError (color given twice); the envelope now takes the user's
    colour, width and label, and the marks of that classifier follow its colour."""
    X, y = data_binary
    display = cw.CostCurveDisplay.from_predictions(
        y, X[:, 0], name="m", curve_kwargs=user, pcf=0.4, roc=True, show_bands=True
    )
    color, width, label = expected
    fpr, tpr, _ = roc_curve(y, X[:, 0])
    label = label or f"m (AUC = {auc(fpr, tpr):.2f})"
    line = display.line_
    assert (matplotlib.colors.to_hex(line.get_color()), line.get_linewidth(), line.get_label()) == (
        color,
        width,
        label,
    )
    assert [t.get_text() for t in display.ax_.get_legend().get_texts()] == [label]
    same = matplotlib.colors.to_rgba(color)
    assert tuple(display.operating_points_.get_facecolors()[0]) == same
    assert matplotlib.colors.to_rgba(display.roc_line_.get_color()) == same
    assert tuple(display.bands_[0].get_facecolor()[0][:3]) == same[:3]


def test_curve_kwargs_label_none_leaves_the_curve_out_of_the_legend(data_binary):
    X, y = data_binary
    display = cw.CostCurveDisplay.from_predictions(y, X[:, 0], curve_kwargs={"label": None})
    assert display.line_.get_label().startswith("_") and display.ax_.get_legend() is None


def test_an_alias_and_its_full_name_together_are_refused_as_by_scikit_learn(data_binary):
    X, y = data_binary
    with pytest.raises(TypeError, match="Got both c and color, which are aliases"):
        cw.CostCurveDisplay.from_predictions(y, X[:, 0], curve_kwargs={"c": "red", "color": "b"})
    with pytest.raises(TypeError, match="Got both lw and linewidth"):
        cw.CostCurveDisplay.from_predictions(y, X[:, 0], trivial_kw={"lw": 1, "linewidth": 2})


@pytest.mark.parametrize(
    "user",
    [
        {"c": "r", "lw": 3, "ls": ":"},
        {"color": "b", "alpha": 0.2},
        {"mfc": "k", "ms": 4, "label": "x"},
        {},
    ],
)
def test_style_kwargs_equal_scikit_learns(user):
    try:
        from sklearn.utils._plotting import _validate_style_kwargs
    except ImportError:
        pytest.skip("scikit-learn < 1.5 has no _validate_style_kwargs")
    from costwidget.export import curve_styles

    default = {"color": "grey", "linewidth": 1.0, "linestyle": "-", "label": "d"}
    assert curve_styles.style_kwargs(default, user) == _validate_style_kwargs(default, user)


def test_list_curve_kwargs_style_each_classifier(data_binary):
    X, y = data_binary
    scores = {"a": X[:, 0], "b": X[:, 1]}
    display = cw.CostCurveDisplay.from_predictions(
        y, scores, curve_kwargs=[{"c": "black"}, {"ls": ":", "label": "second"}]
    )
    assert display.name == ["a", "b"]
    first, second = display.line_
    auc_a = auc(*roc_curve(y, X[:, 0])[:2])
    assert (first.get_color(), first.get_label()) == ("black", f"a (AUC = {auc_a:.2f})")
    assert (second.get_color(), second.get_linestyle(), second.get_label()) == (
        mp.PALETTE[1],
        ":",
        "second",
    )


def test_renamed_classifiers_keep_their_colours_in_the_who_wins_strip():
    """The strip is coloured by classifier; renaming the legend (plot(name=...)) left it grey."""
    y = np.array([0] * 10 + [1] * 10)
    # a ranks half the positives above every negative, b half the negatives below every positive
    scores = {
        "a": np.r_[np.arange(10), [20] * 5 + [-5] * 5].astype(float),
        "b": np.r_[[-20] * 5 + [30] * 5, np.arange(10)].astype(float),
    }
    display = cw.CostCurveDisplay.from_predictions(y, scores).plot(name=["first", "second"])
    best = cw.combined_envelope(display.classifiers)
    owner_colour = {"a": mp.PALETTE[0], "b": mp.PALETTE[1]}
    expected = [
        matplotlib.colors.to_rgba(owner_colour.get(o, mp.TRIVIAL_COLOR)) for o in best["classifier"]
    ]
    strip = [
        c for c in display.ax_.collections if isinstance(c, matplotlib.collections.LineCollection)
    ][-1]
    assert [tuple(c) for c in strip.get_colors()] == expected
    assert {"a", "b"} <= set(best["classifier"])


# ---------------------------------------------------------------------------- from_cv_results
@pytest.fixture(scope="module")
def cv_runs(data_binary):
    X, y = data_binary
    runs = {}
    for with_strings in (True, False):
        yy = np.array(["c", "b"])[y] if with_strings else y
        runs[with_strings] = (
            yy,
            cross_validate(
                LogisticRegression(), X, yy, cv=3, return_estimator=True, return_indices=True
            ),
        )
    return runs


@pytest.mark.parametrize(
    "curve_kwargs",
    [None, {"color": "blue"}, [{"color": "blue"}, {"color": "green"}, {"color": "red"}]],
)
@pytest.mark.parametrize("response_method", ["predict_proba", "decision_function"])
@pytest.mark.parametrize("with_sample_weight", [True, False])
@pytest.mark.parametrize("with_strings", [True, False])
def test_display_plotting_from_cv_results(
    data_binary, cv_runs, with_strings, with_sample_weight, response_method, curve_kwargs
):
    X, _ = data_binary
    y, cv_results = cv_runs[with_strings]
    pos_label = "c" if with_strings else None
    sample_weight = (
        np.random.RandomState(42).randint(1, 4, size=X.shape[0]) if with_sample_weight else None
    )
    display = cw.CostCurveDisplay.from_cv_results(
        cv_results,
        X,
        y,
        sample_weight=sample_weight,
        response_method=response_method,
        pos_label=pos_label,
        curve_kwargs=curve_kwargs,
    )

    aucs = []
    for idx, (estimator, test) in enumerate(
        zip(cv_results["estimator"], cv_results["indices"]["test"])
    ):
        fold_pos = pos_label if pos_label is not None else estimator.classes_[1]
        scores = _positive_scores(estimator, X[test], response_method, fold_pos)
        weight = None if sample_weight is None else sample_weight[test]
        fpr, tpr, _ = roc_curve(
            y[test], scores, sample_weight=weight, pos_label=fold_pos, drop_intermediate=False
        )
        aucs.append(auc(fpr, tpr))
        assert display.roc_auc[idx] == pytest.approx(aucs[-1], abs=1e-12)
        assert np.allclose(_drawn(display.line_[idx]), _brute_envelope(fpr, tpr), atol=1e-12)

    assert display.name is None and len(display.line_) == 3
    assert display.ax_.get_xlabel().endswith(f"(positive label: {pos_label or 1})")
    assert display.combined_ is None  # folds of one model: no "best of all"
    labels = [line.get_label() for line in display.line_]
    if isinstance(curve_kwargs, list):
        assert labels == [f"AUC = {a:.2f}" for a in aucs]
    else:
        assert labels[0] == f"AUC = {np.mean(aucs):.2f} +/- {np.std(aucs):.2f}"
        assert all(label.startswith("_") for label in labels[1:])
    assert all(line.get_alpha() == 0.5 and line.get_linestyle() == "--" for line in display.line_)


@needs_sklearn_1_7
@pytest.mark.parametrize("name", [None, "LR", ["a", "b", "c"]])
@pytest.mark.parametrize(
    "curve_kwargs", [None, {"alpha": 0.8}, [{"c": "b"}, {"c": "g", "label": "mine"}, {}]]
)
def test_from_cv_results_labels_and_styles_equal_scikit_learns(
    data_binary, cv_runs, name, curve_kwargs
):
    X, _ = data_binary
    y, cv_results = cv_runs[False]
    kwargs = dict(name=name, curve_kwargs=curve_kwargs)
    if isinstance(name, list) and not isinstance(curve_kwargs, list):
        _raises_as(
            lambda: RocCurveDisplay.from_cv_results(cv_results, X, y, **kwargs),
            lambda: cw.CostCurveDisplay.from_cv_results(cv_results, X, y, **kwargs),
        )
        return
    ours = cw.CostCurveDisplay.from_cv_results(cv_results, X, y, **kwargs)
    ref = RocCurveDisplay.from_cv_results(cv_results, X, y, **kwargs)
    assert ours.name == ref.name
    for mine, theirs in zip(ours.line_, ref.line_):
        # matplotlib numbers unlabelled lines by their place among the axes' children.
        same_label = (
            mine.get_label() == theirs.get_label()
            or mine.get_label()[0] == theirs.get_label()[0] == "_"
        )
        assert same_label, (mine.get_label(), theirs.get_label())
        assert (mine.get_alpha(), mine.get_linestyle()) == (
            theirs.get_alpha(),
            theirs.get_linestyle(),
        )
    legend = [t.get_text() for t in ours.ax_.get_legend().get_texts()]
    assert legend == [t.get_text() for t in ref.ax_.get_legend().get_texts()]


def test_from_cv_results_input_errors_are_scikit_learns(data_binary, cv_runs):
    X, _ = data_binary
    y, cv_results = cv_runs[False]
    missing = {k: v for k, v in cv_results.items() if k != "indices"}
    with pytest.raises(
        ValueError,
        match=re.escape(
            "does not contain the required keys ['indices']: pass return_estimator=True"
        ),
    ):
        cw.CostCurveDisplay.from_cv_results(missing, X, y)
    with pytest.raises(
        ValueError,
        match=re.escape(
            "`X` does not contain the correct number of samples. Expected 200, got 190."
        ),
    ):
        cw.CostCurveDisplay.from_cv_results(cv_results, X[:190], y)
    with pytest.raises(ValueError, match="The target `y` is not binary. Got multiclass"):
        cw.CostCurveDisplay.from_cv_results(cv_results, X, np.arange(200) % 3)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        cw.CostCurveDisplay.from_cv_results(cv_results, X, y, sample_weight=np.ones(10))
    if SKLEARN >= parse_version("1.7"):
        assert type(_raised(lambda: RocCurveDisplay.from_cv_results(missing, X, y))) is ValueError
        _raises_as(
            lambda: RocCurveDisplay.from_cv_results(cv_results, X[:190], y),
            lambda: cw.CostCurveDisplay.from_cv_results(cv_results, X[:190], y),
        )


# ---------------------------------------------------------------------------- trivial lines
def _check_trivial(plot_trivial, trivial_kw, display):
    if not plot_trivial:
        assert display.trivial_ is None
        return
    neg, pos = display.trivial_
    assert neg.get_xydata().tolist() == [[0, 0], [1, 1]]
    assert pos.get_xydata().tolist() == [[0, 1], [1, 0]]
    if trivial_kw is None:
        assert {matplotlib.colors.to_hex(line.get_color()) for line in (neg, pos)} == {
            mp.TRIVIAL_COLOR
        }
        return
    for line in (neg, pos):
        assert line.get_color() == trivial_kw.get("c", trivial_kw.get("color"))
        assert line.get_linewidth() == trivial_kw.get("lw", trivial_kw.get("linewidth"))
        assert line.get_linestyle() == trivial_kw.get("ls", trivial_kw.get("linestyle"))
    label = trivial_kw.get("label")
    assert neg.get_label() == label if label is not None else neg.get_label().startswith("_")
    assert pos.get_label().startswith("_")  # one legend entry for the pair


TRIVIAL_KWS = [
    None,
    {"linewidth": 1, "color": "red", "linestyle": "-", "label": "DummyEstimator"},
    {"lw": 1, "c": "red", "ls": "-", "label": "DummyEstimator"},
    {"lw": 1, "color": "blue", "ls": "-", "label": None},
]


@pytest.mark.parametrize("plot_trivial", [True, False])
@pytest.mark.parametrize("label", [None, "Test Label"])
@pytest.mark.parametrize("trivial_kw", TRIVIAL_KWS)
@pytest.mark.parametrize("constructor_name", ["from_estimator", "from_predictions"])
def test_trivial_lines(data_binary, plot_trivial, trivial_kw, label, constructor_name):
    X, y = data_binary
    lr = LogisticRegression().fit(X, y)
    kwargs = dict(
        curve_kwargs={"alpha": 0.8, "label": label},
        plot_trivial=plot_trivial,
        trivial_kw=trivial_kw,
    )
    if constructor_name == "from_estimator":
        display = cw.CostCurveDisplay.from_estimator(lr, X, y, **kwargs)
    else:
        display = cw.CostCurveDisplay.from_predictions(y, lr.predict_proba(X)[:, 1], **kwargs)
    assert display.line_.get_alpha() == 0.8
    _check_trivial(plot_trivial, trivial_kw, display)
    expected = [lab for lab in (label, plot_trivial and (trivial_kw or {}).get("label")) if lab]
    legend = display.ax_.get_legend()
    if expected:
        assert [t.get_text() for t in legend.get_texts()] == expected
    else:
        assert legend is None


@pytest.mark.parametrize("plot_trivial", [True, False])
@pytest.mark.parametrize("trivial_kw", TRIVIAL_KWS)
@pytest.mark.parametrize("curve_kwargs", [None, {"alpha": 0.8}])
def test_trivial_lines_from_cv_results(
    data_binary, cv_runs, plot_trivial, trivial_kw, curve_kwargs
):
    X, _ = data_binary
    y, cv_results = cv_runs[False]
    display = cw.CostCurveDisplay.from_cv_results(
        cv_results,
        X,
        y,
        plot_trivial=plot_trivial,
        trivial_kw=trivial_kw,
        curve_kwargs=curve_kwargs,
    )
    if curve_kwargs:
        assert all(line.get_alpha() == 0.8 for line in display.line_)
    _check_trivial(plot_trivial, trivial_kw, display)
    legend = [t.get_text() for t in display.ax_.get_legend().get_texts()]
    trivial_label = plot_trivial and (trivial_kw or {}).get("label")
    assert len(legend) == 1 + bool(trivial_label)  # always the folds' entry
    assert legend[0].startswith("AUC = ")


# ---------------------------------------------------------------------------- estimators
PIPELINES = [
    LogisticRegression(),
    make_pipeline(StandardScaler(), LogisticRegression()),
    make_pipeline(make_column_transformer((StandardScaler(), [0, 1])), LogisticRegression()),
]


@pytest.mark.parametrize("clf", PIPELINES)
@pytest.mark.parametrize("constructor_name", ["from_estimator", "from_predictions"])
def test_complex_pipeline_and_not_fitted(data_binary, clf, constructor_name):
    """An unfitted estimator raises scikit-learn's NotFittedError (today: a ValueError)."""
    X, y = data_binary
    clf = clone(clf)
    if constructor_name == "from_estimator":
        with pytest.raises(NotFittedError):
            cw.CostCurveDisplay.from_estimator(clf, X, y)
        _raises_as(
            lambda: RocCurveDisplay.from_estimator(clone(clf), X, y),
            lambda: cw.CostCurveDisplay.from_estimator(clone(clf), X, y),
        )
    clf.fit(X, y)
    if constructor_name == "from_estimator":
        display = cw.CostCurveDisplay.from_estimator(clf, X, y)
        name = clf.__class__.__name__
    else:
        display = cw.CostCurveDisplay.from_predictions(y, y)
        name = "Classifier"
    assert name in display.line_.get_label()
    assert display.name == name


@pytest.mark.parametrize(
    "response_method", ["predict_proba", "decision_function", "auto", "bad_method"]
)
def test_no_response_method_raises_what_scikit_learn_raises(iris, response_method):
    """An AttributeError naming the missing methods, scikit-learn's own (today: ValueError)."""
    _, _, X, y = iris

    class MyClassifier(ClassifierMixin, BaseEstimator):
        def fit(self, X, y):
            self.classes_ = [0, 1]
            return self

    clf = MyClassifier().fit(X, y)
    _raises_as(
        lambda: RocCurveDisplay.from_estimator(clf, X, y, response_method=response_method),
        lambda: cw.CostCurveDisplay.from_estimator(clf, X, y, response_method=response_method),
    )
    with pytest.raises(AttributeError, match="MyClassifier has none of the following attributes"):
        cw.CostCurveDisplay.from_estimator(clf, X, y, response_method=response_method)


def test_binary_classifier_errors(iris):
    X, y, X_binary, y_binary = iris
    clf = DecisionTreeClassifier().fit(X, y)
    for XX, yy in ((X, y), (X_binary, y_binary)):  # multiclass classifier
        _raises_as(
            lambda XX=XX, yy=yy: RocCurveDisplay.from_estimator(clf, XX, yy),
            lambda XX=XX, yy=yy: cw.CostCurveDisplay.from_estimator(clf, XX, yy),
        )
    binary = DecisionTreeClassifier().fit(X_binary, y_binary)
    with pytest.raises(ValueError, match="y_true has 3 distinct labels"):  # multiclass target
        cw.CostCurveDisplay.from_estimator(binary, X, y)


def test_regressor_errors(iris):
    _, _, X, y = iris
    regressor = DecisionTreeRegressor().fit(X, y)
    _raises_as(
        lambda: RocCurveDisplay.from_estimator(regressor, X, y),
        lambda: cw.CostCurveDisplay.from_estimator(regressor, X, y),
    )


def test_n_samples_consistency(iris):
    _, _, X, y = iris
    classifier = DecisionTreeClassifier().fit(X, y)
    with pytest.raises(ValueError, match="has 98 scores but y_true has 100 labels"):
        cw.CostCurveDisplay.from_estimator(classifier, X[:-2], y)
    with pytest.raises(ValueError, match="has 100 scores but y_true has 98 labels"):
        cw.CostCurveDisplay.from_estimator(classifier, X, y[:-2])
    with pytest.raises(ValueError, match="sample_weight has 98 entries"):
        cw.CostCurveDisplay.from_estimator(classifier, X, y, sample_weight=np.ones(98))


def test_pos_label_must_be_given_for_other_labels(iris):
    _, _, X, y = iris
    y_pred = DecisionTreeClassifier().fit(X, y + 10).predict_proba(X)[:, -1]
    with pytest.raises(ValueError, match=re.escape("y_true has labels [10, 11]; pos_label")):
        cw.CostCurveDisplay.from_predictions(y + 10, y_pred)


@pytest.mark.parametrize(
    "constructor_name", ["from_estimator", "from_predictions", "from_cv_results"]
)
def test_name_given_to_plot_overrides_the_constructors(iris, constructor_name):
    _, _, X, y = iris
    clf_name = "my hand-crafted name"
    clf = LogisticRegression().fit(X, y)
    if constructor_name == "from_estimator":
        display = cw.CostCurveDisplay.from_estimator(clf, X, y, name=clf_name)
    elif constructor_name == "from_predictions":
        display = cw.CostCurveDisplay.from_predictions(y, clf.predict_proba(X)[:, 1], name=clf_name)
    else:
        cv_results = cross_validate(
            LogisticRegression(), X, y, cv=3, return_estimator=True, return_indices=True
        )
        display = cw.CostCurveDisplay.from_cv_results(cv_results, X, y, name=clf_name)
    assert display.name == clf_name

    def first_label():
        lines = display.line_ if isinstance(display.line_, list) else [display.line_]
        return lines[0].get_label()

    plt.close("all")
    display.plot()
    assert clf_name in first_label()
    plt.close("all")
    display.plot(name="another_name")
    assert "another_name" in first_label() and display.name == clf_name


@pytest.mark.parametrize("constructor", ["from_predictions", "from_estimator", "from_cv_results"])
def test_named_constructors_return_the_subclass(iris, constructor):
    _, _, X, y = iris

    class SubclassOfDisplay(cw.CostCurveDisplay):
        pass

    if constructor == "from_predictions":
        curve = SubclassOfDisplay.from_predictions(y, y)
    elif constructor == "from_estimator":
        curve = SubclassOfDisplay.from_estimator(LogisticRegression().fit(X, y), X, y)
    else:
        cv_results = cross_validate(
            LogisticRegression(), X, y, cv=3, return_estimator=True, return_indices=True
        )
        curve = SubclassOfDisplay.from_cv_results(cv_results, X, y)
    assert isinstance(curve, SubclassOfDisplay)


# ---------------------------------------------------------------------------- labels
def _two_pos_five_neg(top, second):
    """A classifier of 2 positives over 5 negatives scored 1..5: AUC = (top + second) / 10,
    where each positive sits above ``top`` and ``second`` negatives."""
    y = [0, 0, 0, 0, 0, 1, 1]
    return cw.Classifier.from_scores(y, [1, 2, 3, 4, 5, top + 0.5, second + 0.5])


@pytest.mark.parametrize(
    "aucs, name, curve_kwargs, expected_labels",
    [
        ((9, 8), None, None, ["AUC = 0.85 +/- 0.05", "_"]),
        ((9, 8), "Est name", None, ["Est name (AUC = 0.85 +/- 0.05)", "_"]),
        (
            (8, 7),
            ["fold1", "fold2"],
            [{"c": "blue"}, {"c": "red"}],
            ["fold1 (AUC = 0.80)", "fold2 (AUC = 0.70)"],
        ),
    ],
)
def test_default_labels_of_folds(aucs, name, curve_kwargs, expected_labels):
    """scikit-learn's table of fold labels (AUCs 0.9, 0.8 and 0.8, 0.7 by construction)."""
    clfs = [_two_pos_five_neg(5, a - 5) for a in aucs]
    assert [cw.roc_auc(c) for c in clfs] == [a / 10 for a in aucs]
    display = cw.CostCurveDisplay(classifiers=clfs, name=name, folds=True).plot(
        curve_kwargs=curve_kwargs
    )
    for line, expected in zip(display.line_, expected_labels):
        assert line.get_label() == expected if expected != "_" else line.get_label()[0] == "_"


def test_several_classifiers_that_are_not_folds_keep_each_its_entry():
    clfs = [_two_pos_five_neg(5, 4).renamed("a"), _two_pos_five_neg(5, 3).renamed("b")]
    display = cw.CostCurveDisplay(classifiers=clfs).plot()
    assert [line.get_label() for line in display.line_] == ["a (AUC = 0.90)", "b (AUC = 0.80)"]
    assert [line.get_color() for line in display.line_] == mp.PALETTE[:2]
    assert display.roc_auc == [0.9, 0.8] and display.combined_ is not None


def test_folds_named_one_by_one_need_a_list_of_curve_kwargs():
    clfs = [_two_pos_five_neg(5, 4), _two_pos_five_neg(5, 3)]
    with pytest.raises(
        ValueError, match="To avoid labeling individual curves that have the same appearance"
    ):
        cw.CostCurveDisplay(classifiers=clfs, name=["x", "y"], folds=True).plot()


# ---------------------------------------------------------------------------- pos_label
def _imbalanced_cancer():
    """scikit-learn's _check_pos_label_statistics data: 25 cancers, 2 features."""
    X, y = load_breast_cancer(return_X_y=True)
    idx = np.hstack([np.flatnonzero(y == 0), np.flatnonzero(y == 1)[:25]])
    X, y = shuffle(X[idx], y[idx], random_state=42)
    X = X[:, :2]
    y = np.array(["cancer" if c == 1 else "not cancer" for c in y], dtype=object)
    return X, y


@pytest.mark.parametrize("response_method", ["predict_proba", "decision_function"])
@pytest.mark.parametrize(
    "constructor_name", ["from_estimator", "from_predictions", "from_cv_results"]
)
def test_pos_label_gives_scikit_learns_auc(response_method, constructor_name):
    """scikit-learn's own figures (0.95679 and, by fold, 0.97007, 0.985915, 0.980952), the same
    whichever class is positive."""
    X, y = _imbalanced_cancer()
    X_train, X_test, y_train, y_test = train_test_split(X, y, stratify=y, random_state=0)
    classifier = LogisticRegression().fit(X_train, y_train)
    assert classifier.classes_.tolist() == ["cancer", "not cancer"]
    cv_results = cross_validate(
        LogisticRegression(), X, y, cv=3, return_estimator=True, return_indices=True
    )
    for pos_label in ("cancer", "not cancer"):
        if constructor_name == "from_estimator":
            display = cw.CostCurveDisplay.from_estimator(
                classifier, X_test, y_test, pos_label=pos_label, response_method=response_method
            )
        elif constructor_name == "from_predictions":
            scores = _positive_scores(classifier, X_test, response_method, pos_label)
            display = cw.CostCurveDisplay.from_predictions(y_test, scores, pos_label=pos_label)
        else:
            display = cw.CostCurveDisplay.from_cv_results(
                cv_results, X, y, pos_label=pos_label, response_method=response_method
            )
        if constructor_name == "from_cv_results":
            assert display.roc_auc == pytest.approx([0.97007, 0.985915, 0.980952])
        else:
            assert display.roc_auc == pytest.approx(0.95679)
        assert f"positive label: {pos_label}" in display.ax_.get_xlabel()


# ---------------------------------------------------------------------------- despine
@pytest.mark.parametrize("despine", [True, False])
@pytest.mark.parametrize(
    "constructor_name", ["from_estimator", "from_predictions", "from_cv_results"]
)
def test_despine(data_binary, cv_runs, despine, constructor_name):
    X, y = data_binary
    lr = LogisticRegression().fit(X, y)
    if constructor_name == "from_estimator":
        display = cw.CostCurveDisplay.from_estimator(lr, X, y, despine=despine, roc=True)
    elif constructor_name == "from_predictions":
        display = cw.CostCurveDisplay.from_predictions(
            y, lr.decision_function(X), despine=despine, roc=True
        )
    else:
        display = cw.CostCurveDisplay.from_cv_results(
            cv_runs[False][1], X, y, despine=despine, roc=True
        )
        # Each fold's hull looks like its envelope.
        assert (
            [(h.get_linestyle(), h.get_alpha()) for h in display.roc_line_]
            == [(line.get_linestyle(), line.get_alpha()) for line in display.line_]
            == [("--", 0.5)] * 3
        )
    for ax, top in ((display.ax_, 0.5), (display.roc_ax_, 1.0)):
        for side in ("top", "right"):
            assert ax.spines[side].get_visible() is not despine
        if despine:
            assert ax.spines["bottom"].get_bounds() == (0, 1)
            assert ax.spines["left"].get_bounds() == (0, top)


# ---------------------------------------------------------------------------- a look
def test_artifact_from_cv_results(data_binary, cv_runs):
    """Writes tests/artifacts/display_cv_results.png for a human to look at (gitignored)."""
    from pathlib import Path

    X, _ = data_binary
    y, cv_results = cv_runs[False]
    out = Path(__file__).resolve().parent / "artifacts"
    out.mkdir(exist_ok=True)
    display = cw.CostCurveDisplay.from_cv_results(
        cv_results,
        X,
        y,
        name="LogisticRegression",
        pcf=0.3,
        roc=True,
        despine=True,
        trivial_kw={"ls": ":", "label": "trivial classifiers"},
    )
    display.figure_.savefig(out / "display_cv_results.png", dpi=100)
    folds = cw.CostCurveDisplay.from_cv_results(
        cv_results, X, y, curve_kwargs=[{"c": c} for c in ("C0", "C1", "C2")], pcf=0.3
    )
    folds.figure_.savefig(out / "display_cv_results_each.png", dpi=100)
    assert (out / "display_cv_results.png").stat().st_size > 10_000
