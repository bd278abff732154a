"""Draft templates (not yet validated) are generated outside the bundle and never drawn."""

import shutil

from tasks.loader import TASKS_DIR, load_tasks
from tasks.templates.base import TEMPLATES, load_templates


def test_loader_skips_underscore_folders(tmp_path):
    src = TASKS_DIR / "mail" / "star-latest-from.json"
    (tmp_path / "mail").mkdir()
    (tmp_path / "_drafts" / "mail").mkdir(parents=True)
    shutil.copy(src, tmp_path / "mail" / "star-latest-from.json")
    shutil.copy(TASKS_DIR / "mail" / "mark-important.json", tmp_path / "_drafts" / "mail" / "mark-important.json")
    ids = {t.id for t in load_tasks(tmp_path)}
    assert ids and all(i.startswith("mail/star-latest-from-") for i in ids)
    assert {t.id for t in load_tasks(tmp_path / "_drafts")} == {
        t.id for t in load_tasks(tmp_path / "_drafts") if t.id.startswith("mail/mark-important-")} != set()


def test_draft_templates_are_generated_outside_the_bundle(monkeypatch):
    import dataclasses

    from tasks.templates.base import generate

    load_templates("crm")
    key = next(k for k, v in TEMPLATES.items() if v.app == "crm" and v.name == "new-contact")
    monkeypatch.setitem(TEMPLATES, key, dataclasses.replace(TEMPLATES[key], draft=True))
    paths = set(generate("crm", write=False))
    assert str(TASKS_DIR / "_drafts" / "crm" / "new-contact.json") in paths
    assert str(TASKS_DIR / "crm" / "new-contact.json") not in paths
    assert str(TASKS_DIR / "crm" / "contact-phone.json") in paths


def test_committed_drafts_are_not_bundled():
    load_templates("crm")
    drafts = {i.name for i in TEMPLATES.values() if i.app == "crm" and i.draft}
    bundled = {t.template for t in load_tasks() if t.app == "crm"}
    assert bundled and not drafts & bundled
    for name in drafts:
        assert (TASKS_DIR / "_drafts" / "crm" / f"{name}.json").exists()
