"""What layer-2 functions know of a classifier without importing the class.

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
            f"Classifier.from_scores(y_true, y_score), from_frame, from_roc or from_confusion.")
    return obj
