"""Two packages are called `verifiers`: uigym's graders (verifiers/ in the uigym repo: engine, spec, ...)
and the `verifiers` library from PyPI (its whole stack under `verifiers.v1`). Their submodules do not
overlap, so this module makes one `verifiers` package that holds both, whichever of the two Python found
first on sys.path:

- uigym's first (run from the uigym checkout, or PYTHONPATH): PyPI's directory is added to its __path__,
  so `verifiers.v1` imports, and `verifiers.__version__` (which the library reads) is set.
- PyPI's first (a console script such as `vf-eval`, uigym installed editable): uigym's directory is added
  to its __path__ and uigym's root names (`verify`, `VerifySpec`, ...) are executed into it, so
  `from verifiers.engine import ...` in gym_core and tasks keeps working.

It must run before anything imports `verifiers.v1` or uigym's graders (uigym_env/__init__ runs it first).
A non-editable install of both puts two __init__.py files in one site-packages/verifiers: that breaks
whichever lost, and this cannot repair it (the README says to install uigym editable, or in its own venv).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
from pathlib import Path

UIGYM_MARK = "verify"  # a name uigym's verifiers/__init__ exports and the library's root does not


def _uigym_dir() -> Path:
    spec = importlib.util.find_spec("gym_core")
    if spec is None or not spec.origin:
        raise ImportError("uigym is not installed: gym_core is not importable (pip install -e <uigym checkout>)")
    d = Path(spec.origin).resolve().parent.parent / "verifiers"
    if not (d / "engine.py").is_file():
        raise ImportError(f"uigym's graders are not at {d} (expected verifiers/engine.py next to gym_core)")
    return d


def _library_dir() -> Path:
    try:
        dist = importlib.metadata.distribution("verifiers")
    except importlib.metadata.PackageNotFoundError:
        raise ImportError("the `verifiers` library is not installed: pip install 'verifiers==0.4.0'") from None
    d = Path(str(dist.locate_file("verifiers"))).resolve()
    if not (d / "v1" / "__init__.py").is_file():
        raise ImportError(f"`verifiers` {dist.version} at {d} has no v1 package; uigym_env needs verifiers 0.4.0")
    return d


def graft() -> None:
    """Make `verifiers` hold both packages (idempotent)."""
    import verifiers as root

    uigym_dir, lib_dir = str(_uigym_dir()), str(_library_dir())
    paths = [str(Path(p).resolve()) for p in root.__path__]
    for d in (uigym_dir, lib_dir):
        if d not in paths:
            root.__path__.append(d)
    if not hasattr(root, "__version__"):
        root.__version__ = importlib.metadata.version("verifiers")
    if not hasattr(root, UIGYM_MARK):
        # The library's root won: run uigym's __init__ in it (its relative imports find the added directory).
        source = Path(uigym_dir, "__init__.py")
        code = compile(source.read_text(), str(source), "exec")
        exec(code, root.__dict__)  # noqa: S102 - uigym's own package __init__, nothing foreign
