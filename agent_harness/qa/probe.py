"""Probing one control: reach its state again in a fresh world, hover it, act on it as a person would, and
classify what happened (a new page, a changed world, a dialog, new controls, nothing: a dead control)."""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

from playwright.async_api import Error as PlaywrightError

from agent_harness.qa.report import Defect
from agent_harness.qa.states import (
    ACTION_ROLES, CLOSE_NAME, TYPE_TEXT, Act, State, path_of, group_key, pixels_changed,
)


from agent_harness.qa.driver import Driver


class Prober(Driver):
    async def probe(self, st: State, el: dict, gkey: tuple) -> None:
        c, qa = self.c, self.c.qa
        await self.open_state(st)
        env, page = self.env, self.env.page
        act = Act(op=el["act"], path=el["path"], role=el.get("ax_role") or el["role"], name=el["name"],
                  text=TYPE_TEXT.get(el.get("type") or "", qa.type_text) if el["act"] == "type" else "")
        path, box = await self.locate(act)
        box, by_wheel, problem = await self.bring_into_view(path, box)
        el_info = {"role": act.role, "name": act.name, "path": path, "box": box, "group": repr(gkey)}
        if problem:
            await self._unreachable(st, act, f"{act.role} {act.name!r} is {problem}", el_info, box)
            return
        # Hover first (as the mouse gets there), then the baseline, then the action. Before the hover the
        # page is as the crawl saw it (st.known); what the hover or the action shows is a state to crawl.
        x, y, pre = await self.hover(path, box)
        hit = pre["hit"]
        if hit and not hit.startswith("hidden under"):
            # Look again before calling it covered: a scroll that landed late can have moved the page
            # between the measurement and the hover (seen once in a food crawl, not reproducible).
            box, _, _ = await self.bring_into_view(path, box)
            x, y, pre = await self.hover(path, box)
            hit = pre["hit"]
            el_info["box"] = box
        if hit and hit.startswith("hidden under"):
            c.report.probes.append(self._probe_row(st, act, "hidden", []))
            return
        if hit:
            await self._unreachable(st, act, f"a click at its centre lands elsewhere: {hit}", el_info, box)
            return
        hover_new = set(pre["paths"]) - st.known
        if hover_new and len(st.prefix) < c.cfg.depth:
            await self._maybe_state(st, Act("hover", path, act.role, act.name), hover_new, page.url)
        shot0 = await self.shot()
        dig0, field0 = pre["digest"], pre["field"]
        url0, navs0 = page.url, env.navigations
        self.ev.clear()
        await self.perform(act, path, x, y)

        effects: list[str] = []
        navigated = env.navigations != navs0 or page.url != url0
        bad_nav = [(u, s) for u, s in self.ev.navs if s >= 400]
        for p in list(self.ev.pages):
            try:
                await p.wait_for_load_state("load", timeout=5000)
            except PlaywrightError:
                pass
        bad_nav += [(u, s) for u, s in self.ev.navs if s >= 400 and (u, s) not in bad_nav]
        for u, s in bad_nav:
            c.add_defect(Defect("http_error", f"leads to {path_of(u)}, which answers {s}", page=st.url,
                                state=st.label(), element=el_info, action=act.describe(), screenshot=shot0,
                                shot_box=box), st)
        if navigated:
            effects.append("navigated")
            u0, u1 = urlsplit(url0), urlsplit(page.url)
            if not bad_nav and (u0.path, u0.query) != (u1.path, u1.query):
                c.propose(page.url, (), st)
        for p in self.ev.pages:
            effects.append("new_tab")
            try:
                if not bad_nav:
                    c.propose(p.url, (), st)
            except PlaywrightError:
                pass
        if el.get("download") and not self.ev.downloads:
            # An <a download> link: the download event only comes once the server answers, which on a busy
            # machine can take longer than the settle time.
            for _ in range(50):
                if self.ev.downloads:
                    break
                await asyncio.sleep(0.1)
        if self.ev.downloads:
            effects.append("download")
        if self.ev.dialogs or self.ev.choosers:
            effects.append("native_dialog")
        dig1 = ""
        post = None
        if not navigated:
            try:
                post = await self.snap(path)
            except PlaywrightError:
                if env.navigations == navs0:
                    raise
                navigated = True  # a late navigation (a timer) took the page away
                effects.insert(0, "navigated")
        if post is not None:
            new = set(post["paths"]) - set(pre["paths"])
            new_containers = set(post["containers"]) - set(pre["containers"])
            if new or new_containers:
                effects.append("opened")
                if new and len(st.prefix) < c.cfg.depth:
                    await self._maybe_state(st, act, new, page.url)
            dig1 = post["digest"]
            if dig1 != dig0:
                effects.append("dom_changed")
            field1 = post["field"]
            if field0 and field1 and (field0["value"] != field1["value"] or field0["checked"] != field1["checked"]):
                effects.append("input")
            if not effects:
                shot1 = await self.shot()
                if pixels_changed(shot0, shot1, box) > 8:
                    effects.append("pixels_changed")
        # The world: checked when nothing visible happened, and when the page went back to how it was.
        dismissed = (bool(st.prefix) and st.prefix[-1].op != "hover" and not navigated and bool(dig1)
                     and st.parent is not None and dig1 == st.parent.digest)
        errors = self.page_events(st, act.describe(), el_info, shot0, box)
        tooltip = False
        if not navigated and (not effects or dismissed):
            after = await self.world_hash()
            if not effects and act.role not in ACTION_ROLES and not el.get("selected"):
                tooltip = bool(el.get("title")) or await self._hover_shows(shot0, box)  # before any reload
            if after != await self.baseline(st):
                effects.append("state_changed")

        outcome = effects[0] if effects else "nothing"
        if dismissed and "state_changed" not in effects and not ({"navigated", "new_tab", "download", "native_dialog"}
                                                                & set(effects)):
            if CLOSE_NAME.search(act.name) or CLOSE_NAME.search(c.english(act.name)) or el.get("selected"):
                outcome = "closed"
            else:
                outcome = "nothing"
                c.add_defect(Defect("dead_control", f"{act.role} {act.name!r} only closes what "
                                    f"'{st.prefix[-1].describe()}' opened; nothing else happens", page=st.url, state=st.label(), element=el_info, action=act.describe(),
                                    screenshot=shot0, shot_box=box), st)
        elif not effects:
            if el.get("selected"):
                outcome = "already_selected"
            elif tooltip:
                outcome = "tooltip"
            elif errors:
                outcome = "error"
            else:
                what = {"type": f"typing {act.text!r} into it changes nothing",
                        "select": "choosing another option changes nothing"}.get(act.op, "clicking it")
                detail = (what if act.op != "click" else
                          "clicking it does nothing: no navigation, no change to the page or the world")
                c.add_defect(Defect("dead_control", f"{act.role} {act.name!r}: {detail}", page=st.url,
                                    state=st.label(), element=el_info, action=act.describe(), screenshot=shot0,
                                    shot_box=box), st)
        st.exercised += 1
        c.report.probes.append(self._probe_row(st, act, outcome, effects, by_wheel))

    async def _unreachable(self, st: State, act: Act, detail: str, el_info: dict, box: list) -> None:
        """A control a person cannot reach (off screen, covered): a defect, with the screen as it is."""
        shot = await self.shot()
        self.c.add_defect(Defect("unreachable", detail, page=st.url, state=st.label(), element=el_info,
                                 action=act.describe(), screenshot=shot, shot_box=box), st)
        st.exercised += 1
        self.c.report.probes.append(self._probe_row(st, act, "unreachable", []))

    def _probe_row(self, st: State, act: Act, outcome: str, effects: list[str], by_wheel: bool = True) -> dict:
        row = {"page": st.url, "state": st.label(), "role": act.role, "name": act.name, "op": act.op,
               "outcome": outcome, "effects": effects}
        if not by_wheel:
            row["scrolled_by_script"] = True
        return row

    async def _hover_shows(self, shot_hovered: bytes, box: list) -> bool:
        """Whether hovering the element shows something (a tooltip): move away and compare."""
        env = self.env
        far = (env.width - 1 if box[0] < env.width / 2 else 0, env.height - 1 if box[1] < env.height / 2 else 0)
        await self.step({"type": "move", "x": far[0], "y": far[1]})
        await self.frames(2)
        away = await self.shot()
        fx, fy = far
        return pixels_changed(shot_hovered, away, box, pad=6) > 8 and pixels_changed(
            shot_hovered, away, [fx - 40, fy - 40, 80, 80], pad=0) > 8

    @staticmethod
    def _new_controls(before: set, after: dict) -> set[str]:
        """Paths of controls that appeared (a control that merely renamed itself, Star -> Unstar, did not)."""
        return {e["path"] for e in after["elements"]} - before

    async def _maybe_state(self, st: State, act: Act, new: set[str], url: str) -> None:
        """A dialog, menu or revealed controls: a state worth crawling if it shows controls not yet known."""
        c = self.c
        if any((a.op, a.path) == (act.op, act.path) for a in st.prefix):
            return
        full = await self.enumerate()
        fresh = [e for e in full["elements"] if e["path"] in new]
        if not any(group_key(e, c.templates) not in c.groups for e in fresh):
            return
        c.propose(url, st.prefix + (act,), st)
