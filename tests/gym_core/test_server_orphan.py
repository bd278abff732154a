"""An app server started by the gym never outlives the gym's process, even one killed outright."""

import os
import subprocess
import sys
import time

import psutil

PARENT = """
import os, sys
from gym_core.server import AppServer
srv = AppServer("toy", module="tests.fixture_apps.toy").start()
print(srv.proc.pid, flush=True)
sys.stdin.readline()
os._exit(0)  # no cleanup: as if the process were killed
"""


def test_app_server_exits_when_its_parent_dies():
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, env=dict(os.environ))
    child = int(parent.stdout.readline())
    assert psutil.pid_exists(child)
    parent.stdin.write("\n")
    parent.stdin.flush()
    parent.wait(10)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if not psutil.pid_exists(child) or psutil.Process(child).status() == psutil.STATUS_ZOMBIE:
            break
        time.sleep(0.2)
    else:
        psutil.Process(child).kill()
        raise AssertionError("the app server outlived its parent")
