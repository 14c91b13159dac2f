# The referee: gunicorn serving app:create_app() as a non-root user, on the compiled engine.
#   docker build -t card-game-referee .
#   docker run --rm -p 8000:8000 card-game-referee
# /readyz's `engines` (and the startup log) say which engine runs (docs/compiled.md).

# Build stage: the compiled engine needs a C compiler, which the runtime image does not carry.
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /srv/referee
# the dependencies (mypyc type-checks the compiled modules against them) and mypyc itself
COPY pyproject.toml ./
RUN mkdir -p app engine ai benchmarks \
    && touch app/__init__.py engine/__init__.py ai/__init__.py benchmarks/__init__.py \
    && pip install '.[compile]' \
    && pip uninstall -y card-game-referee \
    && rm -rf app engine ai benchmarks build *.egg-info
COPY engine ./engine
COPY scripts/compile.py ./scripts/
# one line says which engine was built; a failed build leaves none, and the image runs pure.
# The extension modules are gathered under /out with their paths (engine/.../*.so).
RUN python scripts/compile.py --if-possible \
    && mkdir -p /out \
    && find engine -name '*.so' -exec cp --parents {} /out/ \;

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PORT=8000

WORKDIR /srv/referee

# dependencies first (a layer that changes only with pyproject.toml)
COPY pyproject.toml ./
RUN mkdir -p app engine ai benchmarks \
    && touch app/__init__.py engine/__init__.py ai/__init__.py benchmarks/__init__.py \
    && pip install . \
    && pip uninstall -y card-game-referee \
    && rm -rf app engine ai benchmarks build *.egg-info

COPY engine ./engine
# the compiled engine, beside its sources (nothing when the build stage could not build it)
COPY --from=build /out/ ./
COPY ai ./ai
COPY app ./app
COPY openapi.yaml gunicorn.conf.py ./
# the rule texts GET /v1/rules/{clause} answers from (app/rules.py)
COPY docs/rulings.md ./docs/
COPY docs/architectura/rules.md ./docs/architectura/
COPY docs/fora-de-prumo/rules.md docs/fora-de-prumo/rulings.md ./docs/fora-de-prumo/
RUN useradd --system --uid 10001 --home-dir /srv/referee --shell /usr/sbin/nologin referee \
    && python -c "import app, engine.architectura as a; a.builtin_catalogs(); print(app.engine_builds())"

USER referee
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
    CMD python -c "import os, urllib.request; urllib.request.urlopen(f'http://127.0.0.1:{os.environ.get(\"PORT\", \"8000\")}/healthz', timeout=2)" || exit 1
CMD ["gunicorn", "-c", "gunicorn.conf.py", "app:create_app()"]
