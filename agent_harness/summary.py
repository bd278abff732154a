"""The end-of-run summary: pass rate by app and difficulty, mean steps and time."""

from __future__ import annotations

from collections import defaultdict

from rich.console import Console
from rich.table import Table

DIFFICULTY_ORDER = {"easy": 0, "medium": 1, "hard": 2}


def group_stats(rows: list[dict], keys: tuple[str, ...] = ("app", "difficulty")) -> list[dict]:
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for r in rows:
        groups[tuple(r.get(k) for k in keys)].append(r)
        groups[("all",) + ("",) * (len(keys) - 1)].append(r)
    out = []
    for key, rs in groups.items():
        n = len(rs)
        out.append({
            **dict(zip(keys, key)),
            "episodes": n,
            "pass_rate": sum(1 for r in rs if r.get("passed")) / n,
            "mean_reward": sum(float(r.get("reward", 0)) for r in rs) / n,
            "mean_steps": sum(int(r.get("steps", 0)) for r in rs) / n,
            "mean_seconds": sum(float(r.get("seconds", 0)) for r in rs) / n,
            "errors": sum(1 for r in rs if r.get("error")),
            "ungraded": sum(1 for r in rs if r.get("ungraded")),
        })
    out.sort(key=lambda s: (s[keys[0]] == "all", str(s[keys[0]]),
                            DIFFICULTY_ORDER.get(str(s.get("difficulty")), 9)))
    return out


def summary_table(rows: list[dict], title: str = "uigym eval") -> Table:
    t = Table(title=title)
    for col, kw in [("app", {}), ("difficulty", {}), ("episodes", {"justify": "right"}),
                    ("pass rate", {"justify": "right"}), ("mean reward", {"justify": "right"}),
                    ("mean steps", {"justify": "right"}), ("mean s", {"justify": "right"}),
                    ("errors", {"justify": "right"}), ("ungraded", {"justify": "right"})]:
        t.add_column(col, **kw)
    for s in group_stats(rows):
        style = "bold" if s["app"] == "all" else None
        t.add_row(str(s["app"]), str(s["difficulty"] or ""), str(s["episodes"]), f"{s['pass_rate']:.0%}",
                  f"{s['mean_reward']:.2f}", f"{s['mean_steps']:.1f}", f"{s['mean_seconds']:.1f}",
                  str(s["errors"]), str(s["ungraded"]), style=style)
    return t


def generalisation_table(rows: list[dict]) -> Table:
    """Pass rate by generalisation split: the instance split (train/test), held-out seeds, held-out templates."""
    t = Table(title="by generalisation split")
    for col in ("split", "episodes", "pass rate", "mean reward", "errors"):
        t.add_column(col, justify="right" if col != "split" else "left")
    for s in group_stats(rows, ("generalisation",)):
        t.add_row(str(s["generalisation"]), str(s["episodes"]), f"{s['pass_rate']:.0%}", f"{s['mean_reward']:.2f}",
                  str(s["errors"]), style="bold" if s["generalisation"] == "all" else None)
    return t


def print_summary(rows: list[dict], title: str = "uigym eval", console: Console | None = None) -> None:
    console = console or Console()
    console.print(summary_table(rows, title))
    if len({r.get("generalisation") for r in rows}) > 1:  # e.g. bundled test tasks beside held-out worlds
        console.print(generalisation_table(rows))
