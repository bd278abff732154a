"""Vendored front-end assets: licences recorded, and every icon the mail clone uses is in the subset."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
VENDOR = ROOT / "apps" / "_shared" / "static" / "vendor"


def load_vendor_script():
    spec = importlib.util.spec_from_file_location("vendor_assets", ROOT / "scripts" / "vendor_assets.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["vendor_assets"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_manifest_lists_every_vendored_file_with_a_licence():
    manifest = json.loads((VENDOR / "MANIFEST.json").read_text())
    pkgs = {p["package"]: p for p in manifest["packages"]}
    pinned = json.loads((ROOT / "apps" / "package.json").read_text())["dependencies"]
    assert set(pkgs) == set(pinned)
    for name, p in pkgs.items():
        assert p["version"] == pinned[name] and p["license"] and p["licence_files"]
        for f in p["files"]:
            assert (VENDOR / p["dir"] / f["path"]).stat().st_size == f["bytes"], (name, f["path"])


def test_mail_icons_are_in_the_material_symbols_subset():
    vendored = set((VENDOR / "material-symbols" / "icons.txt").read_text().split())
    used = load_vendor_script().used_icons(ROOT / "apps" / "mail")
    assert used and used <= vendored, sorted(used - vendored)


def test_templates_reference_only_vendored_files():
    tmpl = (ROOT / "apps" / "mail" / "templates" / "mail" / "layout.html").read_text()
    for path in re.findall(r"vendor\('([^']+)'\)", tmpl):
        assert (VENDOR / path).is_file(), path


def test_vendored_total_is_small():
    mail_dirs = ["fontsource-google-sans", "fontsource-roboto", "material-symbols"]
    total = sum(f.stat().st_size for d in mail_dirs for f in (VENDOR / d).iterdir())
    assert total < 400_000, total


def test_every_icon_on_rendered_pages_is_in_the_subset(client, dbs):
    """Catches icons picked at render time (conditions, Python data) that the scanner cannot see."""
    from sqlalchemy import select

    from apps.mail.models import Attachment, Invite, Message

    vendored = set((VENDOR / "material-symbols" / "icons.txt").read_text().split())
    att = dbs.scalars(select(Attachment)).all()
    threads = {dbs.get(Message, a.message_id).thread_id for a in att}
    threads |= {dbs.get(Message, i.message_id).thread_id for i in dbs.scalars(select(Invite))}
    pages = ["/inbox", "/inbox/social", "/spam", "/trash", "/all"] + [f"/thread/{t}" for t in sorted(threads)]
    pages += [f"/attachments/{a.id}" for a in att]
    seen = set()
    for path in pages:
        html = client.get(path).get_data(as_text=True)
        seen |= set(re.findall(r'material-symbols-outlined[^"]*"[^>]*>([a-z0-9_]+)<', html))
    js = "\n".join(p.read_text() for p in sorted((ROOT / "apps" / "mail" / "static" / "mail").glob("*.js")))
    seen |= set(re.findall(r'textContent = "([a-z_]+)"', js))
    assert {"picture_as_pdf", "image", "description", "star", "inbox"} <= seen
    assert seen <= vendored, sorted(seen - vendored)
