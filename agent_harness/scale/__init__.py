"""Running episodes beyond one event loop: worker processes (procs.py) and Ray actors (ray_backend.py)."""
