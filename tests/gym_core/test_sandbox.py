"""The agent's page reaches the app's own pages and nothing else, by any channel (issue 15).

The toy app runs in this process, its pages and its control API on two loopback ports, the control API
wrapped so the test sees every request it gets. A second HTTP server (plus a UDP socket on the same port
number, for WebRTC's STUN) is the outside world. Each channel is tried from page JavaScript in the env's
own browser, at the outside server and at the control port; each must leave both untouched.
"""

from __future__ import annotations

import asyncio
import secrets
import socket
import socketserver
import threading

import pytest
from werkzeug.serving import make_server

from gym_core import AsyncUIEnv
from gym_core.server import AppServer
from tests.fixture_apps import toy

APP = "sandbox-toy"


class Recorder:
    """Whatever reached a port: TCP connections, HTTP requests, UDP datagrams."""

    def __init__(self):
        self.events: list[str] = []
        self._lock = threading.Lock()

    def add(self, what: str) -> None:
        with self._lock:
            self.events.append(what)

    def clear(self) -> None:
        with self._lock:
            self.events.clear()


class _Outside(socketserver.ThreadingTCPServer):
    """Records every connection and the bytes it brought; answers anything with a small HTTP 200."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, rec: Recorder):
        class Handler(socketserver.BaseRequestHandler):
            def handle(self):
                self.request.settimeout(1.0)
                data = b""
                try:
                    while b"\r\n\r\n" not in data and len(data) < 65536:
                        chunk = self.request.recv(4096)
                        if not chunk:
                            break
                        data += chunk
                except OSError:
                    pass
                if not data:
                    # Chromium opens a socket to a navigation's origin while the navigation starts, before
                    # the env's guard fails the request: nothing is ever sent on it (see the README).
                    rec.add("tcp connect, no bytes")
                    return
                rec.add("tcp " + data.split(b"\r\n", 1)[0].decode("latin-1")[:120])
                try:
                    self.request.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                                         b"Access-Control-Allow-Origin: *\r\nContent-Length: 9\r\n\r\n<p>out</p>")
                except OSError:
                    pass

        super().__init__(("127.0.0.1", 0), Handler)


class _RecordingWSGI:
    def __init__(self, app, rec: Recorder):
        self.app, self.rec = app, rec

    def __call__(self, environ, start_response):
        self.rec.add(f"control {environ['REQUEST_METHOD']} {environ.get('PATH_INFO')}")
        return self.app(environ, start_response)


@pytest.fixture(scope="module")
def world(runtime, tmp_path_factory):
    """(outside recorder, control recorder, outside origin, control origin), the toy app registered in the
    session's runtime as APP."""
    token = secrets.token_hex(8)
    app = toy.create_app({"GYM_TOKEN": token, "UIGYM_HOME": str(tmp_path_factory.mktemp("sandbox-home"))})
    control_rec, outside_rec = Recorder(), Recorder()
    servers = [make_server("127.0.0.1", 0, app, threaded=True),
               make_server("127.0.0.1", 0, _RecordingWSGI(app.extensions["uigym_control"], control_rec), threaded=True)]
    outside = _Outside(outside_rec)
    servers.append(outside)
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", outside.server_address[1]))
    udp.settimeout(0.2)
    stop = threading.Event()

    def read_udp():
        while not stop.is_set():
            try:
                data, _ = udp.recvfrom(4096)
                outside_rec.add(f"udp {len(data)} bytes")
            except (socket.timeout, OSError):
                pass

    for s in servers:
        threading.Thread(target=s.serve_forever, daemon=True).start()
    threading.Thread(target=read_udp, daemon=True).start()
    page_url = f"http://127.0.0.1:{servers[0].server_port}"
    control_url = f"http://127.0.0.1:{servers[1].server_port}"
    runtime.servers.add(AppServer(APP, url=page_url, control_url=control_url, token=token))
    yield outside_rec, control_rec, f"http://127.0.0.1:{outside.server_address[1]}", control_url
    stop.set()
    for s in servers:
        s.shutdown()
    udp.close()


@pytest.fixture(scope="module")
async def env(runtime, world):
    e = AsyncUIEnv(APP, runtime=runtime)
    await e.reset(seed=0)
    yield e
    await e.close()


