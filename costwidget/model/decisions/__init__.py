"""Layer 3, choosing the operating point and the rule to deploy: readout rows and
headline, constraints, expected cost, threshold choice, decision curves."""
