"""Task health on the clean fixture app: a good task passes (oracle 1, noop 0, near-miss 0, goal lint clean);
a task whose oracle fails and a task whose goal names what its world lacks are each flagged."""

from __future__ import annotations

from agent_harness.qa.health import page_text, task_health
from tasks import Task

CLEAN = "tests.fixture_apps.qa_clean"


def fixture_task(id_: str, goal: str, star: str, expect: str, near_miss: str | None = None) -> Task:
    t = Task.model_validate({
        "id": f"mail/{id_}", "app": "mail", "difficulty": "easy", "goal": goal, "start_path": "/", "max_steps": 6,
        "verify": {"checks": [{"table": "items", "where": {"name": expect}, "expect": {"starred": True}}],
                   "unchanged_except": [{"table": "items", "where": {"name": expect}, "fields": ["starred"]}]},
        "solution": [{"click": {"role": "button", "name": f"Star {star}"}}, {"done": True}],
        "near_misses": [[{"click": {"role": "button", "name": f"Star {near_miss}"}}, {"done": True}]] if near_miss else [],
    })
    return t.model_copy(update={"app": CLEAN})  # the schema knows only the real apps


def test_page_text_keeps_words_and_accessible_names():
    txt = page_text('<p>Hello <b>there</b></p><script>var x = "no";</script>'
                    '<button aria-label="Star Pad Thai">☆</button><input placeholder="Search items">')
    assert "Hello there" in txt and "Star Pad Thai" in txt and "Search items" in txt and "var x" not in txt


async def test_task_health_flags_invalid_tasks_and_bad_goals(runtime):
    good = fixture_task("good", "Star the Pad Thai.", "Pad Thai", "Pad Thai", near_miss="Green Curry")
    wrong = fixture_task("wrong", "Star the Green Curry.", "Pad Thai", "Green Curry")
    lint = fixture_task("lint", "Star the Pad Thai that Marco ordered on Saturday, March 13.", "Pad Thai", "Pad Thai")
    rows, defects = await task_health(CLEAN, [good, wrong, lint], [], workers=1, runtime=runtime)
    by_id = {r["id"]: r for r in rows}
    assert by_id["mail/good"]["ok"], by_id["mail/good"]
    assert by_id["mail/good"]["rewards"] == {"oracle": 1.0, "noop": 0.0, "near_miss[0]": 0.0}
    assert not by_id["mail/wrong"]["ok"] and by_id["mail/wrong"]["rewards"]["oracle"] == 0.0
    assert by_id["mail/lint"]["rewards"]["oracle"] == 1.0 and not by_id["mail/lint"]["ok"]
    kinds = sorted((d.kind, d.element["name"]) for d in defects)
    assert kinds == [("goal_lint", "mail/lint"), ("goal_lint", "mail/lint"), ("task_invalid", "mail/wrong")]
    details = " | ".join(d.detail for d in defects)
    assert "names 'Marco'" in details and "2026-03-13 is a Friday, not a Saturday" in details
    assert "mail/wrong [oracle]" in details
