# One image for the web, worker, beat and migrate services (see docker-compose.yml).
FROM python:3.11-slim-bookworm

# libseccomp2: the sandbox compiles its system-call filter with libseccomp, which the PyPI
# binding pyseccomp loads with ctypes (it needs the shared library, not a Debian Python
# package). Usually already present in the base image; installed explicitly all the same.
RUN apt-get update \
    && apt-get install -y --no-install-recommends libseccomp2 \
    && rm -rf /var/lib/apt/lists/*

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    GRADER_INSTANCE_DIR=/var/lib/grader

WORKDIR /app
# The locked dependencies first: this layer is rebuilt only when the lock changes.
COPY requirements/run.lock requirements/run.lock
RUN pip install --require-hashes -r requirements/run.lock

COPY pyproject.toml README.md ./
COPY reference reference
COPY grader grader
COPY worker worker
COPY exercises exercises
# Installed in place (as scripts/venv.sh does): the templates, static files and migration
# template are read from the source folder, and the exercise library is found next to it.
RUN pip install --no-deps -e . \
    && mkdir -p /var/lib/grader \
    && chown nobody:nogroup /var/lib/grader

EXPOSE 8000
# The worker runs as root so that the sandbox can drop each student's process to nobody;
# web and beat are given an unprivileged user in docker-compose.yml.
CMD ["gunicorn", "grader.wsgi:app", "--bind", "0.0.0.0:8000", "--workers", "3", "--no-control-socket"]
