"""The worker threads every `CostWidget` shares: one small process-wide pool, created on demand,
and where threads exist at all. `background.BackgroundWork` runs each widget's jobs on it."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

__all__ = ["MAX_WORKERS", "shared_pool", "threads_available", "running_loop"]


#: Worker threads shared by every widget of the process (created on demand, never more).
MAX_WORKERS = max(1, min(4, os.cpu_count() or 1))

_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


def shared_pool() -> ThreadPoolExecutor:
    """The process-wide pool every widget's background work runs on."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(
                max_workers=MAX_WORKERS, thread_name_prefix="costwidget-worker"
            )
        return _POOL


def threads_available() -> bool:
    """False where Python has no threads (Pyodide/JupyterLite)."""
    return sys.platform not in ("emscripten", "wasi")


def running_loop():
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
