# One cloned app (mail, food or crm): its pages on port 8000, its control API on port 8001.
#   docker build -f docker/app.Dockerfile -t uigym-app .
#   docker run --rm -e UIGYM_GYM_TOKEN=$(openssl rand -hex 16) -p 127.0.0.1:8001:8000 -p 127.0.0.1:9001:8001 uigym-app mail
# (podman: the same commands with `podman`; scripts/containers.sh builds it on machines without a registry.)
FROM python:3.11-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore
WORKDIR /opt/uigym
# Dependencies first, from pyproject.toml alone, so a source change never reinstalls them. A clone's server
# imports only these of uigym's dependencies (pydantic for its tools; no Playwright, no numpy). The optional secrets carry a
# pip.conf and CA bundle where the build host needs them (scripts/containers.sh passes them; docker and
# podman build without them).
COPY pyproject.toml docker/requirements.py ./
RUN --mount=type=secret,id=pip_conf --mount=type=secret,id=pip_ca \
    if [ -s /run/secrets/pip_conf ]; then export PIP_CONFIG_FILE=/run/secrets/pip_conf; fi; \
    python requirements.py pyproject.toml --only flask,sqlalchemy,faker,pillow,pydantic,nh3,babel > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt && rm /tmp/requirements.txt requirements.py
COPY domain domain
COPY seed_data seed_data
COPY apps apps
ENV UIGYM_HOME=/var/lib/uigym
EXPOSE 8000 8001
# Pages on 8000, the control API on 8001 (its own listener: no page can address it).
# apps.serve handles SIGTERM itself (a `docker stop` returns at once, not after 10 s and a SIGKILL).
ENTRYPOINT ["python", "-m", "apps.serve", "--host", "0.0.0.0", "--port", "8000", "--control-port", "8001"]
CMD ["mail"]
