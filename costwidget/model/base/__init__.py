"""Layer 2, what a free function knows of a classifier: its public fields
(`ClassifierFields`, `check_classifier`) and the frozen result types its queries return."""
