"""The action union: parsing, readable errors, key names, the Gymnasium action space."""

from __future__ import annotations

import pytest

from gym_core.actions import ActionError, Click, Done, KeyPress, parse_action
from gym_core.keys import normalize_keys
from gym_core.spaces import ActionSpace


def test_parse_dict_json_and_model():
    assert parse_action({"type": "click", "x": 3, "y": 4}) == Click(x=3, y=4)
    assert parse_action('{"type": "done", "answer": "42"}') == Done(answer="42")
    a = KeyPress(keys=["ctrl", "a"])
    assert parse_action(a) is a


@pytest.mark.parametrize("raw, needle", [
    ({"type": "fly"}, "unknown action type 'fly'"),
    ({"x": 1}, "unknown action type None"),
    ("not json", "not valid JSON"),
    ([1, 2], "must be an object"),
    ({"type": "click", "x": 1}, "bad click action: y: Field required"),
    ({"type": "click", "x": 1, "y": 2, "button": "side"}, "bad click action: button"),
    ({"type": "drag", "path": [[1, 2]]}, "bad drag action: path"),
    ({"type": "keypress", "keys": ["Hyper"]}, "unknown key 'Hyper'"),
    ({"type": "wait", "ms": 60000}, "bad wait action: ms"),
    ({"type": "type", "text": "a", "extra": 1}, "bad type action: extra"),
])
def test_bad_actions_have_clear_messages(raw, needle):
    with pytest.raises(ActionError) as e:
        parse_action(raw)
    assert needle in str(e.value)


def test_key_aliases_and_chords():
    assert normalize_keys(["ctrl", "a"]) == ["Control", "a"]
    assert normalize_keys(["ctrl+shift+t"]) == ["Control", "Shift", "t"]
    assert normalize_keys(["Return"]) == ["Enter"]
    assert normalize_keys(["esc"]) == ["Escape"]
    assert normalize_keys(["+"]) == ["+"]
    assert normalize_keys(["f5"]) == ["F5"]


def test_action_space_samples_valid_actions_and_checks_membership():
    space = ActionSpace(1280, 720, seed=1)
    for _ in range(50):
        s = space.sample()
        assert space.contains(s)
        if "x" in s:
            assert 0 <= s["x"] < 1280 and 0 <= s["y"] < 720
    assert not space.contains({"type": "nope"})
    again = ActionSpace(1280, 720, seed=1)
    a, b = ActionSpace(1280, 720, seed=7), ActionSpace(1280, 720, seed=7)
    assert [a.sample() for _ in range(10)] == [b.sample() for _ in range(10)]
