"""What the free functions (layers 3-4) know of a classifier without importing the class.

``Classifier`` (:mod:`.classifier`) derives from :class:`ClassifierFields`, so a free function
can check its argument with :func:`check_classifier` and read the public fields (``counts``,
``sample``, ``folds``, ``score_counts``, ``hull_index``, ``envelope_curve``,
``envelope_error_bound``, ``band_cache``) while imports run one way only: the class's methods
import the free functions, never the reverse.
"""

from __future__ import annotations


class ClassifierFields:
    """Base class of :class:`~costwidget.Classifier`: a marker free functions check against."""

    __slots__ = ()


def is_classifier(obj) -> bool:
    """True for a :class:`~costwidget.Classifier`."""
    return isinstance(obj, ClassifierFields)


def check_classifier(obj, name: str):
    """Refuse anything but a :class:`Classifier`, saying how to build one."""
    if not is_classifier(obj):
        raise TypeError(
            f"{name} must be a Classifier, got {type(obj).__name__} {obj!r:.60}. Build one with "
            f"Classifier.from_scores(y_true, y_score), from_frame, from_roc or from_confusion."
        )
    return obj


def as_named(classifiers, where: str) -> dict:
    """``{name: classifier}`` from one classifier, a list (named by ``.name``) or a dict."""
    if is_classifier(classifiers):
        classifiers = [classifiers]
    if isinstance(classifiers, dict):
        items = [(str(k), v) for k, v in classifiers.items()]
    else:
        try:
            seq = list(classifiers)
        except TypeError:
            raise TypeError(
                f"classifiers must be a Classifier, a list of them or a dict "
                f"{{name: Classifier}}, got {type(classifiers).__name__}."
            ) from None
        items = [
            (c.name if getattr(c, "name", None) is not None else f"classifier {i}", c)
            for i, c in enumerate(seq)
        ]
    if not items:
        raise ValueError(f"{where} needs at least one classifier.")
    for name, clf in items:
        if not is_classifier(clf):
            raise TypeError(
                f"{name!r} is a {type(clf).__name__}, not a costwidget Classifier; "
                f"build one with Classifier.from_scores(...)."
            )
    names = [n for n, _ in items]
    if len(set(names)) != len(names):
        raise ValueError(
            f"classifier names must be distinct, got {names}; pass a dict "
            f"{{name: classifier}} to name them."
        )
    return dict(items)
