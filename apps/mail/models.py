"""Inkbox (Gmail-like) schema, designed for the whole product so later slices need no migration.

Conventions (graders rely on them):
- every table has an integer primary key `id`;
- addresses (`messages.to`, `cc`, `bcc`) are JSON lists of lower-case e-mail addresses, e.g.
  ["ana.diaz@corvid.io"]; names are looked up in `contacts` (or `account` for me);
- message flags are per message (Gmail stores labels per message): a conversation is "in the inbox"
  when any of its messages has `in_inbox`, unread when any is unread, starred when any is starred;
- date-times are naive and read as UTC, relative to the world's frozen now.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import JSON, Boolean, Date, DateTime, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Account(Base):
    """The mailbox owner ("me") and their settings. Exactly one row."""

    __tablename__ = "account"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    email: Mapped[str] = mapped_column(String(200))
    signature: Mapped[str] = mapped_column(Text, default="")
    signature_on_replies: Mapped[bool] = mapped_column(Boolean, default=True)
    # General settings (Gmail's Settings > General / Inbox)
    display_density: Mapped[str] = mapped_column(String(20), default="default")  # default|comfortable|compact
    inbox_type: Mapped[str] = mapped_column(String(20), default="default")  # default|important_first|unread_first|starred_first
    page_size: Mapped[int] = mapped_column(Integer, default=50)  # 10|15|20|25|50|100
    conversation_view: Mapped[bool] = mapped_column(Boolean, default=True)
    reading_pane: Mapped[str] = mapped_column(String(20), default="none")  # none|right|below
    show_snippets: Mapped[bool] = mapped_column(Boolean, default=True)
    undo_send_seconds: Mapped[int] = mapped_column(Integer, default=5)
    default_reply: Mapped[str] = mapped_column(String(20), default="reply")  # reply|reply_all
    send_and_archive: Mapped[bool] = mapped_column(Boolean, default=False)
    keyboard_shortcuts: Mapped[bool] = mapped_column(Boolean, default=False)
    tab_promotions: Mapped[bool] = mapped_column(Boolean, default=True)
    tab_social: Mapped[bool] = mapped_column(Boolean, default=True)
    tab_updates: Mapped[bool] = mapped_column(Boolean, default=True)
    theme: Mapped[str] = mapped_column(String(40), default="default")
    # Vacation responder
    vacation_enabled: Mapped[bool] = mapped_column(Boolean, default=False)
    vacation_subject: Mapped[str] = mapped_column(String(300), default="")
    vacation_body: Mapped[str] = mapped_column(Text, default="")
    vacation_start: Mapped[dt.date | None] = mapped_column(Date, nullable=True)
    vacation_end: Mapped[dt.date | None] = mapped_column(Date, nullable=True)
    vacation_contacts_only: Mapped[bool] = mapped_column(Boolean, default=False)


class Contact(Base):
    __tablename__ = "contacts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    email: Mapped[str] = mapped_column(String(200), index=True)
    company: Mapped[str] = mapped_column(String(120), default="")
    title: Mapped[str] = mapped_column(String(120), default="")
    phone: Mapped[str] = mapped_column(String(40), default="")
    address: Mapped[str] = mapped_column(String(300), default="")
    birthday: Mapped[dt.date | None] = mapped_column(Date, nullable=True)
    notes: Mapped[str] = mapped_column(Text, default="")
    relation: Mapped[str] = mapped_column(String(20), default="")  # coworker|client|vendor|family|friend|other
    is_starred: Mapped[bool] = mapped_column(Boolean, default=False)  # "favourite"
    is_saved: Mapped[bool] = mapped_column(Boolean, default=True)  # False: "Other contacts"
    has_photo: Mapped[bool] = mapped_column(Boolean, default=False)  # a profile photo instead of a letter avatar
    created_at: Mapped[dt.datetime] = mapped_column(DateTime)


class Thread(Base):
    """A conversation. Its messages carry the flags; the thread carries subject and category."""

    __tablename__ = "threads"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    subject: Mapped[str] = mapped_column(String(300))
    category: Mapped[str] = mapped_column(String(20), default="primary")  # primary|promotions|social|updates|forums
    is_muted: Mapped[bool] = mapped_column(Boolean, default=False)


class Message(Base):
    __tablename__ = "messages"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    thread_id: Mapped[int] = mapped_column(ForeignKey("threads.id"), index=True)
    in_reply_to_id: Mapped[int | None] = mapped_column(ForeignKey("messages.id"), nullable=True)
    from_name: Mapped[str] = mapped_column(String(120))
    from_email: Mapped[str] = mapped_column(String(200))
    to: Mapped[list[str]] = mapped_column(JSON, default=list)
    cc: Mapped[list[str]] = mapped_column(JSON, default=list)
    bcc: Mapped[list[str]] = mapped_column(JSON, default=list)
    subject: Mapped[str] = mapped_column(String(300))
    body: Mapped[str] = mapped_column(Text, default="")  # plain text, paragraphs separated by blank lines
    # The compose editor's formatting, sanitized (services/richtext.py); "" when the message is plain text.
    body_html: Mapped[str] = mapped_column(Text, default="")
    sent_at: Mapped[dt.datetime] = mapped_column(DateTime)
    is_read: Mapped[bool] = mapped_column(Boolean, default=False)
    is_starred: Mapped[bool] = mapped_column(Boolean, default=False)
    is_important: Mapped[bool] = mapped_column(Boolean, default=False)
    in_inbox: Mapped[bool] = mapped_column(Boolean, default=True)
    is_sent: Mapped[bool] = mapped_column(Boolean, default=False)  # sent by me
    is_draft: Mapped[bool] = mapped_column(Boolean, default=False)
    is_spam: Mapped[bool] = mapped_column(Boolean, default=False)
    is_trashed: Mapped[bool] = mapped_column(Boolean, default=False)
    trashed_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)
    snoozed_until: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)
    scheduled_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)
    # When Undo Send last took this message back to Drafts. Gmail shows no trace of an undo, but a grader
    # needs one: without it "undo, fix, send again" and "send it right the first time" end in the same rows.
    undone_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)

    __table_args__ = (
        Index("ix_messages_thread_sent", "thread_id", "sent_at"),
        Index("ix_messages_sent_at", "sent_at"),
    )


class Label(Base):
    """A user label. Nested labels point at their parent; `name` is the leaf name."""

    __tablename__ = "labels"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    color: Mapped[str] = mapped_column(String(20), default="")  # background, e.g. "#16a765"; "" = none
    text_color: Mapped[str] = mapped_column(String(20), default="")
    parent_id: Mapped[int | None] = mapped_column(ForeignKey("labels.id"), nullable=True)
    show_in_list: Mapped[bool] = mapped_column(Boolean, default=True)  # shown in the left rail
    show_in_message_list: Mapped[bool] = mapped_column(Boolean, default=True)  # chips on rows


class MessageLabel(Base):
    __tablename__ = "message_labels"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    message_id: Mapped[int] = mapped_column(ForeignKey("messages.id"), index=True)
    label_id: Mapped[int] = mapped_column(ForeignKey("labels.id"), index=True)


class Attachment(Base):
    """An attachment's metadata; the bytes are generated on download (deterministic)."""

    __tablename__ = "attachments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    message_id: Mapped[int] = mapped_column(ForeignKey("messages.id"), index=True)
    filename: Mapped[str] = mapped_column(String(200))
    mime: Mapped[str] = mapped_column(String(100))
    size: Mapped[int] = mapped_column(Integer)  # bytes


