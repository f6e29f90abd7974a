"""Classifiers from scikit-learn estimators, against scores made independently with sklearn."""

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import RocCurveDisplay
from sklearn.model_selection import KFold, ShuffleSplit, StratifiedKFold, cross_val_predict
from sklearn.svm import LinearSVC

# random_state: before scikit-learn 1.5 LinearSVC solved the dual by a randomly shuffled
# coordinate descent, so two unseeded fits differed in the 5th digit.
import costwidget as cw
from costwidget.model.classifier.estimators import classifiers_from_estimators, estimator_names


def data(n=300, seed=0, labels=(0, 1)):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    z = X[:, 0] - 0.7 * X[:, 1] + rng.normal(size=n)
    y = np.where(z > 0.3, labels[1], labels[0])
    return X, y


def same_curve(a, b):
    pd.testing.assert_frame_equal(a.roc, b.roc)
    pd.testing.assert_frame_equal(a.envelope, b.envelope)
    assert a.operating_range == b.operating_range


def expected_cv(estimator, X, y, pos_label, method):
    """Independent: sklearn's cross_val_predict on StratifiedKFold(5), then from_scores."""
    cv = StratifiedKFold(5)
    out = cross_val_predict(estimator, X, y, cv=cv, method=method)
    classes = np.unique(y)
    if method == "predict_proba":
        score = out[:, list(classes).index(pos_label)]
    else:
        score = out if pos_label == classes[1] else -out
    folds = np.empty(len(y), int)
    for k, (_, test) in enumerate(cv.split(X, y)):
        folds[test] = k
    return cw.Classifier.from_scores(y, score, pos_label=pos_label, folds=folds)


@pytest.mark.parametrize("pos_label", [0, 1])
def test_linear_svc_cross_validated_for_either_positive_class(pos_label):
    X, y = data()
    got = cw.Classifier.from_estimator(LinearSVC(random_state=0), X, y, cv=5, pos_label=pos_label)
    want = expected_cv(LinearSVC(random_state=0), X, y, pos_label, "decision_function")
    same_curve(got, want)
    assert got.pos_label == pos_label and got.name == "LinearSVC"
    for k in want.folds:
        pd.testing.assert_frame_equal(got.folds[k].roc, want.folds[k].roc)
    # A good classifier whatever the positive class (the old widget path gave the
    # wrong class's scores for pos_label=0: area 0.25, operating range (0.5, 0.5)).
    assert got.area() < 0.2
    assert got.operating_range.hi - got.operating_range.lo > 0.5


def test_swapping_the_positive_class_mirrors_the_cost_curve():
    # Same scores, roles swapped: NEC_0(x) = NEC_1(1 - x), so the areas are equal.
    X, y = data(seed=1)
    c0 = cw.Classifier.from_estimator(LinearSVC(random_state=0), X, y, cv=5, pos_label=0)
    c1 = cw.Classifier.from_estimator(LinearSVC(random_state=0), X, y, cv=5, pos_label=1)
    x = np.linspace(0, 1, 101)
    np.testing.assert_allclose(c0.nec(x), c1.nec(1 - x), atol=1e-12)
    assert c0.area() == pytest.approx(c1.area(), abs=1e-12)


@pytest.mark.parametrize("pos_label", [0, 1])
def test_fitted_estimator_scored_on_test_data_like_sklearn_display(pos_label):
    X, y = data(seed=2)
    model = LinearSVC(random_state=0).fit(X[:150], y[:150])
    got = cw.Classifier.from_estimator(model, X[150:], y[150:], pos_label=pos_label)
    score = model.decision_function(X[150:])
    want = cw.Classifier.from_scores(
        y[150:], score if pos_label == 1 else -score, pos_label=pos_label
    )
    same_curve(got, want)
    assert got.folds == {}
    disp = RocCurveDisplay.from_estimator(
        model, X[150:], y[150:], pos_label=pos_label, drop_intermediate=False
    )
    np.testing.assert_allclose(got.roc.fpr, disp.fpr, rtol=1e-12)
    np.testing.assert_allclose(got.roc.tpr, disp.tpr, rtol=1e-12)


def test_two_logistic_regressions_stay_two_classifiers():
    X, y = data(seed=3)
    models = classifiers_from_estimators([LogisticRegression(), LogisticRegression(C=0.001)], X, y)
    assert list(models) == ["LogisticRegression", "LogisticRegression (2)"]
    for (name, clf), c in zip(models.items(), (1.0, 0.001)):
        same_curve(clf, expected_cv(LogisticRegression(C=c), X, y, 1, "predict_proba"))
        assert clf.name == name
    assert not models["LogisticRegression"].roc.equals(models["LogisticRegression (2)"].roc)


