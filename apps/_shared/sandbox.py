"""The Content-Security-Policy every page of every clone is sent with: the page may talk to its own
origin (scheme, host and port) and nothing else, by any channel the browser polices.

  connect-src 'self'   fetch, XHR, WebSocket, EventSource, sendBeacon
  default-src 'self'   everything without its own directive: prefetch, manifests, media
  form-action 'self'   form submissions
  worker-src 'none'    Worker, SharedWorker, ServiceWorker (no clone uses one; a worker is a second
                       script context the env's DevTools guard would have to follow)
  frame-src/child-src/object-src 'none'   no clone embeds anything
  sandbox (no allow-popups)   window.open and target=_blank open nothing, so no new tab escapes the
                       env's per-tab request guard
  base-uri/frame-ancestors 'none'

Scripts: 'self' plus the request's nonce, so only the app's own files and its own inline script (CRM's
`window.CRM` boot data) run, never markup an agent typed into the world. Styles keep 'unsafe-inline': the
templates use style attributes and the env injects a style element (no motion); a style can fetch only
through img-src/font-src, which are 'self' (plus data: and blob:, which never leave the browser).

This is one of two locks: the env also checks every request of its tab in the browser (gym_core/env.py)
and Chromium's flags close what no CSP governs (WebRTC, see gym_core/browser.py).
"""

from __future__ import annotations

import secrets

from flask import Flask, g

_POLICY = (
    "default-src 'self'; script-src {script}; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; media-src 'self'; "
    "worker-src 'none'; child-src 'none'; frame-src 'none'; object-src 'none'; manifest-src 'none'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'; "
    "sandbox allow-scripts allow-forms allow-same-origin allow-modals allow-downloads"
)


def csp_nonce() -> str:
    """This request's script nonce: `<script nonce="{{ csp_nonce() }}">` in a template."""
    if "csp_nonce" not in g:
        g.csp_nonce = secrets.token_urlsafe(16)
    return g.csp_nonce


def content_security_policy(nonce: str | None) -> str:
    """The policy; `nonce` None: inline scripts allowed (test fixture apps written with on* handlers)."""
    return _POLICY.format(script="'self' 'unsafe-inline'" if nonce is None else f"'self' 'nonce-{nonce}'")


def init_sandbox(app: Flask, inline_scripts: bool = False) -> None:
    app.jinja_env.globals["csp_nonce"] = csp_nonce

    @app.after_request
    def _csp(resp):
        resp.headers["Content-Security-Policy"] = content_security_policy(None if inline_scripts else csp_nonce())
        return resp
