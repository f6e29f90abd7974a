"""Regenerate ``costwidget/data/demo_scores.csv``: cross-validated scores of a few models.

Run once (needs scikit-learn): ``python benchmarks/make_demo_scores.py``. The file is shipped so
that the demo needs no training. Seeds are fixed; the output is deterministic for a given
scikit-learn version.
"""

from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.ensemble import GradientBoostingClassifier, RandomForestClassifier
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from costwidget.datasets import DATASETS, load_dataset

MODELS = {
    "logistic regression": lambda: make_pipeline(
        SimpleImputer(), StandardScaler(), LogisticRegression(max_iter=2000)
    ),
    "random forest": lambda: make_pipeline(
        SimpleImputer(), RandomForestClassifier(n_estimators=300, random_state=0)
    ),
    "gradient boosting": lambda: make_pipeline(
        SimpleImputer(), GradientBoostingClassifier(random_state=0)
    ),
    "naive Bayes": lambda: make_pipeline(SimpleImputer(), GaussianNB()),
}


def main() -> None:
    rows = []
    for dataset in DATASETS:
        X, y = load_dataset(dataset)
        positive = DATASETS[dataset][2]
        folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
        fold_of = np.empty(len(y), dtype=int)
        for k, (_, test) in enumerate(folds.split(X, y)):
            fold_of[test] = k
        for name, make in MODELS.items():
            score = np.empty(len(y))
            for k in range(5):
                train, test = fold_of != k, fold_of == k
                model = make().fit(X[train], y[train])
                col = list(model.classes_).index(positive)
                score[test] = model.predict_proba(X[test])[:, col]
            rows.append(
                pd.DataFrame(
                    {
                        "dataset": dataset,
                        "row": np.arange(len(y)),
                        "fold": fold_of,
                        "label": y.to_numpy(),
                        "model": name,
                        "score": np.round(score, 6),
                    }
                )
            )
    out = Path(__file__).resolve().parents[1] / "costwidget" / "data" / "demo_scores.csv"
    pd.concat(rows).to_csv(out, index=False)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
