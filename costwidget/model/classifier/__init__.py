"""Layer 5, the `Classifier` class (fields, identity, the measures it delegates to layers
3-4), its constructors, and the functions that build classifiers."""
