"""The page scripts' translation function `t()` (apps/_shared/i18n.py hands each German page its catalog) is never
called where a local binding named `t` hides it: found by `uigym qa --variant german` on the CRM, where the record
page's click handler named its event target `t`, so `t("Follow")` called the element and threw (in English too): the
Follow, Favorites, Expand All and key-fields buttons did nothing. A scan of every page script's blocks: for each
`const|let|var t =` (or a parameter `t`), no `t(` after it in the block that declares it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPTS = sorted(p for p in (REPO / "apps").glob("**/static/**/*.js") if "function t(" in p.read_text())
_STRINGS = re.compile(r"""//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`""", re.S)
_BINDING = re.compile(r"\b(?:const|let|var)\s+t\s*=|\(\s*t\s*(?:,[^)]*)?\)\s*=>|\bfunction\s*\w*\s*\(\s*t\s*[,)]")
_CALL = re.compile(r"(?<![\w.$])t\s*\(")


def _blank(src: str) -> str:
    """The script with its comments and string contents blanked (same offsets): braces and `t(` in them are not code."""
    return _STRINGS.sub(lambda m: m.group(0)[0] + " " * (len(m.group(0)) - 2) + m.group(0)[-1]
                        if m.group(0)[0] in "\"'`" else " " * len(m.group(0)), src)


def shadowed_calls(src: str) -> list[int]:
    """Line numbers of `t(` calls inside a block where a binding named `t` hides the translation function."""
    code = _blank(src)
    out = []
    for m in _BINDING.finditer(code):
        # the block the binding belongs to: from the nearest unclosed "{" before it (or, for a parameter, the body
        # after it) to its matching "}"
        if m.group(0).lstrip().startswith(("const", "let", "var")):
            depth, i = 0, m.start()
            while i > 0:
                i -= 1
                if code[i] == "}":
                    depth += 1
                elif code[i] == "{":
                    if depth == 0:
                        break
                    depth -= 1
            start = m.end()
        else:
            i = code.find("{", m.end())
            start = i
        depth, j = 0, i
        while j < len(code):
            if code[j] == "{":
                depth += 1
            elif code[j] == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        out += [code.count("\n", 0, c.start()) + 1 for c in _CALL.finditer(code, start, j)]
    return sorted(set(out))


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: str(p.relative_to(REPO)))
def test_no_translation_call_under_a_local_t(path):
    assert shadowed_calls(path.read_text()) == []


def test_the_scan_finds_the_crm_case():
    src = """function t(s) { return s; }
document.addEventListener("click", (e) => {
  const t = e.target;
  if (t.closest("[data-follow]")) { label = t("Follow"); }
});
const ok = t("Close");
"""
    assert shadowed_calls(src) == [4]
    assert SCRIPTS, "no page script defines t()"
