"""The compiled kernels keep their per-element helpers inline: the key of each element
(keys.pxi) and a column's fold of it.  A helper the compiler leaves out of line is called once
an element, and the loop around it does not vectorize.  Checked in each built variant's
symbol table, where an out-of-line copy of a helper is a local function of its name."""

import importlib.util
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from argmin import _api

KEYS = Path(__file__).resolve().parents[1] / "argmin" / "kernels" / "keys.pxi"

#: The kernel modules this build has, by variant.
MODULES = {name: spec.origin for name, module, _ in _api.VARIANTS
           if (spec := importlib.util.find_spec(f"argmin.{module}")) is not None}


def per_element_helpers():
    """The inline functions of keys.pxi, and the fold of one element into a column's best."""
    return re.findall(r"^cdef inline \w+ (\w+)\(", KEYS.read_text(), re.MULTILINE) + ["fold"]


def local_functions(path):
    """The names of the local functions in the symbol table of the shared object at path."""
    listing = subprocess.run(["nm", "--defined-only", path], capture_output=True, text=True,
                             check=True).stdout
    return [line.split()[2] for line in listing.splitlines()
            if len(line.split()) == 3 and line.split()[1] == "t"]


def test_the_helpers_are_found():
    assert {"load", "better", "key_min"} <= set(per_element_helpers())


@pytest.mark.skipif(shutil.which("nm") is None, reason="no nm to read the symbol tables")
@pytest.mark.parametrize("variant", sorted(MODULES))
def test_per_element_helpers_are_inline(variant):
    functions = local_functions(MODULES[variant])
    if not functions:
        pytest.skip("the module's symbol table is stripped")
    module = dict((name, module) for name, module, _ in _api.VARIANTS)[variant]
    # Cython's name of a function of the module, with GCC's suffixes (.constprop.0, .isra.0)
    # on a copy it specialised.
    helper = re.compile(rf"argmin_{len(module)}{module}_({'|'.join(per_element_helpers())})"
                        r"(\.|$)")
    assert [name for name in functions if helper.search(name)] == []
