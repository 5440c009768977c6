"""The project's scripts outside the package (examples/make.py, benchmarks/*.py) as modules
the tests can call into."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_script(relative: str) -> ModuleType:
    """The script at `relative` (to the repository's root), imported once under a name of
    its own (registered, since dataclasses look their module up while it runs)."""
    name = "script_" + relative.removesuffix(".py").replace("/", "_")
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / relative)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
