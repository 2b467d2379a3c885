#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder's image (Ubuntu); the
# zip's contents are then in /autograder/source. It installs the toolchains the submissions
# need, bubblewrap for the sandbox, and the harness into its own virtual environment.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends openjdk-17-jdk-headless g++ bubblewrap util-linux \
    python3 python3-venv python3-pip ca-certificates
# The harness needs Python 3.11 or newer; Ubuntu 22.04's python3 is 3.10, so take 3.11 there.
PYTHON=python3
if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    apt-get install -y --no-install-recommends python3.11 python3.11-venv
    PYTHON=python3.11
fi
"$PYTHON" -m venv /autograder/venv
/autograder/venv/bin/pip install --quiet --upgrade pip
/autograder/venv/bin/pip install --quiet -e /autograder/source
# Check once that the harness starts and finds the game (a broken zip fails here, at upload).
HARNESS_ROOT=/autograder/source /autograder/venv/bin/harness gradescope --help > /dev/null
test -s /autograder/source/autograder-game.txt
