"""The compiled kernels keep their per-element helpers inline: the key of each element and what
it is built from (keys.pxi), the comparison of two keys, and a column's fold of one key.  A
helper the compiler leaves out of line is called once an element, and the loop around it does
not vectorize.  Checked in each built variant's symbol table, where an out-of-line copy of a
helper is a local function of its name, in the optimized GCC build that `pip install .` makes
(argmin/meson.build gives GCC the room to inline them all)."""

import importlib.util
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from argmin import _api

#: The helpers called once an element (keys.pxi, and columns.pxi's fold and column_key).
PER_ELEMENT = ("key_min", "floating", "maximizing", "nan_key", "direction", "key_flip", "load",
               "better", "unflipped_better", "fold", "column_key")

#: The kernel modules this build has, by variant.
MODULES = {name: (module, spec.origin) for name, module, _ in _api.VARIANTS
           if (spec := importlib.util.find_spec(f"argmin.{module}")) is not None}


def local_functions(path):
    """The names of the local functions in the symbol table of the shared object at path."""
    listing = subprocess.run(["nm", "--defined-only", path], capture_output=True, text=True)
    if listing.returncode != 0:
        pytest.skip(f"nm cannot read {path}: {listing.stderr.strip()}")
    return [line.split()[2] for line in listing.stdout.splitlines()
            if len(line.split()) == 3 and line.split()[1] == "t"]


@pytest.mark.skipif(shutil.which("nm") is None, reason="no nm to read the symbol tables")
@pytest.mark.skipif(_api.kernels.address_sanitized(),
                    reason="the sanitizers' checks change what the compiler inlines")
@pytest.mark.parametrize("variant", sorted(MODULES))
def test_per_element_helpers_are_inline(variant):
    module, path = MODULES[variant]
    if b"clang version" in Path(path).read_bytes():
        pytest.skip("built by clang, which argmin/meson.build does not tune")
    functions = local_functions(path)
    if not functions:
        pytest.skip("the module's symbol table is stripped")
    # Cython's name of a function of the module (argmin_<length><module>_<name>), with GCC's
    # suffixes (.constprop.0, .isra.0) on a copy it specialised.
    prefix = f"argmin_{len(module)}{module}_"
    assert any(prefix in name for name in functions), "no function has Cython's name for it"
    helper = re.compile(re.escape(prefix) + f"({'|'.join(PER_ELEMENT)})" + r"(\.|$)")
    assert [name for name in functions if helper.search(name)] == []
