"""Sphinx configuration of costwidget's documentation site.

Build: ``python -m sphinx -W -b html docs docs/_build/html`` after ``pip install -e ".[docs]"``.
The site opens from disk with no network: the theme's fonts and scripts are bundled, no page
uses MathJax (formulas are written in Unicode), and the notebooks' widgets are the package's own
offline page in an ``<iframe>`` (``COSTWIDGET_NOTEBOOK_OUTPUT=page``), live with no kernel.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))  # the source tree's costwidget, as the tests import it
sys.path.insert(0, str(HERE / "_ext"))

import costwidget  # noqa: E402 - after the path is set

project = "costwidget"
author = "costwidget developers"
copyright = "2026, costwidget developers"
release = version = costwidget.__version__

extensions = [
    "myst_nb",  # MyST markdown pages, and the notebooks executed at build time
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
    "sphinx_copybutton",
    "escape_bars",  # docs/_ext: the bars of C(-|+) in docstrings
]

# ---------------------------------------------------------------- examples: the notebooks
# The notebooks live in notebooks/ (where the tests execute them); the site executes a copy of
# each. The widget's output is its interactive page (no kernel, no network), and the scale
# notebook runs at a size that builds in seconds (its 10^8-row figures are quoted on the page).
EXAMPLES = HERE / "examples"
NOTEBOOKS = [
    "tour",
    "threshold_choice",
    "new_data",
    "uncertainty",
    "thesis",
    "scale",
    "case_costs",
]
EXAMPLES.mkdir(exist_ok=True)
for name in NOTEBOOKS:
    shutil.copyfile(ROOT / "notebooks" / f"{name}.ipynb", EXAMPLES / f"{name}.ipynb")
os.environ["COSTWIDGET_NOTEBOOK_OUTPUT"] = "page"  # the kernels inherit the environment
os.environ.setdefault("COSTWIDGET_SCALE_ROWS", "200000")

# COSTWIDGET_DOCS_EXECUTE=0 skips running the notebooks (a quick build while writing pages).
nb_execution_mode = "force" if os.environ.get("COSTWIDGET_DOCS_EXECUTE", "1") != "0" else "off"
nb_execution_timeout = 600
nb_execution_raise_on_error = True  # a notebook that fails fails the build
nb_execution_show_tb = True
nb_ipywidgets_js = {}  # no widget manager from a CDN: the widget is its own offline page
# The live view needs a kernel; where a notebook shows a plain ipywidget (the thesis view), its
# text stands in. The CostWidget's output has no live view at all in this build.
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None)]
nb_merge_streams = True

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# ---------------------------------------------------------------- API reference
templates_path = ["_templates"]
autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"members": True, "inherited-members": False}
autodoc_typehints = "none"  # numpydoc's Parameters say the types
numpydoc_show_class_members = False  # autodoc lists the members; no second table of stubs
numpydoc_class_members_toctree = False
numpydoc_validation_checks: set[str] = set()

# ---------------------------------------------------------------- HTML
html_theme = "pydata_sphinx_theme"
html_title = f"costwidget {release}"
html_static_path = ["_static"]
html_css_files = ["costwidget.css"]
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "header_links_before_dropdown": 6,
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
    "secondary_sidebar_items": ["page-toc"],
}
# The colour scheme follows the reader's (left empty, the theme logs an error on every page).
html_context = {"default_mode": "auto"}
html_sidebars = {"index": [], "getting_started": [], "changelog": []}
html_show_sourcelink = False
# Search results without page summaries: the summary fetch()es each result page, which a page
# opened from disk may not do (CORS on file:), and every search then logs errors.
html_show_search_summary = False
html_copy_source = False

exclude_patterns = ["_build", "first_screen", "**.ipynb_checkpoints"]
suppress_warnings = ["mystnb.unknown_mime_type"]