@pytest.mark.parametrize("pos_label", ["ham", "spam", None])
def test_string_labels(pos_label):
    X, y = data(seed=4, labels=("ham", "spam"))
    expected_pos = "spam" if pos_label is None else pos_label  # classes_[1] by default
    models = classifiers_from_estimators(
        {"lr": LogisticRegression(), "svm": LinearSVC(random_state=0)}, X, y, pos_label=pos_label
    )
    same_curve(models["lr"], expected_cv(LogisticRegression(), X, y, expected_pos, "predict_proba"))
    same_curve(
        models["svm"],
        expected_cv(LinearSVC(random_state=0), X, y, expected_pos, "decision_function"),
    )
    assert models["lr"].pos_label == models["svm"].pos_label == expected_pos


def test_decision_function_and_predict_proba_give_the_same_curve():
    # For logistic regression the probability is a strictly increasing function of the
    # decision function, so the ROC points are the same.
    X, y = data(seed=5, labels=("a", "b"))
    for pos in ("a", "b"):
        p = cw.Classifier.from_estimator(
            LogisticRegression(), X, y, cv=4, pos_label=pos, response_method="predict_proba"
        )
        d = cw.Classifier.from_estimator(
            LogisticRegression(), X, y, cv=4, pos_label=pos, response_method="decision_function"
        )
        np.testing.assert_allclose(p.roc.fpr, d.roc.fpr, rtol=1e-12)
        np.testing.assert_allclose(p.roc.tpr, d.roc.tpr, rtol=1e-12)


def test_bad_pos_label_names_the_labels():
    X, y = data(labels=("ham", "spam"))
    fitted = LogisticRegression().fit(X, y)
    with pytest.raises(
        ValueError, match=r"pos_label='eggs' is not one of the labels \['ham', 'spam'\]"
    ):
        cw.Classifier.from_estimator(fitted, X, y, pos_label="eggs")
    with pytest.raises(ValueError, match=r"pos_label='eggs' is not one of the labels"):
        cw.Classifier.from_estimator(LinearSVC(random_state=0), X, y, cv=3, pos_label="eggs")
    with pytest.raises(ValueError, match=r"pos_label=1 is not one of the labels \['ham', 'spam'\]"):
        classifiers_from_estimators([LinearSVC(random_state=0)], X, y, pos_label=1)


def test_names_are_unique_and_given_ones_are_kept():
    lr, svc = LogisticRegression(), LinearSVC(random_state=0)
    assert [n for n, _ in estimator_names([lr, svc, lr, lr])] == [
        "LogisticRegression",
        "LinearSVC",
        "LogisticRegression (2)",
        "LogisticRegression (3)",
    ]
    assert [n for n, _ in estimator_names([lr, ("LogisticRegression (2)", svc), lr])] == [
        "LogisticRegression",
        "LogisticRegression (2)",
        "LogisticRegression (3)",
    ]
    with pytest.raises(ValueError, match="unique; repeated: \\['a'\\]"):
        estimator_names([("a", lr), ("a", svc)])
    with pytest.raises(TypeError, match="strings"):
        estimator_names({1: lr})
    with pytest.raises(ValueError, match="empty"):
        estimator_names([])
    with pytest.raises(TypeError, match="dict"):
        estimator_names(lr)


def test_unfitted_estimator_without_cv_is_refused_with_a_hint():
    X, y = data()
    with pytest.raises(ValueError, match="not fitted.*cv=5"):
        cw.Classifier.from_estimator(LogisticRegression(), X, y)


def test_multiclass_and_non_partition_cv_are_refused():
    X, y = data()
    y3 = y.copy()
    y3[:10] = 2
    with pytest.raises(ValueError, match="3 classes"):
        cw.Classifier.from_estimator(LogisticRegression(), X, y3, cv=3)
    with pytest.raises(ValueError, match="exactly one test fold"):
        cw.Classifier.from_estimator(LogisticRegression(), X, y, cv=ShuffleSplit(3, random_state=0))
    with pytest.raises(ValueError, match="response_method"):
        cw.Classifier.from_estimator(LogisticRegression(), X, y, cv=3, response_method="predict")


def test_folds_are_drawn_once_for_all_estimators():
    # A shuffling splitter without a seed would give each estimator other folds if it
    # were split per estimator; the classifiers must share them to be compared paired.
    X, y = data(seed=6)
    models = classifiers_from_estimators(
        [LogisticRegression(), LinearSVC(random_state=0)], X, y, cv=KFold(4, shuffle=True)
    )
    a, b = models.values()
    assert a._sample.fold_codes is not None
    assert np.array_equal(a._sample.fold_codes, b._sample.fold_codes)
    assert len(a.fold_average("vertical", space="roc")) > 2
    spread = b.fold_spread(grid=11)
    assert (spread["lower"] <= spread["upper"]).all()