def _webrtc(port: int) -> str:
    ice = (f"[{{urls: 'stun:127.0.0.1:{port}'}}, {{urls: 'turn:127.0.0.1:{port}?transport=tcp', username: 'u', "
           f"credential: 'p'}}, {{urls: 'turn:127.0.0.1:{port}?transport=udp', username: 'u', credential: 'p'}}]")
    make = f"(C) => {{ const pc = new C({{iceServers: {ice}}}); pc.createDataChannel('x'); " \
           f"pc.createOffer().then(o => pc.setLocalDescription(o)); window.__pcs = (window.__pcs || []).concat(pc); }}"
    # The page's own constructor, and a pristine one from a fresh iframe.
    return (f"(() => {{ const make = {make}; const out = []; "
            f"try {{ make(window.RTCPeerConnection || window.webkitRTCPeerConnection); }} catch (e) {{ out.push(String(e)); }} "
            f"const f = document.createElement('iframe'); document.body.append(f); "
            f"try {{ make(f.contentWindow.RTCPeerConnection); }} catch (e) {{ out.push(String(e)); }} return out; }})()")


# name -> JS run in the app's page; {u} is the target origin, {port} its port.
CHANNELS = {
    "fetch": "fetch('{u}/fetch', {{mode: 'no-cors'}}).catch(() => 0)",
    "xhr": "(() => {{ const x = new XMLHttpRequest(); x.open('POST', '{u}/xhr'); x.send('a'); }})()",
    "send_beacon": "navigator.sendBeacon('{u}/beacon', 'a')",
    "form": "(() => {{ const f = document.createElement('form'); f.method = 'post'; f.action = '{u}/form'; "
            "document.body.append(f); f.submit(); }})()",
    "navigation": "location.href = '{u}/navigate'",
    "window_open": "window.open('{u}/popup')",
    "target_blank": "(() => {{ const a = document.createElement('a'); a.href = '{u}/blank'; a.target = '_blank'; "
                    "document.body.append(a); a.click(); }})()",
    "form_target_blank": "(() => {{ const f = document.createElement('form'); f.action = '{u}/formblank'; "
                         "f.target = '_blank'; document.body.append(f); f.submit(); }})()",
    "websocket": "(() => {{ try {{ new WebSocket('{u}/ws'.replace('http', 'ws')); }} catch (e) {{}} }})()",
    "event_source": "(() => {{ try {{ new EventSource('{u}/sse'); }} catch (e) {{}} }})()",
    "worker": "(() => {{ const src = `fetch('{u}/worker', {{mode: 'no-cors'}})`; "
              "try {{ new Worker(URL.createObjectURL(new Blob([src]))); }} catch (e) {{}} "
              "try {{ new Worker('{u}/worker.js'); }} catch (e) {{}} }})()",
    "shared_worker": "(() => {{ const src = `fetch('{u}/shared', {{mode: 'no-cors'}})`; "
                     "try {{ new SharedWorker(URL.createObjectURL(new Blob([src]))); }} catch (e) {{}} }})()",
    "service_worker": "(() => {{ try {{ navigator.serviceWorker.register('/sw.js').catch(() => 0); }} catch (e) {{}} }})()",
    "webrtc": "__WEBRTC__",
    "prefetch_preconnect": "(() => {{ for (const rel of ['prefetch', 'preconnect', 'dns-prefetch', 'preload', "
                           "'prerender', 'modulepreload']) {{ const l = document.createElement('link'); l.rel = rel; "
                           "l.as = 'fetch'; l.href = '{u}/' + rel; document.head.append(l); }} "
                           "const s = document.createElement('script'); s.type = 'speculationrules'; "
                           "s.textContent = JSON.stringify({{prefetch: [{{source: 'list', urls: ['{u}/spec']}}]}}); "
                           "document.head.append(s); }})()",
    "subresources": "(() => {{ const i = new Image(); i.src = '{u}/img'; const f = document.createElement('iframe'); "
                    "f.src = '{u}/frame'; document.body.append(f); const s = document.createElement('script'); "
                    "s.src = '{u}/script.js'; document.head.append(s); const st = document.createElement('div'); "
                    "st.style.background = 'url({u}/css)'; document.body.append(st); }})()",
}


async def _try(env: AsyncUIEnv, scripts: list[str]) -> None:
    page = env.page
    await page.goto(env.server.url + "/", wait_until="load")
    for js in scripts:
        try:
            await page.evaluate(js)
        except Exception:  # noqa: BLE001 - a channel that throws in the page is a blocked one; the recorders decide
            pass
    await asyncio.sleep(0.8)  # long enough for a request, a connect or a STUN retry (~100 ms apart)


@pytest.mark.parametrize("channel", list(CHANNELS))
async def test_channel_is_blocked(env, world, channel):
    """The channel tried at the outside server and at the control port at once: neither gets a byte."""
    outside_rec, control_rec, outside_url, control_url = world
    scripts = []
    for url in (outside_url, control_url):
        js = CHANNELS[channel]
        scripts.append(_webrtc(int(url.rsplit(":", 1)[1])) if js == "__WEBRTC__" else js.format(u=url))
    outside_rec.clear()
    control_rec.clear()
    await _try(env, scripts)
    reached = [e for e in outside_rec.events if e != "tcp connect, no bytes"] + control_rec.events
    assert reached == []
    # The env still shows one tab, on the app's own origin or on the error page of a blocked navigation.
    assert [p.url.startswith((env.server.url + "/", "chrome-error:")) for p in env.context.pages] == [True]


