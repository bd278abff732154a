"""Key names: what agents write (ctrl, cmd, esc, Return...) mapped to Playwright's key names."""

from __future__ import annotations

import string

ALIASES = {
    "ctrl": "Control", "control": "Control", "cmd": "Meta", "command": "Meta", "meta": "Meta",
    "super": "Meta", "win": "Meta", "windows": "Meta", "alt": "Alt", "option": "Alt", "opt": "Alt",
    "shift": "Shift", "enter": "Enter", "return": "Enter", "esc": "Escape", "escape": "Escape",
    "tab": "Tab", "space": " ", "spacebar": " ", "backspace": "Backspace", "bksp": "Backspace",
    "delete": "Delete", "del": "Delete", "insert": "Insert", "home": "Home", "end": "End",
    "pageup": "PageUp", "page_up": "PageUp", "pgup": "PageUp", "pagedown": "PageDown",
    "page_down": "PageDown", "pgdn": "PageDown", "up": "ArrowUp", "down": "ArrowDown",
    "left": "ArrowLeft", "right": "ArrowRight", "arrowup": "ArrowUp", "arrowdown": "ArrowDown",
    "arrowleft": "ArrowLeft", "arrowright": "ArrowRight", "capslock": "CapsLock",
    "plus": "+", "minus": "-",
}
NAMED = set(ALIASES.values()) | {f"F{i}" for i in range(1, 13)}
SINGLE = set(string.ascii_letters + string.digits + string.punctuation + " ")


class KeyError_(ValueError):
    pass


def normalize_key(key: str) -> str:
    if not isinstance(key, str) or key == "":
        raise KeyError_(f"unknown key {key!r}")
    if key in SINGLE or key in NAMED:
        return key
    low = key.lower().replace(" ", "")
    if low in ALIASES:
        return ALIASES[low]
    if low.startswith("f") and low[1:].isdigit() and 1 <= int(low[1:]) <= 12:
        return f"F{int(low[1:])}"
    raise KeyError_(f"unknown key {key!r}; use names like Enter, Escape, Tab, Backspace, ArrowDown, Control, a")


def normalize_keys(keys: list[str]) -> list[str]:
    out: list[str] = []
    for k in keys:
        # "ctrl+a" written as one string is split into a chord.
        parts = k.split("+") if len(k) > 1 and "+" in k.strip("+") else [k]
        out.extend(normalize_key(p.strip() if len(p.strip()) else p) for p in parts)
    return out
