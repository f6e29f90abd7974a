"""Layer 1, the stratified bootstrap on arrays: resampled counts and envelopes, exact
percentiles, the replicate cache."""
