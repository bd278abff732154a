"""Labels: create (nested), rename, re-parent, colour, show/hide, remove. Never commits."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, func, select

from apps.mail import queries as Q
from apps.mail.models import Filter, Label, MessageLabel
from apps.mail.services.errors import ServiceError

RESERVED = {"inbox", "starred", "snoozed", "sent", "drafts", "spam", "trash", "important", "scheduled", "all mail",
            "chats"}
# Gmail's label colour palette (a subset, with names people use): background, text.
LABEL_COLORS = [
    ("Grey", "#cccccc", "#000000"), ("Red", "#fb4c2f", "#ffffff"), ("Orange", "#ffad47", "#ffffff"),
    ("Yellow", "#fad165", "#000000"), ("Green", "#16a766", "#ffffff"), ("Teal", "#2da2bb", "#ffffff"),
    ("Blue", "#4a86e8", "#ffffff"), ("Purple", "#a479e2", "#ffffff"), ("Pink", "#f691b3", "#ffffff"),
    ("Brown", "#8a1c0a", "#ffffff"), ("Light red", "#efa093", "#822111"), ("Light orange", "#ffc8af", "#7a2e0b"),
    ("Light yellow", "#fdedc1", "#684e07"), ("Light green", "#b3efd3", "#0b4f30"), ("Light blue", "#a4c2f4", "#1c4587"),
    ("Light purple", "#d0bcf1", "#41236d"),
]
COLOR_BY_NAME = {n.lower(): (bg, fg) for n, bg, fg in LABEL_COLORS}


def label(session, lid: Any) -> Label:
    lab = session.get(Label, lid) if isinstance(lid, int) and not isinstance(lid, bool) else None
    if lab is None:
        raise ServiceError("that label does not exist", 404)
    return lab


def path_of(session, lid: int) -> str:
    return next(p for lb, _d, p in Q.labels_tree(session) if lb.id == lid)


def check_name(session, name: Any, parent_id: int | None, label_id: int | None = None) -> str:
    name = str(name or "").strip()
    if not name:
        raise ServiceError("Please enter a label name.")
    if "/" in name or len(name) > 80:
        raise ServiceError("Label names can't contain \"/\" or be longer than 80 characters.")
    if name.lower() in RESERVED:
        raise ServiceError(f'The label name "{name}" is reserved. Please try another name.')
    clash = session.scalar(select(Label.id).where(func.lower(Label.name) == name.lower(),
                                                  Label.parent_id.is_(parent_id) if parent_id is None
                                                  else Label.parent_id == parent_id))
    if clash is not None and clash != label_id:
        raise ServiceError(f'The label name "{name}" already exists. Please try another name.')
    return name


def check_parent(session, pid: Any, label_id: int | None = None) -> int | None:
    if pid in (None, "", 0):
        return None
    if not isinstance(pid, int) or isinstance(pid, bool) or session.get(Label, pid) is None:
        raise ServiceError("the parent label does not exist")
    if label_id is not None and pid in Q.label_descendants(session, session.get(Label, label_id)):
        raise ServiceError("A label can't be nested under itself or one of its sublabels.")
    return pid


def create(session, name: Any, parent_id: Any = None) -> Label:
    pid = check_parent(session, parent_id)
    name = check_name(session, name, pid)
    lab = Label(name=name, parent_id=pid, color="", text_color="", show_in_list=True, show_in_message_list=True)
    session.add(lab)
    session.flush()
    return lab


def color_values(color: Any) -> tuple[str, str]:
    if color in (None, "", "none"):
        return "", ""
    if str(color).lower() in COLOR_BY_NAME:
        return COLOR_BY_NAME[str(color).lower()]
    raise ServiceError(f"unknown colour {color!r}; the colours are: none, " + ", ".join(n for n, _b, _t in LABEL_COLORS))


def update(session, lid: Any, changes: dict) -> Label:
    """Edit a label: any of `parent_id`, `name`, `color` (a palette name, or none), `show_in_list`,
    `show_in_message_list`. Everything is checked before anything changes."""
    lab = label(session, lid)
    vals: dict[str, Any] = {}
    parent = lab.parent_id
    if "parent_id" in changes:
        parent = vals["parent_id"] = check_parent(session, changes["parent_id"], lab.id)
    if "name" in changes:
        vals["name"] = check_name(session, changes["name"], parent, lab.id)
    if "color" in changes:
        vals["color"], vals["text_color"] = color_values(changes["color"])
    for key in ("show_in_list", "show_in_message_list"):
        if key in changes:
            if not isinstance(changes[key], bool):
                raise ServiceError(f"'{key}' must be true or false")
            vals[key] = changes[key]
    for k, v in vals.items():
        setattr(lab, k, v)
    session.flush()
    return lab


def remove(session, lid: Any) -> str:
    """Remove a label: its messages lose it (they are not deleted); sublabels move up a level; filters lose it."""
    lab = label(session, lid)
    name = lab.name
    for child in session.scalars(select(Label).where(Label.parent_id == lab.id)):
        child.parent_id = lab.parent_id
    session.execute(delete(MessageLabel).where(MessageLabel.label_id == lab.id))
    for f in session.scalars(select(Filter).where(Filter.apply_label_id == lab.id)):
        f.apply_label_id = None
    session.delete(lab)
    session.flush()
    return name
