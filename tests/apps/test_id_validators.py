"""No id or address validator takes a value with a newline in it.

`re.match(r"^...$", s)` accepts "ok\\n" (`$` matches before a final newline): the control API used to take the
world id "x%0A" and make a world file whose name ends in a newline. Every validator now matches the whole
text (fullmatch); these properties cover each of them, and the control API end to end.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from apps._shared.session import sign_world, verified_world
from apps._shared.worlds import WorldError, WorldStore, valid_world_id
from apps.crm import records as crm_records
from apps.mail import formatting as mail_fmt
from tasks.fresh import fresh_id, parse_fresh_id
from tasks.loader import task_files
from tasks.schema import Task, ToolCall
from tasks.templates.mail.compose import _subject_re
from tests.fixture_apps import toy

TOKEN = "id-test-token"
NEWLINES = ["\n", "\r\n", "\r", "\x0b", "\x0c", "\x85", "\u2028", "\u2029"]

ids = st.from_regex(r"[A-Za-z0-9_-]{1,60}", fullmatch=True)
emails = st.from_regex(r"[a-z0-9._+-]{1,12}@[a-z0-9-]{1,10}\.[a-z]{2,5}", fullmatch=True)
slugs = st.from_regex(r"[a-z0-9][a-z0-9._-]{0,20}", fullmatch=True)


@st.composite
def with_newline(draw, valid):
    """A valid value with a newline at its end (the `$` case) or anywhere in it."""
    v, nl = draw(valid), draw(st.sampled_from(NEWLINES))
    at = draw(st.sampled_from(["end", "start", "inside"]))
    if at == "end":
        return v + nl
    if at == "start":
        return nl + v
    i = draw(st.integers(0, len(v)))
    return v[:i] + nl + v[i:]


S = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@S
@given(ok=ids, bad=with_newline(ids))
@example(ok="x", bad="x\n")
def test_world_ids(ok, bad):
    assert valid_world_id(ok) and not valid_world_id(bad)
    with pytest.raises(WorldError, match="bad world id"):
        WorldStore.check_id(None, bad)  # check_id reads nothing of the store


@S
@given(ok=emails, bad=with_newline(emails))
@example(ok="a@b.co", bad="a@b.co\n")
def test_email_addresses(ok, bad):
    assert crm_records.is_email(ok) and not crm_records.is_email(bad)
    assert mail_fmt.is_email(ok) and not mail_fmt.is_email(bad)


@S
@given(app=st.sampled_from(["mail", "food", "crm"]), slug=slugs, index=st.integers(0, 99),
       seed=st.integers(0, 10**6), nl=st.sampled_from(NEWLINES))
@example(app="mail", slug="x", index=0, seed=1, nl="\n")
def test_task_ids_and_fresh_ids(app, slug, index, seed, nl):
    fid = fresh_id(app, slug, index, seed)
    assert parse_fresh_id(fid) == (app, slug, index, seed)
    assert parse_fresh_id(fid + nl) is None
    raw = json.loads(task_files()[0].read_text())
    raw = raw[0] if isinstance(raw, list) else raw
    assert Task.model_validate({**raw, "id": f"{raw['app']}/{slug}"}).id == f"{raw['app']}/{slug}"
    with pytest.raises(ValueError, match="task id"):
        Task.model_validate({**raw, "id": f"{raw['app']}/{slug}{nl}"})


@S
@given(name=st.from_regex(r"[a-z][a-z0-9_]{0,20}", fullmatch=True), nl=st.sampled_from(NEWLINES))
@example(name="click", nl="\n")
def test_task_tool_names(name, nl):
    assert ToolCall(tool=name).tool == name
    with pytest.raises(ValueError):
        ToolCall(tool=name + nl)


def test_seed_subject_patterns_match_whole_subjects():
    pat = _subject_re("Question about {event}")
    assert pat.fullmatch("Question about lunch")["event"] == "lunch"
    assert pat.fullmatch("Question about lunch\n") is None


# ----------------------------------------------------------------------------- the control API end to end


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return toy.create_app({"TESTING": True, "GYM_TOKEN": TOKEN, "UIGYM_HOME": str(tmp_path_factory.mktemp("home"))})


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(bad=with_newline(ids))
@example(bad="x\n")
def test_the_control_api_refuses_a_world_id_with_a_newline_and_makes_no_file(app, bad):
    ctl = app.extensions["uigym_control"].test_client()
    worlds_dir = app.extensions["uigym_worlds"].worlds_dir
    before = set(worlds_dir.iterdir()) if worlds_dir.exists() else set()
    quoted = "".join(c if c.isalnum() or c in "_-" else f"%{b:02X}" for c in bad for b in c.encode())
    for method, path in [("post", f"/worlds/{quoted}/reset"), ("get", f"/worlds/{quoted}/state"),
                         ("delete", f"/worlds/{quoted}"), ("post", f"/worlds/{quoted}/tools/anything")]:
        r = getattr(ctl, method)(path, headers={"X-Gym-Token": TOKEN}, json={} if method == "post" else None)
        assert r.status_code == 400 and "bad world id" in r.json["error"], (method, path, r.json)
    after = set(worlds_dir.iterdir()) if worlds_dir.exists() else set()
    assert after == before
    assert verified_world(app, sign_world(app, bad)) is None  # a signed binding to such an id is refused too
