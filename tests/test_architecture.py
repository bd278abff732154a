"""The architecture holds (docs/ARCHITECTURE.md): the layer order, no import circles, no private names
imported across packages.

- Layers: domain <- seed_data <- apps | grading <- tasks <- gym_core <- agent_harness <- bench | experiments; a package
  imports only packages below it (import-linter's layers contract, configured in pyproject.toml). Inside
  each clone, the pages (`views`) and the tool surface (`tools`) sit over `services`, which sit over `models`:
  a service never reaches up into a view (a second layers contract).
- Circles: no module imports, directly or through others, a module that imports it back (grimp's graph,
  every import counted, type-checking and function-level ones included; networkx finds the strongly
  connected components).
- Private names: `from x.y import _name` only from inside the package that owns `x.y`.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp
import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[1]
# The project's top-level packages: the import-linter contract's root packages, so a new one is checked here too.
PACKAGES = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["root_packages"]


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    sys.path.insert(0, str(ROOT))
    return grimp.build_graph(*PACKAGES, include_external_packages=False, cache_dir=None)


def cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    g = nx.DiGraph()
    for m in graph.modules:
        g.add_node(m)
        for imported in graph.find_modules_directly_imported_by(m):
            g.add_edge(m, imported)
    return sorted(sorted(c) for c in nx.strongly_connected_components(g) if len(c) > 1)


def private_imports(root: Path, packages: list[str]) -> list[str]:
    """`from a.b import _x` (or `import a._b`) where the importer is not inside the package owning the name."""
    found = []
    for pkg in packages:
        for f in sorted((root / pkg).rglob("*.py")):
            rel = f.relative_to(root).with_suffix("")
            module = ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)
            package = module if rel.name == "__init__" else module.rpartition(".")[0]
            for node in ast.walk(ast.parse(f.read_text(), str(f))):
                if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [f"{node.module}.{a.name}" for a in node.names]
                elif isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                else:
                    continue
                for full in names:
                    parts = full.split(".")
                    if parts[0] not in packages:
                        continue
                    private = [i for i, p in enumerate(parts) if p.startswith("_") and not p.startswith("__")]
                    if not private:
                        continue
                    owner = ".".join(parts[:private[0]])
                    owner_pkg = owner if (root / Path(*owner.split("."))).is_dir() else owner.rpartition(".")[0]
                    if not (package == owner_pkg or package.startswith(owner_pkg + ".")):
                        found.append(f"{f.relative_to(root)}:{node.lineno}: {module} imports {full}")
    return found


LINT = ("import sys; from importlinter import configuration; configuration.configure(); "
        "from importlinter.application.use_cases import lint_imports; "
        "sys.exit(0 if lint_imports(config_filename='pyproject.toml', cache_dir=None, no_logo=True) else 1)")


def test_layers_hold():
    """import-linter's layers contract over the tree (pyproject.toml's [tool.importlinter])."""
    out = subprocess.run([sys.executable, "-c", LINT], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and "2 kept, 0 broken" in out.stdout, out.stdout[-4000:] + out.stderr[-2000:]


def test_no_import_circles(graph):
    found = cycles(graph)
    assert not found, "import circles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_no_private_names_across_packages():
    found = private_imports(ROOT, PACKAGES)
    assert not found, "\n".join(found)


def test_the_checks_catch_what_they_look_for(tmp_path):
    """The checks themselves: a planted circle and a planted private import are found."""
    pkg = tmp_path / "planted"
    (pkg / "inner").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from planted import b\n")
    (pkg / "b.py").write_text("from planted import a\n")
    (pkg / "inner" / "__init__.py").write_text("")
    (pkg / "inner" / "c.py").write_text("def _hidden(): pass\n")
    (pkg / "d.py").write_text("from planted.inner.c import _hidden\n")
    sys.path.insert(0, str(tmp_path))
    try:
        g = grimp.build_graph("planted", include_external_packages=False, cache_dir=None)
    finally:
        sys.path.remove(str(tmp_path))
    assert cycles(g) == [["planted.a", "planted.b"]]
    assert [line.split(": ", 1)[1] for line in private_imports(tmp_path, ["planted"])] == [
        "planted.d imports planted.inner.c._hidden"]
