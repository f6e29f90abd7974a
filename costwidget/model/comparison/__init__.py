"""Layer 4, comparing classifiers: crossovers and the combined envelope, parameter
selection, the thesis's range measures, ROC summaries."""
