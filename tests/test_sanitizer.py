"""The sanitizer build (`bash .ci/sanitize`, CONTRIBUTING.md) reports a read past the input's
buffer, on every compiled variant: it checks what it says.  Skipped in other builds."""

import os

import numpy as np
import pytest

import argmin
from argmin import _api

from .fresh import run_code

pytestmark = [
    pytest.mark.sanitizer,
    pytest.mark.skipif(not _api.kernels.address_sanitized(),
                       reason="needs the sanitizer build: bash .ci/sanitize"),
]

# Views of a 4096-element buffer: (shape, strides in elements, axis).  Each reaches its
# buffer's last element; `beyond` adds one step along the reduced axis, so that the last row,
# or every column, reads one element past the end.
VIEWS = {
    "row": ((4096,), (1,), 0),
    "rows": ((64, 64), (64, 1), 1),
    "columns": ((64, 64), (64, 1), 0),
    "strided": ((1024,), (4,), 0),
}
# Checks the view's result against numpy's, then exits 0; argmin reads first, so a read past
# the buffer is reported before numpy (not built with the sanitizers) reads there too.  No
# element is its type's least value, where ArgMin may stop reading a row.
PROGRAM = """
import ast
import sys
import numpy as np
from numpy.lib.stride_tricks import as_strided
import argmin

dtype = np.dtype(sys.argv[1])
shape, steps, axis = ast.literal_eval(sys.argv[2])
x = (1 + np.arange(4096) * 7919 % 251).astype(dtype)
view = as_strided(x, shape=shape, strides=[s * dtype.itemsize for s in steps])
found = argmin.argmin(view, axis=axis)
assert (found == np.argmin(view, axis=axis, keepdims=True)).all()
"""


def beyond(shape, axis):
    """``shape`` one element longer along ``axis``."""
    return tuple(n + (d == axis) for d, n in enumerate(shape))


def run(variant, dtype, shape, steps, axis, cwd):
    return run_code(PROGRAM, dtype, repr((shape, steps, axis)), cwd=cwd,
                    env=dict(os.environ, ARGMIN_KERNELS=variant))


@pytest.mark.parametrize("variant", argmin.kernel_variants())
@pytest.mark.parametrize("dtype", ["uint8", "float32", "int64"])
@pytest.mark.parametrize("view", sorted(VIEWS))
def test_a_read_past_the_buffer_is_reported(variant, dtype, view, tmp_path):
    shape, steps, axis = VIEWS[view]
    inside = run(variant, dtype, shape, steps, axis, tmp_path)
    assert inside.returncode == 0, inside.stderr[-2000:]
    past = run(variant, dtype, beyond(shape, axis), steps, axis, tmp_path)
    assert past.returncode != 0, past.stderr[-2000:]
    # A vector load that starts inside the buffer is an "unknown-crash" to ASan, one that
    # starts past it a "heap-buffer-overflow"; both say where it fell.
    report = past.stderr
    assert "ERROR: AddressSanitizer: " in report and "READ of size" in report, report[-2000:]
    region = f"bytes to the right of {4096 * np.dtype(dtype).itemsize}-byte region"
    assert region in report, report[-2000:]
