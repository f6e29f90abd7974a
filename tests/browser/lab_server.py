"""A JupyterLab server for the browser tests and the browser benchmark, and a notebook runner.

Starts ``jupyter lab`` on a free port with a fresh token, its own runtime, config and workspace
folders under ``root``, and opens a notebook in Debian's chromium (never a downloaded browser).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running_lab(root: Path):
    """Yield ``(url, token)`` of a JupyterLab serving ``root``; stop it afterwards."""
    root = Path(root)
    port, token = free_port(), secrets.token_hex(16)
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(root / ".runtime"),
               JUPYTER_CONFIG_DIR=str(root / ".config"), JUPYTERLAB_WORKSPACES_DIR=str(root / ".ws"))
    cmd = [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ip=127.0.0.1",
           f"--port={port}", f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
           "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
           f"--LabApp.workspaces_dir={root / '.ws'}", "--LabApp.extension_manager=readonly"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # CI containers run as root
        cmd.append("--allow-root")
    with open(root / "lab.log", "w") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=root)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.time() + 120
            while time.time() < deadline:
                try:
                    urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2)
                    break
                except OSError:
                    if proc.poll() is not None:
                        break
                    time.sleep(0.5)
            else:
                raise RuntimeError("JupyterLab did not start in 120 s: "
                                   + (root / "lab.log").read_text()[-2000:])
            if proc.poll() is not None:
                raise RuntimeError("JupyterLab exited: " + (root / "lab.log").read_text()[-2000:])
            yield url, token
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()


def run_all_cells(page, sync_api, url, token, notebook: str) -> None:
    """Open ``notebook`` in JupyterLab, run all cells once the kernel is idle, wait for all."""
    page.goto(f"{url}/lab/tree/{notebook}?token={token}&reset")
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=120_000)
    # Run All only once the kernel is idle; retry if the request got lost while it started.
    page.get_by_text("| Idle").first.wait_for(timeout=120_000)
    for _attempt in range(3):
        page.locator(".jp-Notebook").first.click()
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
        try:
            page.wait_for_function(
                "() => Array.from(document.querySelectorAll('.jp-CodeCell .jp-InputPrompt'))"
                ".some(e => /\\[(\\*|\\d+)\\]/.test(e.textContent))", timeout=20_000)
            break
        except sync_api.TimeoutError:
            continue
    page.wait_for_function(
        "() => Array.from(document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')).every("
        "e => /\\[\\d+\\]/.test(e.textContent))", timeout=300_000)
