"""Test modules of this folder that other test files import, found by their file, not by
``sys.path``.

tests/reference_engine/machine holds a test_plans.py and a test_deferred.py too, and some test
files put that folder first on ``sys.path`` (test_program_sharing.py, machine's
test_lawcache.py), so a bare ``from test_plans import ...`` found this folder's module or the
machine's depending on the order the files were collected in (an ImportError in
test_stepcost_attacks.py run before test_program_sharing.py, or this folder in reverse order).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent


def sibling(name: str) -> ModuleType:
    """The test module ``name`` of this folder: the one already imported by name where it is
    this folder's, else loaded from its file once (kept under a name of its own, so that a
    module of the same name from another folder is never taken for it nor replaced)."""
    path = HERE / f"{name}.py"
    mod = sys.modules.get(name)
    if mod is not None and mod.__file__ is not None and Path(mod.__file__).resolve() == path:
        return mod
    key = f"compiled_tests_{name}"
    mod = sys.modules.get(key)
    if mod is None:
        spec = importlib.util.spec_from_file_location(key, path)
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        sys.modules[key] = mod
        try:
            spec.loader.exec_module(mod)
        except BaseException:
            del sys.modules[key]
            raise
    return mod
