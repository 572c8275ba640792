"""Programs run by a fresh Python: for what one process cannot undo (environment variables read
at import, a fork, a crash), and for what a user runs from the command line."""

import os
import subprocess
import sys
import tempfile


def run_python(*args, cwd=None, env=None, timeout=120, unset=()):
    """``python ARGS...`` with this test's interpreter, its output captured as text.

    It runs in ``cwd`` (default: the temporary directory, away from the source checkout,
    whose ``argmin/`` holds no compiled kernels), with ``env`` (default: this process's
    environment) less the variables named in ``unset``.
    """
    env = dict(os.environ if env is None else env)
    for name in unset:
        env.pop(name, None)
    return subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True,
                          env=env, timeout=timeout, cwd=cwd or tempfile.gettempdir())


def run_code(code, *args, **kwargs):
    """`run_python` of ``-c code ARGS...``."""
    return run_python("-c", code, *args, **kwargs)
