#!/usr/bin/env bash
# dockerode's own test suite at API 1.25 against the daemon at SOCK; mocha's JSON report to OUT.
#   bash run-dockerode.sh DOCKERODE_CHECKOUT SOCK OUT [MOCHA ARGS...]   (npm install in the checkout first)
set -uo pipefail
CHECKOUT=$1 SOCK=$2 OUT=$3
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$CHECKOUT"
DOCKER_HOST="unix://$SOCK" DOCKER_TEST_API_VERSION=1.25 ./node_modules/mocha/bin/mocha.js --exit --require "$HERE/at-api-version.mjs" \
  -R json --reporter-option output="$OUT" "${@:4}" test/*.js
