"""The docs that describe the code stay true where a machine can tell (seconds, no app, no browser).

- docs/ARCHITECTURE.md's layer diagram is import-linter's layers contract (pyproject.toml), row for row in
  its order: a package added to the contract, or a layer moved, must be described there too.
- Every repository path the architecture page names in `code` exists (`<app>` stands for each clone, `*`
  must match something), and every relative link in it, in the README and in docs/ leads to a file.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"
FENCE = re.compile(r"^```.*?^```[ \t]*$", re.M | re.S)
# A path ends in a file suffix or a slash, or starts at a folder of the repository; `uigym/<app>-v0` (an id)
# and `/worlds/<id>/reset` (a route) are neither.
SUFFIX = re.compile(r"(\.(py|md|json|toml|txt|yaml|sh|jinja|png)|/)$")


def layer_contract(pyproject: Path) -> list[str]:
    """The top-level layers contract's layers, top first ("apps | grading" for independent siblings)."""
    contracts = tomllib.loads(pyproject.read_text())["tool"]["importlinter"]["contracts"]
    [layers] = [c["layers"] for c in contracts if c["type"] == "layers" and "containers" not in c]
    return [" | ".join(p.strip() for p in row.split("|")) for row in layers]


def diagram_rows(md: str) -> list[str]:
    """The first fenced block's rows: each unindented line's name column (up to two spaces)."""
    block = FENCE.search(md)
    assert block, "no fenced layer diagram"
    rows = [re.split(r"\s{2,}", line, maxsplit=1)[0] for line in block.group(0).splitlines()[1:-1]
            if line.strip() and not line[0].isspace()]
    return [" | ".join(p.strip() for p in row.split("|")) for row in rows]


def clones(root: Path) -> list[str]:
    return sorted(d.name for d in (root / "apps").iterdir() if (d / "__init__.py").is_file() and d.name[0] != "_")


def missing_paths(md: str, root: Path) -> list[str]:
    """Paths named in `code` outside fenced blocks that match nothing under `root`."""
    top = {p.name for p in root.iterdir()}
    missing = []
    for span in re.findall(r"`([^`\s]+)`", FENCE.sub("", md)):
        if "/" not in span or span.startswith(("/", ".", "http")) or not re.match(r"[\w<]", span):
            continue
        if not (SUFFIX.search(span) or span.split("/")[0] in top):
            continue
        for path in [span.replace("<app>", app) for app in clones(root)] if "<app>" in span else [span]:
            if re.search(r"[<>{}]", path):
                continue
            if not (any(root.glob(path.rstrip("/"))) if "*" in path else (root / path).exists()):
                missing.append(path)
    return missing


def broken_links(md_file: Path, root: Path = ROOT) -> list[str]:
    """Relative markdown links and images in a file whose target file does not exist."""
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", FENCE.sub("", md_file.read_text())):
        parts = urlsplit(target)
        if parts.scheme or parts.netloc or not parts.path:
            continue
        if not (md_file.parent / unquote(parts.path)).exists():
            broken.append(f"{md_file.relative_to(root)}: {target}")
    return broken


def test_the_layer_diagram_is_the_import_contract_in_its_order():
    assert diagram_rows(ARCHITECTURE.read_text()) == layer_contract(ROOT / "pyproject.toml")


def test_every_path_the_architecture_names_exists():
    assert missing_paths(ARCHITECTURE.read_text(), ROOT) == []


@pytest.mark.parametrize("doc", [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_lead_to_files(doc: Path):
    assert broken_links(doc) == []


def test_the_checks_catch_what_they_look_for(tmp_path: Path):
    """A layer left out of the diagram, a path that is not there, a clone without the file, a broken link."""
    (tmp_path / "pyproject.toml").write_text(
        '[[tool.importlinter.contracts]]\ntype = "layers"\nlayers = ["top", "mid|side", "low"]\n'
        '[[tool.importlinter.contracts]]\ntype = "layers"\ncontainers = ["x"]\nlayers = ["a", "b"]\n')
    assert layer_contract(tmp_path / "pyproject.toml") == ["top", "mid | side", "low"]
    assert diagram_rows("```\ntop     the top\n        more of it\nmid | side  two\n```\n") == ["top", "mid | side"]
    for app, files in (("one", ["views.py"]), ("two", []), ("_shared", [])):
        (tmp_path / "apps" / app).mkdir(parents=True)
        for f in ["__init__.py", *files]:
            (tmp_path / "apps" / app / f).write_text("")
    md = ("`apps/_shared/` `apps/<app>/views.py` `apps/<app>/*.py` `gone/x.py` `apps/nope/` `uigym/<app>-v0` "
          "`/worlds/<id>/reset` `a/b` `X-Gym-Token`\n```\n`fenced/not.py`\n```\n")
    assert missing_paths(md, tmp_path) == ["apps/two/views.py", "gone/x.py", "apps/nope/"]
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "here.md").write_text("")
    page = tmp_path / "docs" / "page.md"
    page.write_text("[ok](here.md#part) [up](../pyproject.toml) [anchor](#x) [web](https://example.com) "
                    "![img](nowhere.png)\n```\n[fenced](gone.md)\n```\n")
    assert broken_links(page, tmp_path) == ["docs/page.md: nowhere.png"]
