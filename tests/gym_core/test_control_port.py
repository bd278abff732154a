"""`python -m apps.serve` serves a clone's pages and its control API on two ports; the gym finds both
from the ready line, or from `--app-url APP=PAGE_URL,CONTROL_URL` for a clone run by hand."""

from __future__ import annotations

import httpx
import pytest

from gym_core.server import AppServer, ServerPool, split_app_url


def test_the_control_api_answers_only_on_its_own_port():
    srv = AppServer("toy", module="tests.fixture_apps.toy", token="port-test").start()
    try:
        assert srv.url != srv.control_url
        ok = {"X-Gym-Token": "port-test"}
        assert httpx.get(srv.control_url + "/health", headers=ok).json()["app"] == "toy"
        assert httpx.get(srv.control_url + "/health").status_code == 403
        for path in ("/_gym/health", "//_gym/health", "/%5Fgym/health", "/_gym%2Fhealth", "/health"):
            assert httpx.get(srv.url + path, headers=ok).status_code == 404, path
        r = httpx.post(srv.url + "/_gym/worlds/x/reset", headers=ok, json={})
        assert r.status_code == 404
    finally:
        srv.stop()


def test_app_urls_name_both_origins():
    assert split_app_url("http://mail:8000, http://mail:8001/") == ("http://mail:8000", "http://mail:8001")
    for bad in ("http://mail:8000", "http://a,http://b,http://c", "mail:8000,mail:8001", ""):
        with pytest.raises(ValueError, match="comma-separated"):
            split_app_url(bad)
    pool = ServerPool(urls={"mail": "http://127.0.0.1:5001,http://127.0.0.1:5002"}, token="t")
    srv = pool.get("mail")  # a running clone: nothing is started
    assert (srv.url, srv.control_url, srv.external, srv.proc) == ("http://127.0.0.1:5001", "http://127.0.0.1:5002",
                                                                  True, None)
