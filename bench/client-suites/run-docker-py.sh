#!/usr/bin/env bash
# docker-py's own integration suite at API 1.25 against the daemon at SOCK; junit XML to OUT.
#   bash run-docker-py.sh DOCKER_PY_CHECKOUT SOCK OUT [PYTEST ARGS...]
# Its credentials tests are left out: they need docker-credential helpers, never reach the daemon, and
# one of them replaces os.environ for good (DOCKER_HOST is gone for every later test).
set -uo pipefail
CHECKOUT=$1 SOCK=$2 OUT=$3
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$CHECKOUT"
PYTHONPATH="$CHECKOUT:$HERE:$HERE/python-stand-ins" DOCKER_HOST="unix://$SOCK" DOCKER_TEST_API_VERSION=1.25 \
  python3 -m pytest tests/integration -p pytest_deadline -p no:cacheprovider -q -rN --junitxml="$OUT" \
  --ignore=tests/integration/credentials "${@:4}"
