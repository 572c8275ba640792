"""Sphinx configuration of the argmin documentation.

Build with ``sphinx-build -W -b html docs docs/_build/html`` (``pip install --group docs``
installs what it needs).  The notebooks in ``notebooks/`` (reached
through the ``docs/notebooks`` link) are rendered with the outputs they were
committed with; they are not run here.
"""

import importlib
import importlib.util

import argmin

project = "argmin"
author = "the argmin developers"
copyright = f"2026, {author}"
release = argmin.__version__
version = release

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "numpydoc",
]

exclude_patterns = ["_build", "**.ipynb_checkpoints", "Thumbs.db", ".DS_Store"]

# Notebooks: render the committed outputs, never execute.
nb_execution_mode = "off"
nb_render_markdown_format = "myst"  # tables printed by the notebooks as Markdown
nb_merge_streams = True
myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 3

# API reference from the numpydoc docstrings.
default_role = "py:obj"
autodoc_member_order = "bysource"
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False

html_theme = "pydata_sphinx_theme"
html_title = f"argmin {release}"
html_theme_options = {
    "navigation_with_keys": False,
    "header_links_before_dropdown": 6,
    "show_toc_level": 2,
    "footer_start": ["copyright"],
    "footer_end": [],
}
html_sidebars = {"**": []}
html_static_path = ["_static"]
html_css_files = ["custom.css"]
html_show_sourcelink = False

# Modules with a page of their own in the API reference only when they are
# part of the package: api/<name>.md documents argmin.<name>.
OPTIONAL_MODULES = ["onnx", "dask"]
_missing = []     # not part of the package: their pages are left out
_unusable = {}    # part of the package but not importable here: an error
for _name in OPTIONAL_MODULES:
    if importlib.util.find_spec(f"argmin.{_name}") is None:
        _missing.append(_name)
        exclude_patterns.append(f"api/{_name}.md")
        continue
    try:
        importlib.import_module(f"argmin.{_name}")
    except ImportError as _error:
        _unusable[_name] = _error
API_MODULES = [name for name in OPTIONAL_MODULES if name not in _missing]

_TOCTREE_END = "opsets\n```"


def _add_optional_pages(app, docname, source):
    """List the optional modules' pages in the API toctree, after ``opsets``."""
    if docname != "api/index":
        return
    if _TOCTREE_END not in source[0]:
        raise RuntimeError(f"docs/api/index.md: its toctree must end with {_TOCTREE_END!r}")
    entries = "".join(f"{name}\n" for name in API_MODULES)
    source[0] = source[0].replace(_TOCTREE_END, f"opsets\n{entries}```")


def _report_unusable(app):
    from sphinx.util import logging

    logger = logging.getLogger(__name__)
    for name, error in _unusable.items():
        logger.warning(
            "argmin.%s cannot be imported (%s): install the docs dependency group, "
            "pip install --group docs", name, error,
        )


def setup(app):
    app.connect("source-read", _add_optional_pages)
    app.connect("builder-inited", _report_unusable)
    return {"parallel_read_safe": True}
