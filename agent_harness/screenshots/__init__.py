"""The clones' README screenshots, one script per app: `python -m agent_harness.screenshots.<app>`.

They drive a real Chromium over a served app, so they sit above `apps` (the apps never import the browser
layer); the browser is found the one way everything else finds it, `gym_core.browser.chromium_executable`.
"""
