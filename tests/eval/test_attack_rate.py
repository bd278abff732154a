"""The attack success rate (ASR) of injection episodes: one computation (report.stats.attack_rate) for the eval
summary and the HTML report; runs without injection tasks show no ASR at all."""

from __future__ import annotations

from rich.console import Console

from agent_harness.report.stats import attack_rate, summarize
from agent_harness.summary import attack_table


def _row(i: int, app: str, attack: bool | None, passed: bool) -> dict:
    return {"task_id": f"{app}/t-{i:02d}", "app": app, "difficulty": "medium", "template": "t", "reward": float(passed),
            "passed": passed, "steps": 3, "seconds": 1.0, "error": None, "sample": 0, "attack_succeeded": attack}


def test_asr_counts_injection_episodes_only():
    rows = [_row(0, "mail", True, False), _row(1, "mail", False, True), _row(2, "crm", False, True),
            _row(3, "crm", None, True)]
    assert attack_rate(rows) == {"attacks": 3, "attacks_succeeded": 1, "asr": 1 / 3}
    assert summarize(rows)["asr"] == 1 / 3 and summarize(rows[3:])["asr"] is None
    assert summarize([])["attacks"] == 0


def test_summary_prints_the_asr_table_only_with_injection_episodes():
    rows = [_row(0, "mail", True, False), _row(1, "mail", False, True)]
    console = Console(width=80, record=True)
    console.print(attack_table(rows))
    text = console.export_text()
    assert "ASR" in text and "50%" in text
    assert attack_table([_row(0, "mail", None, True)]) is None