def test_fitted_estimators_in_the_widget_function():
    X, y = data(seed=7)
    models = classifiers_from_estimators(
        {"lr": LogisticRegression().fit(X[:200], y[:200])}, X[200:], y[200:], cv=None
    )
    want = cw.Classifier.from_scores(
        y[200:], LogisticRegression().fit(X[:200], y[:200]).predict_proba(X[200:])[:, 1]
    )
    same_curve(models["lr"], want)


def test_test_labels_the_estimator_was_not_fitted_on_are_refused():
    X, y = data(labels=("ham", "spam"))
    fitted = LogisticRegression().fit(X, y)
    y_other = np.where(y == "ham", "eggs", y)
    with pytest.raises(
        ValueError, match=r"labels \['eggs'\] that LogisticRegression was not fitted on"
    ):
        cw.Classifier.from_estimator(fitted, X, y_other, pos_label="spam")
    with pytest.raises(ValueError, match="not fitted on"):
        cw.Classifier.from_estimator(fitted, X, (y == "spam").astype(int))


def test_n_jobs_2_gives_the_classifiers_of_n_jobs_1_and_of_cross_val_predict():
    # Randomized estimators with a fixed seed: the folds fitted in two worker processes give
    # the same scores as one after another, and as sklearn's cross_val_predict itself.
    from sklearn.ensemble import RandomForestClassifier

    X, y = data(240, seed=3, labels=("no", "yes"))
    models = {
        "forest": RandomForestClassifier(n_estimators=15, max_features=2, random_state=4),
        # Seeded: liblinear's dual solver (the default of older scikit-learn) shuffles at random.
        "svc": LinearSVC(random_state=0),
    }
    one = classifiers_from_estimators(models, X, y, cv=5, n_jobs=1, progress=False)
    two = classifiers_from_estimators(models, X, y, cv=5, n_jobs=2, progress=False)
    for name in models:
        np.testing.assert_array_equal(one[name].sample.scores, two[name].sample.scores)
        same_curve(one[name], two[name])
    method = {"forest": "predict_proba", "svc": "decision_function"}
    for name, est in models.items():
        same_curve(one[name], expected_cv(est, X, y, "yes", method[name]))


class _SlowFit(LogisticRegression):
    """A logistic regression whose fit takes a little while (for the progress tests)."""

    def fit(self, X, y):
        import time

        time.sleep(0.03)
        return super().fit(X, y)


def test_fast_fits_say_nothing_and_long_ones_count_their_fits(capsys, monkeypatch):
    from costwidget.model.kernels import estimator_scoring

    X, y = data(120, seed=5)
    classifiers_from_estimators([LogisticRegression()], X, y, cv=3)
    assert capsys.readouterr().err == ""  # well under 2 s: nothing shown
    monkeypatch.setattr(estimator_scoring, "PROGRESS_AFTER_S", 0.05)
    classifiers_from_estimators([_SlowFit(), _SlowFit(C=0.1)], X, y, cv=3)
    lines = capsys.readouterr().err.splitlines()
    # Counting starts once 0.05 s have passed (by the second 0.03 s fit at the latest; on a
    # loaded machine the first may already take that long), then every fit is counted, and
    # the last line gives the total.
    assert lines[-1].startswith("costwidget: 6 fits done in ")
    done = [int(line.split("fit ")[1].split("/")[0]) for line in lines[:-1]]
    assert done == list(range(done[0], 7)) and done[0] <= 2
    assert all(line.endswith(" s") and "/6 done (" in line for line in lines[:-1])
    classifiers_from_estimators([_SlowFit()], X, y, cv=3, progress=False)
    assert capsys.readouterr().err == ""


def test_progress_true_counts_from_the_first_fit_and_bad_values_are_refused(capsys):
    X, y = data(120, seed=6)
    clf = cw.Classifier.from_estimator(LogisticRegression(), X, y, cv=4)  # default "auto"
    assert capsys.readouterr().err == "" and len(clf.folds) == 4
    views = []
    classifiers_from_estimators(
        [LogisticRegression()],
        X,
        y,
        cv=4,
        progress=True,
        progress_view=lambda *args: views.append(args[:3]),
    )
    assert [v[0] for v in views] == [1, 2, 3, 4, None]
    assert views[0][2] == "LogisticRegression, fold 1 of 4"
    with pytest.raises(ValueError, match='progress must be "auto", True or False'):
        classifiers_from_estimators([LogisticRegression()], X, y, progress="yes")
