# The embedded FHIR R4 EHR served over HTTP: docker build -t physbench-gym . &&
# docker run -p 8080:8080 physbench-gym  ->  http://localhost:8080/fhir
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN useradd --create-home --uid 10001 physbench
WORKDIR /opt/physbench-gym

COPY . .
RUN pip install . && rm -rf build

USER physbench
WORKDIR /home/physbench
EXPOSE 8080
STOPSIGNAL SIGINT
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s \
    CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8080/fhir/metadata', timeout=4)"
CMD ["physbench", "serve", "--host", "0.0.0.0", "--port", "8080"]
