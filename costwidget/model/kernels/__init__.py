"""Layer 0, array kernels: numpy/pandas on arrays; nothing here knows `Classifier`."""
