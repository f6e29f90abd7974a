"""Static exports that need no widget.

* ``matplotlib_panes``: ROC space and cost space drawn with matplotlib, with the widget's marks,
  colours and labels (used by :class:`costwidget.CostCurveDisplay` and ``CostWidget.to_figure``);
* ``display_constructors``, ``curve_styles``: ``CostCurveDisplay``'s constructors and its line
  styles and legend labels, by scikit-learn's rules;
* ``snapshot_format``: the versioned, JSON-only record of an analysis, and classifier fingerprints;
* ``page``: the standalone HTML page (offline runtime, bqplot's bundles, escaping).

Nothing here imports ipywidgets or bqplot; matplotlib is imported only when a figure is drawn.
"""