async def test_the_app_itself_is_reachable(env, world):
    """The blocked channels above are blocked, not broken: the same calls at the page's origin work."""
    page = env.page
    await page.goto(env.server.url + "/", wait_until="load")
    assert await page.evaluate("fetch('/second').then(r => r.status)") == 200
    assert await page.evaluate("(async () => { const x = new XMLHttpRequest(); x.open('GET', '/second', false); "
                               "x.send(); return x.status; })()") == 200


@pytest.mark.parametrize("path", ["/_gym/health", "//_gym/health", "/%5Fgym/health", "/_gym%2Fhealth",
                                  "/_gym/worlds/x/state", "/health", "/worlds/x/state"])
async def test_control_paths_on_the_page_port_are_404(env, world, path):
    """The spellings that got past the old path guard (Werkzeug routed them to the control API)."""
    _, control_rec, _, _ = world
    await env.page.goto(env.server.url + "/", wait_until="load")
    control_rec.clear()
    status = await env.page.evaluate(f"fetch(location.origin + {path!r}).then(r => r.status)")
    assert status == 404 and control_rec.events == []


async def test_page_js_cannot_read_or_replace_the_world_binding(env, world):
    page = env.page
    await page.goto(env.server.url + "/", wait_until="load")
    cookies = await env.context.cookies()
    binding = [c for c in cookies if c["name"] == "uigym_world"]
    assert len(binding) == 1 and binding[0]["httpOnly"] and binding[0]["sameSite"] == "Strict"
    assert binding[0]["value"] not in await page.evaluate("document.cookie")
    assert "uigym_world" not in await page.evaluate("document.cookie")
    # Overwriting the HttpOnly cookie from JS is refused by the browser: the page still shows this world.
    await page.evaluate("document.cookie = 'uigym_world=other; path=/'")
    assert await page.evaluate("fetch('/').then(r => r.status)") == 200
    assert [c["value"] for c in await env.context.cookies() if c["name"] == "uigym_world"] == [binding[0]["value"]]
    # A cookie JS adds on a narrower path is sent first and is refused, never followed to another world.
    await page.evaluate("document.cookie = 'uigym_world=other; path=/second'")
    status, text = await page.evaluate("fetch('/second').then(async r => [r.status, await r.text()])")
    assert status == 403 and "did not sign" in text


async def test_downloads_land_nowhere(env, world, tmp_path):
    page = env.page
    await page.goto(env.server.url + "/", wait_until="load")
    async with page.expect_download() as info:
        await page.evaluate("(() => { const a = document.createElement('a'); "
                            "a.href = URL.createObjectURL(new Blob(['secret'])); a.download = 'x.txt'; "
                            "document.body.append(a); a.click(); })()")
    download = await info.value
    assert await download.failure() is not None  # cancelled by the browser: no file was written


async def test_a_new_tab_is_guarded_by_the_browser_too(runtime, env, world):
    """The browser-wide document guard (gym_core/browser.py), with neither the env's per-tab guard nor
    the app's CSP in the way (a tab nobody attached to, as a popup's first load would be): in an env's
    context it cannot load another origin; the app's own pages still load there; a context that is no
    env's (a test's annotator) is not the guard's business."""
    outside_rec, control_rec, outside_url, control_url = world
    ctx = await (await runtime.browser()).new_context()
    try:
        bare = await ctx.new_page()
        ctx_id = (await (await ctx.new_cdp_session(bare)).send("Target.getTargetInfo"))["targetInfo"]["browserContextId"]
        runtime.guarded_contexts.add(ctx_id)  # as an env's context is
        outside_rec.clear()
        control_rec.clear()
        tab = await ctx.new_page()
        for url in (outside_url + "/tab", control_url + "/health"):
            with pytest.raises(Exception, match="ERR_BLOCKED_BY_CLIENT"):
                await tab.goto(url)
        assert [e for e in outside_rec.events if e != "tcp connect, no bytes"] + control_rec.events == []
        ok = await ctx.new_page()  # (the blocked tab is still committing its error page)
        assert (await ok.goto(env.server.url + "/_shared/static/parked.html")).status == 200
        runtime.guarded_contexts.discard(ctx_id)
        assert (await bare.goto(outside_url + "/not-an-env")).status == 200
    finally:
        runtime.guarded_contexts.discard(ctx_id)
        await ctx.close()
