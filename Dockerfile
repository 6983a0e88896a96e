# The embedded FHIR R4 EHR served over HTTP: docker build -t physbench-gym . &&
# docker run -p 8080:8080 physbench-gym  ->  http://localhost:8080/fhir
# The OpenEnv environment server (sessions at ws://localhost:8080/ws):
# docker run -p 8080:8080 -e PHYSBENCH_TOKEN=... physbench-gym \
#     physbench serve-env --host 0.0.0.0 --port 8080
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN useradd --create-home --uid 10001 physbench
WORKDIR /opt/physbench-gym

COPY . .
RUN pip install ".[mcp,openenv]" && rm -rf build

USER physbench
WORKDIR /home/physbench
EXPOSE 8080
STOPSIGNAL SIGINT
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s \
    CMD python -c "import socket; socket.create_connection(('127.0.0.1', 8080), timeout=4).close()"
CMD ["physbench", "serve", "--host", "0.0.0.0", "--port", "8080"]
