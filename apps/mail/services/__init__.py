"""Mail's service layer: the operations a user performs, as functions over the world's session.

The UI's JSON views (apps/mail/views/actions.py, manage.py) and the tools (apps/mail/tools.py) call these, so a
rule (a validation, a side effect) lives once. Every function validates before it writes and NEVER commits:
the caller does (a view after the call, the tool wrapper automatically), so a refused operation changes
nothing. A refusal is a `ServiceError` (a ToolError, so a tool call reports it as is; a view answers it as
a JSON error with its HTTP status).

Modules: `errors`, `conversations` (flags, folders, labels on conversations, snooze, block, empty, RSVP),
`compose` (send, reply, forward, drafts, schedule, Undo Send), `files` (My Files, attachments), `labels`, `filters`, `account` (settings, contacts),
`reading` (search, lists, a conversation: what the tools read).
"""
