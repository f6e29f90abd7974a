"""The widget's state and its machinery: traitlets state, transaction, shared context,
background work, lifecycle, errors."""
