import os
import sys

from hypothesis import HealthCheck, settings

sys.path.insert(0, os.path.dirname(__file__))  # so tests can `import brute`

# Modest example counts: the whole model suite should run in well under a minute.
settings.register_profile(
    "costwidget",
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("ci-long", max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "costwidget"))

# Both conftest.py files (here and in browser/) are plugins, not test modules: with
# --doctest-modules pytest would also import each as a module named "conftest" and stop on
# the clash ("import file mismatch").
collect_ignore = ["conftest.py", "browser/conftest.py"]
