"""The optional packages of argmin's integrations, imported with an error that names the extra."""

import importlib


def require(module, needed_by, what, install):
    """``importlib.import_module(module)``.

    Raises
    ------
    ModuleNotFoundError
        Where a package is missing: that ``needed_by`` needs ``what``, which package is
        missing, and the ``install`` command.
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        raise ModuleNotFoundError(f"{needed_by} needs {what} ({error.name} is missing): {install}",
                                  name=error.name) from None


def public_dir(names):
    """A module's ``__dir__`` that lists only ``names`` (its API), not the modules it imports."""
    return lambda: list(names)
