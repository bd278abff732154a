# A rollout worker: uigym + Debian's Chromium; runs evals, or joins a Ray cluster.
#   docker build -f docker/worker.Dockerfile -t uigym-worker .          (--build-arg EXTRAS=model,ray for more)
#   docker run --rm -v "$PWD/runs:/runs" uigym-worker uigym eval --agent oracle --tasks 'mail/*' --out /runs/oracle
FROM python:3.11-slim-bookworm
# libatomic1: Playwright's bundled Node (its driver) needs it; Debian's chromium does not pull it in.
RUN apt-get update && apt-get install -y --no-install-recommends chromium libatomic1 fonts-noto-color-emoji \
    && rm -rf /var/lib/apt/lists/*
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore
WORKDIR /opt/uigym
# Dependencies first, from pyproject.toml alone (see app.Dockerfile); then the source, installed editable
# (one copy of it in the image, no reinstall of anything else).
COPY pyproject.toml docker/requirements.py ./
ARG EXTRAS=""
RUN --mount=type=secret,id=pip_conf --mount=type=secret,id=pip_ca \
    if [ -s /run/secrets/pip_conf ]; then export PIP_CONFIG_FILE=/run/secrets/pip_conf; fi; \
    python requirements.py pyproject.toml --extras "$EXTRAS" > /tmp/requirements.txt \
    && pip install "setuptools>=68" wheel -r /tmp/requirements.txt && rm /tmp/requirements.txt requirements.py
# Chromium's headless shell, which headless runs launch (gym_core/browser.py: ~30% faster an episode than the
# full browser); a layer of its own after the dependencies', so adding it rebuilt nothing above.
RUN apt-get update && apt-get install -y --no-install-recommends chromium-headless-shell \
    && rm -rf /var/lib/apt/lists/*
COPY domain domain
COPY seed_data seed_data
COPY grading grading
COPY tasks tasks
COPY gym_core gym_core
COPY bench bench
COPY experiments experiments
COPY apps apps
COPY agent_harness agent_harness
# README.md last: pyproject.toml names it as the readme, and it changes more often than the code.
COPY README.md ./
RUN pip install --no-deps --no-build-isolation -e .
# No UIGYM_CHROMIUM: headless, the worker finds /usr/bin/chromium-headless-shell, headed /usr/bin/chromium.
ENV UIGYM_HOME=/var/lib/uigym
VOLUME /runs
CMD ["uigym", "--help"]