class File(Base):
    """My files (Gmail's "Insert files using Drive"): what compose can attach without an OS file dialog; an
    upload from the computer adds a row too. Like attachments, only the metadata is kept (bytes are generated)."""

    __tablename__ = "files"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    mime: Mapped[str] = mapped_column(String(100))
    size: Mapped[int] = mapped_column(Integer)  # bytes
    modified_at: Mapped[dt.datetime] = mapped_column(DateTime)
    uploaded: Mapped[bool] = mapped_column(Boolean, default=False)  # True: added from the computer


class Invite(Base):
    """A calendar invitation carried by a message (RSVP buttons in the thread)."""

    __tablename__ = "invites"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    message_id: Mapped[int] = mapped_column(ForeignKey("messages.id"), index=True)
    title: Mapped[str] = mapped_column(String(300))
    starts_at: Mapped[dt.datetime] = mapped_column(DateTime)
    ends_at: Mapped[dt.datetime] = mapped_column(DateTime)
    location: Mapped[str] = mapped_column(String(300), default="")
    organizer_email: Mapped[str] = mapped_column(String(200), default="")
    rsvp: Mapped[str | None] = mapped_column(String(10), nullable=True)  # None|yes|no|maybe


class Filter(Base):
    """Settings > Filters and blocked addresses: criteria and actions."""

    __tablename__ = "filters"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    from_contains: Mapped[str] = mapped_column(String(200), default="")
    to_contains: Mapped[str] = mapped_column(String(200), default="")
    subject_contains: Mapped[str] = mapped_column(String(200), default="")
    has_words: Mapped[str] = mapped_column(String(300), default="")
    doesnt_have: Mapped[str] = mapped_column(String(300), default="")
    has_attachment: Mapped[bool] = mapped_column(Boolean, default=False)
    skip_inbox: Mapped[bool] = mapped_column(Boolean, default=False)
    mark_read: Mapped[bool] = mapped_column(Boolean, default=False)
    star: Mapped[bool] = mapped_column(Boolean, default=False)
    apply_label_id: Mapped[int | None] = mapped_column(ForeignKey("labels.id"), nullable=True)
    forward_to: Mapped[str] = mapped_column(String(200), default="")
    delete: Mapped[bool] = mapped_column(Boolean, default=False)
    never_spam: Mapped[bool] = mapped_column(Boolean, default=False)
    mark_important: Mapped[bool | None] = mapped_column(Boolean, nullable=True)  # None: leave alone
    category: Mapped[str] = mapped_column(String(20), default="")  # "" or a category


