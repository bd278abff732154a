# A rollout worker: uigym + Debian's Chromium; runs evals, or joins a Ray cluster.
#   docker build -f docker/worker.Dockerfile -t uigym-worker .
#   docker run uigym-worker uigym eval --agent oracle --tasks 'mail/*' --out /runs/oracle
FROM python:3.11-slim
RUN apt-get update && apt-get install -y --no-install-recommends chromium fonts-noto-color-emoji \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /opt/uigym
COPY pyproject.toml README.md ./
COPY apps apps
COPY seed_data seed_data
COPY gym_core gym_core
COPY tasks tasks
COPY verifiers verifiers
COPY agent_harness agent_harness
COPY bench bench
ARG EXTRAS=""
RUN pip install --no-cache-dir ".${EXTRAS:+[$EXTRAS]}"
ENV UIGYM_HOME=/var/lib/uigym UIGYM_CHROMIUM=/usr/bin/chromium
VOLUME /runs
CMD ["uigym", "--help"]
