"""The browser's resolver: loopback only, plus the hosts of apps the user points the gym at."""

from gym_core.browser import CHROMIUM_ARGS, chromium_args


def _rules(args):
    return next(a for a in args if a.startswith("--host-resolver-rules="))


def test_default_resolves_only_loopback():
    assert chromium_args() == CHROMIUM_ARGS
    assert _rules(chromium_args()).endswith("EXCLUDE 127.0.0.1, EXCLUDE localhost")


def test_external_app_hosts_are_resolvable():
    rules = _rules(chromium_args(["mail", "food", "127.0.0.1", None]))
    assert rules.count("EXCLUDE") == 4 and "EXCLUDE mail" in rules and "EXCLUDE food" in rules
    assert rules.startswith("--host-resolver-rules=MAP * ~NOTFOUND")
    assert CHROMIUM_ARGS[-1].endswith("EXCLUDE localhost")  # the module constant is not mutated