class BlockedSender(Base):
    __tablename__ = "blocked_senders"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    email: Mapped[str] = mapped_column(String(200))
    blocked_at: Mapped[dt.datetime] = mapped_column(DateTime)


class Template(Base):
    """Saved reply templates ("canned responses")."""

    __tablename__ = "templates"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    subject: Mapped[str] = mapped_column(String(300), default="")
    body: Mapped[str] = mapped_column(Text, default="")


def row_dict(obj: Base) -> dict[str, Any]:
    return {c.key: getattr(obj, c.key) for c in obj.__mapper__.column_attrs}


__all__ = [
    "Base",
    "Account",
    "Contact",
    "Thread",
    "Message",
    "Label",
    "MessageLabel",
    "Attachment",
    "File",
    "Invite",
    "Filter",
    "BlockedSender",
    "Template",
    "Correspondent",
    "PendingReply",
]


class Correspondent(Base):
    """A person of a workspace world who answers mail (domain/correspondence.py): the facts the answers come from
    and how long they take. Empty in the single-app worlds, where nobody answers."""

    __tablename__ = "correspondents"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    email: Mapped[str] = mapped_column(String(200), index=True)  # lower case, as addresses are stored
    name: Mapped[str] = mapped_column(String(120))
    delay_minutes: Mapped[int] = mapped_column(Integer, default=5)  # after the question is sent, on the world's clock
    facts: Mapped[dict] = mapped_column(JSON, default=dict)


class PendingReply(Base):
    """A correspondent's answer to a sent question, written when the question was sent and delivered into the
    conversation once the world's clock reaches `due_at` (apps/mail/services/correspondence.py)."""

    __tablename__ = "pending_replies"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    question_id: Mapped[int] = mapped_column(ForeignKey("messages.id"))
    thread_id: Mapped[int] = mapped_column(ForeignKey("threads.id"))
    from_email: Mapped[str] = mapped_column(String(200))
    from_name: Mapped[str] = mapped_column(String(120))
    subject: Mapped[str] = mapped_column(String(300))
    body: Mapped[str] = mapped_column(Text)
    due_at: Mapped[dt.datetime] = mapped_column(DateTime)
    state: Mapped[str] = mapped_column(String(20), default="pending")  # pending|delivered|dropped (question unsent)
    delivered_id: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the reply's message
