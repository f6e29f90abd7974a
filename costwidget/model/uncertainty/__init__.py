"""Layer 3, how sure the curves are: bootstrap and exact bands, paired difference bands,
fold averages and spreads."""
