"""The wheel ships the built page runtime (users never need node), and nothing from js/."""

from __future__ import annotations

import hashlib
import pathlib
import subprocess
import sys
import zipfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
STATIC = [
    "costwidget/static/embed-runtime.js",
    "costwidget/static/embed-runtime.json",
    "costwidget/static/THIRD-PARTY-NOTICES.txt",
    "costwidget/static/operating-point.js",
    "costwidget/static/page-bind.js",
    "costwidget/static/live-link.js",
]


def test_wheel_contains_the_runtime(tmp_path):
    # No build isolation: hatchling and hatch-jupyter-builder come from the test extra, so the
    # test needs no network. The build hook rebuilds the runtime only if js/ is newer than it.
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            str(ROOT),
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(tmp_path),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    (wheel,) = tmp_path.glob("costwidget-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        assert set(STATIC) <= names
        assert not any(n.startswith("js/") or "node_modules" in n for n in names)
        built = z.read("costwidget/static/embed-runtime.js")
        manifest = z.read("costwidget/static/embed-runtime.json").decode()
    assert hashlib.sha256(built).hexdigest() in manifest
    assert built == (ROOT / STATIC[0]).read_bytes()
    assert {
        "costwidget/display.py",
        "costwidget/export/page.py",
        "costwidget/widget/export.py",
    } <= names
