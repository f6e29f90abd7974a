"""The classifier colours, shared by the widget and the static figures.

Okabe & Ito's colour-blind-safe set (without its yellow, too faint on white, and its black,
which the operating line uses), plus one purple: every pair stays distinguishable under
protanopia, deuteranopia and tritanopia (simulated CIE ΔE >= 16).
"""

PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#AA3377"]
