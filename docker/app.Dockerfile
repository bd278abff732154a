# One cloned app (mail, food or crm) behind its control API.
#   docker build -f docker/app.Dockerfile -t uigym-app .
#   docker run -e UIGYM_GYM_TOKEN=secret -p 8000:8000 uigym-app mail
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
EXPOSE 8000
ENTRYPOINT ["python", "-m", "apps.serve", "--host", "0.0.0.0", "--port", "8000"]
CMD ["mail"]
