"""An app's UI surface: the named targets its task solutions address, and what each look calls them.

A solution step (tasks/schema.py, `SolutionStep`) addresses an element as a person names it: a role and an
accessible name ("button Star", "searchbox Search mail"), maybe inside another ("in dialog New Message").
The app declares every such target here, once, by its default look's role and name (`Control`); a name
built from the world's data is declared as a pattern ("button Remove {item}", "row {subject}"). Task
generation checks every target of every step against the declaration (`Surface.check`), so a template that
addresses an undeclared or renamed control fails when it writes its tasks, with the template named.

Each other look says what it calls a control (`Look.names`: the control's key, "role:name" as the default
look names it, to this look's target, or to a list of steps where that look takes other steps (a click is
replaced by them; a hover, fill or scroll takes the steps before the last, then acts on the last one's target),
or to [] where it takes none), and which templates it carries (`Look.covers`). A key may name the container too,
"button:Delete in dialog": it maps only that control inside that container and wins over the bare key there (the
record page's Delete is a menu item in one look while the confirmation dialog's Delete is a button in both). `Surface.translate` rewrites a
step list into a look's terms: the oracle plays it, validation proves it, QA clicks it.

A UI language (the variant's lang, apps/_shared/i18n.py) renames the controls too, through the app's own catalog,
the one its pages are rendered with: `translate(steps, look, lang="de")` takes every target's name into German
after the look's names (a whole name the catalog has: "Compose" -> "Schreiben"; a pattern's text with its slots:
"Back to {folder}" through the msgid "Back to %(folder)s", each slot's value taken too where the catalog has it,
"Inbox" -> "Posteingang"; a name the catalog lacks, the world's data, stays as it is).
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any, Iterable

_SLOT = re.compile(r"\{(\w+)\}")
_TARGET_KEYS = ("click", "double_click", "hover", "fill", "scroll")


class SurfaceError(ValueError):
    """A step addresses a target the app does not declare, or a look has no name for it."""


@dataclass(frozen=True)
class Control:
    """One target in the default look: role and accessible name; `{slot}` in the name stands for data."""

    role: str
    name: str | None = None
    doc: str = ""

    @property
    def key(self) -> str:
        return f"{self.role}:{self.name}" if self.name is not None else self.role

    @property
    def pattern(self) -> re.Pattern | None:
        """The name as a regex when it has slots (None when it is a fixed name)."""
        if self.name is None or not _SLOT.search(self.name):
            return None
        parts, pos = [], 0
        for m in _SLOT.finditer(self.name):
            parts.append(re.escape(self.name[pos:m.start()]))
            parts.append(f"(?P<{m.group(1)}>.+?)")
            pos = m.end()
        parts.append(re.escape(self.name[pos:]))
        return re.compile("".join(parts) + r"\Z", re.S)


@dataclass(frozen=True)
class Look:
    """A second look's names for the surface's controls."""

    id: str
    # Control key -> this look's target ({"role", "name", "exact"?, "within"?}; `{slot}` filled from the
    # default name's slots), or a list of steps taking that step's place ([] drops it). A key not listed
    # keeps the default look's target. A container (a `within`) mapped to {} is dropped: this look has
    # no such container around the control.
    names: dict[str, Any] = field(default_factory=dict)
    # The templates whose tasks this look carries (proven in CI in this look); None: every template.
    covers: frozenset[str] | None = None
    doc: str = ""

    def carries(self, template: str | None) -> bool:
        return self.covers is None or (template is not None and template in self.covers)


class Surface:
    """The controls of one app, and its looks beyond the default."""

    def __init__(self, app: str, controls: Iterable[Control], looks: Iterable[Look] = ()):
        self.app = app
        self.controls = list(controls)
        self.fixed: dict[tuple[str, str | None], Control] = {}
        self.patterned: list[tuple[Control, re.Pattern]] = []
        for c in self.controls:
            pat = c.pattern
            if pat is None:
                if (c.role, c.name) in self.fixed:
                    raise SurfaceError(f"{app}: control {c.key!r} declared twice")
                self.fixed[(c.role, c.name)] = c
            else:
                self.patterned.append((c, pat))
        # The most specific pattern first: a longer fixed text beats "{subject}".
        self.patterned.sort(key=lambda cp: -len(_SLOT.sub("", cp[0].name or "")))
        self.looks = {lk.id: lk for lk in looks}
        keys = {c.key for c in self.controls}
        for lk in self.looks.values():
            unknown = sorted(k for k in lk.names if not all(part in keys for part in k.split(" in ", 1)))
            if unknown:
                raise SurfaceError(f"{app} look {lk.id!r} names controls the surface does not declare: {unknown[:5]}")

    # ------------------------------------------------------------------ matching
    def match(self, target: dict) -> tuple[Control, dict[str, str]] | None:
        """The declared control a target addresses, with its slots' values; None if it is not declared."""
        role, name = target.get("role"), target.get("name")
        if role is None:
            return None
        c = self.fixed.get((role, name))
        if c is not None:
            return c, {}
        if name is not None:
            for c, pat in self.patterned:
                if c.role == role:
                    m = pat.match(name)
                    if m:
                        return c, m.groupdict()
        return None

    def undeclared(self, steps: Iterable[dict]) -> list[str]:
        """The targets in `steps` (dicts as tasks hold them) the surface does not declare."""
        out = []
        for t in _targets(steps):
            if self.match(t) is None:
                out.append(f"{t.get('role')} {t.get('name')!r}")
        return out

    def check(self, where: str, steps: Iterable[dict]) -> None:
        bad = self.undeclared(list(steps))
        if bad:
            raise SurfaceError(f"{where}: {len(bad)} target(s) not declared in apps/{self.app}/surface.py: "
                               + "; ".join(sorted(set(bad))[:8]))

    # --------------------------------------------------------------- translation
    def translate(self, steps: list[dict], look: str | None, lang: str | None = None) -> list[dict]:
        """`steps` (dicts as tasks hold them) as they are taken in `look` (the default look: unchanged) and in the UI
        language `lang` (None or "en": unchanged)."""
        lk = self.looks.get(look) if look else None
        if lk is not None and lk.names:
            out: list[dict] = []
            for step in steps:
                out.extend(self._step(step, lk))
            steps = out
        if lang and lang != "en":
            from apps._shared.i18n import names

            words = names(self.app, lang)
            if words:
                steps = [self._in_lang(step, words) for step in steps]
        return steps

    def _in_lang(self, step: dict, words: dict[str, str]) -> dict:
        s = copy.deepcopy(step)
        for k in _TARGET_KEYS:
            if isinstance(s.get(k), dict):
                self._name_in_lang(s[k], words)
        if isinstance(s.get("drag"), dict):
            for t in s["drag"].values():
                if isinstance(t, dict):
                    self._name_in_lang(t, words)
        return s

    def _name_in_lang(self, target: dict, words: dict[str, str]) -> None:
        """`target` (and its containers) renamed in place into the catalog's language."""
        while isinstance(target, dict):
            name = target.get("name")
            if isinstance(name, str):
                target["name"] = self.name_in_lang(target.get("role"), name, words)
            target = target.get("within")

    def name_in_lang(self, role: str | None, name: str, words: dict[str, str]) -> str:
        """One accessible name in the language of `words` (apps/_shared/i18n.py `names`)."""
        if name in words:
            return words[name]
        hit = self.match({"role": role, "name": name})
        if hit is None or not hit[1]:
            return name
        msgid = _SLOT.sub(lambda m: f"%({m.group(1)})s", hit[0].name or "")
        if msgid not in words:
            return name
        return words[msgid] % {k: words.get(v, v) for k, v in hit[1].items()}

    def _step(self, step: dict, lk: Look) -> list[dict]:
        kind = next((k for k in _TARGET_KEYS if step.get(k)), None)
        if kind is None:
            if step.get("drag"):
                s = copy.deepcopy(step)
                s["drag"] = {k: self._target(v, lk) for k, v in step["drag"].items()}
                return [s]
            return [step]
        target = step[kind]
        hit = self.match(target)
        mapped = self._mapped(target, hit, lk)
        if isinstance(mapped, list):
            steps = [_fill_slots(copy.deepcopy(s), hit[1]) for s in mapped]
            if kind == "click" or not steps:
                return steps
            # A hover, fill or scroll on a control this look reaches by steps: the steps that lead there,
            # then this step on the last one's target.
            last = next((steps[-1][k] for k in _TARGET_KEYS if steps[-1].get(k)), None)
            if last is None:
                raise SurfaceError(f"look {lk.id!r} maps {hit[0].key!r} to steps whose last addresses no target")
            s = copy.deepcopy(step)
            s[kind] = last
            return steps[:-1] + [s]
        s = copy.deepcopy(step)
        s[kind] = self._target(target, lk)
        return [s]

    def _target(self, target: dict, lk: Look) -> dict:
        t = copy.deepcopy(target)
        hit = self.match(target)
        mapped = self._mapped(target, hit, lk)
        if isinstance(mapped, dict):
            new = _fill_slots(copy.deepcopy(mapped), hit[1])
            within = t.get("within")
            nth = t.get("nth", 0)
            t = {"exact": t.get("exact", False), "nth": nth, **new}
            if "within" not in new and within is not None:
                t["within"] = within
        if t.get("within"):
            w = self._target(t["within"], lk)
            if w.get("role") is None:  # mapped to "no container" in this look
                t.pop("within")
            else:
                t["within"] = w
        return t


    def _mapped(self, target: dict, hit, lk: Look):
        """What `lk` calls the control `hit` (matched from `target`): its name for the control inside `target`'s
        container ("<key> in <container key>") where it has one, else its name for the control anywhere."""
        if hit is None:
            return None
        within = self.match(target["within"]) if isinstance(target.get("within"), dict) else None
        if within is not None and f"{hit[0].key} in {within[0].key}" in lk.names:
            return lk.names[f"{hit[0].key} in {within[0].key}"]
        return lk.names.get(hit[0].key)


def _fill_slots(obj, slots: dict[str, str]):
    if isinstance(obj, str):
        return _SLOT.sub(lambda m: slots.get(m.group(1), m.group(0)), obj)
    if isinstance(obj, list):
        return [_fill_slots(x, slots) for x in obj]
    if isinstance(obj, dict):
        return {k: _fill_slots(v, slots) for k, v in obj.items()}
    return obj


def _targets(steps: Iterable[dict]):
    for s in steps:
        for k in _TARGET_KEYS:
            t = s.get(k)
            while isinstance(t, dict):
                yield t
                t = t.get("within")
        if s.get("drag"):
            for t in s["drag"].values():
                while isinstance(t, dict):
                    yield t
                    t = t.get("within")
