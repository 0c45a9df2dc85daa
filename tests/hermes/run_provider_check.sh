#!/usr/bin/env bash
# Hermes loads personaweb's memory provider against a live personaweb
# (tests/hermes/test_provider_live.py). Makes var/hermes-venv with the pinned
# hermes-agent of tests/hermes/requirements.txt (again only when that file changed),
# then runs the test with the project's venv.
set -euo pipefail
cd "$(dirname "$0")/../.."

REQS=tests/hermes/requirements.txt
VENV=${HERMES_VENV:-var/hermes-venv}
STAMP=$VENV/.requirements
PY=${PERSONAWEB_PYTHON:-.venv/bin/python}

if [ ! -x "$VENV/bin/python" ] || ! cmp -s "$REQS" "$STAMP"; then
    started=$(date +%s)
    rm -rf "$VENV"
    python3 -m venv "$VENV"
    if [ "${HERMES_FULL:-0}" = "1" ]; then
        "$VENV/bin/pip" install --quiet --disable-pip-version-check -r "$REQS"
    else
        "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-deps --no-compile -r "$REQS"
    fi
    cp "$REQS" "$STAMP"
    echo "Hermes venv $VENV made in $(( $(date +%s) - started )) s."
fi

HERMES_VENV=$(cd "$VENV" && pwd) "$PY" -m pytest tests/hermes -p no:cacheprovider -q
