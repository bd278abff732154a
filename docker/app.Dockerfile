# One cloned app (mail, food or crm): its pages on port 8000, its control API on port 8001.
#   docker build -f docker/app.Dockerfile -t uigym-app .
#   docker run -e UIGYM_GYM_TOKEN=$(openssl rand -hex 16) -p 8000:8000 -p 8001:8001 uigym-app mail
FROM python:3.11-slim
WORKDIR /opt/uigym
COPY pyproject.toml README.md ./
COPY apps apps
COPY seed_data seed_data
COPY gym_core gym_core
COPY tasks tasks
COPY verifiers verifiers
COPY agent_harness agent_harness
COPY bench bench
RUN pip install --no-cache-dir .
ENV UIGYM_HOME=/var/lib/uigym
EXPOSE 8000 8001
ENTRYPOINT ["python", "-m", "apps.serve", "--host", "0.0.0.0", "--port", "8000", "--control-port", "8001"]
CMD ["mail"]
