#!/usr/bin/env bash
# The grading step of the game harness's Classroom action (action.yml): installs bubblewrap and
# the harness of this repository (the ref the workflow's `uses:` names), grades the checked-out
# repository with `harness classroom`, and leaves `result=...` in $GITHUB_OUTPUT. Whatever fails
# here, a report with status `error` and the reason is written, and the step ends normally: the
# reporter then shows the reason, fails the job and gives Classroom no points (never a 0 that
# looks like the student's). HARNESS_BIN skips the installation (a harness already installed).
set -uo pipefail
{
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export HARNESS_ROOT=${HARNESS_ROOT:-$(dirname "$HERE")}
OUT=${GITHUB_OUTPUT:-/dev/stdout}

# A report of status `error`, max_score 0 and the reason, then stop (base64 as the runners write it).
refuse() {
    echo "game harness: $1" >&2
    local message="The autograder could not grade this submission: $1 Nothing you submitted was scored; tell your instructor, who must fix the autograder."
    local json
    json=$(MESSAGE="$message" python3 -c 'import json, os; print(json.dumps({"version": 1, "status": "error", "max_score": 0, "tests": [{"name": "game harness", "status": "error", "score": 0, "message": os.environ["MESSAGE"], "test_code": "", "filename": "", "line_no": 0, "duration": 0}]}))' 2>/dev/null) \
        || json='{"version": 1, "status": "error", "max_score": 0, "tests": [{"name": "game harness", "status": "error", "score": 0, "message": "The autograder could not grade this submission.", "test_code": "", "filename": "", "line_no": 0, "duration": 0}]}'
    printf 'result=%s\n' "$(printf '%s' "$json" | base64 -w0)" >> "$OUT"
    exit 0
}

if [ -z "${GAME:-}" ]; then
    refuse "the workflow names no game (the action's input \`game\`)."
fi
if [ -z "${HARNESS_BIN:-}" ]; then
    # bubblewrap confines the student's program; Ubuntu 24.04 lets no unprivileged program make
    # the user namespaces it needs unless this AppArmor restriction is lifted (the runner is the
    # job's own machine, thrown away after it).
    if ! command -v bwrap >/dev/null 2>&1; then
        sudo apt-get install -y -qq bubblewrap >/dev/null 2>&1 \
            || { sudo apt-get update -qq >/dev/null 2>&1 && sudo apt-get install -y -qq bubblewrap >/dev/null 2>&1; } \
            || echo "bubblewrap could not be installed"
    fi
    if [ "$(cat /proc/sys/kernel/apparmor_restrict_unprivileged_userns 2>/dev/null)" = 1 ]; then
        sudo sysctl -q -w kernel.apparmor_restrict_unprivileged_userns=0 || true
    fi
    VENV=${RUNNER_TEMP:-/tmp}/game-harness-venv
    python3 -m venv "$VENV" && "$VENV/bin/pip" install --quiet --disable-pip-version-check -e "$HARNESS_ROOT" \
        || refuse "the harness could not be installed (see the log of this step)."
    HARNESS_BIN=$VENV/bin/harness
fi
command -v "$HARNESS_BIN" >/dev/null 2>&1 || refuse "the harness is not installed ($HARNESS_BIN)."

options=()
[ -n "${MAX_SCORE:-}" ] && options+=(--points "$MAX_SCORE")
[ -n "${SUBMISSION:-}" ] && options+=(--submission "${GITHUB_WORKSPACE:-.}/$SUBMISSION")
if ! bwrap --ro-bind / / true 2>/dev/null; then
    # Without the sandbox the program sees the runner. As on Gradescope and PrairieLearn, a
    # harness that is root (with setpriv) runs it as an unprivileged user of its own, which can
    # write neither the report nor $GITHUB_OUTPUT; as the runner's own user it could write them,
    # so that is done only when the workflow says so (the action's input allow-unconfined).
    if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
        echo "bubblewrap cannot make its namespaces on this runner: grading with --no-sandbox, each run as an unprivileged user"
    elif [ "${ALLOW_UNCONFINED:-}" = true ]; then
        echo "bubblewrap cannot make its namespaces on this runner: grading with --no-sandbox as the runner's own user (allow-unconfined), so the program could have written its own report"
    else
        refuse "bubblewrap cannot make its namespaces on this runner, and the program would run unconfined as the runner's own user, able to write the report Classroom reads. Grade on a runner where bwrap runs, or set the action's input allow-unconfined: true to grade unconfined anyway (the points are then only as sure as the student's good faith)."
    fi
    options+=(--no-sandbox)
fi
before=$(grep -c "^result=" "$OUT" 2>/dev/null || true)
"$HARNESS_BIN" classroom "$GAME" "${options[@]}"
status=$?
after=$(grep -c "^result=" "$OUT" 2>/dev/null || true)
# 0 (every case passed), 1 (some failed) and 2 (not graded, the reason in the report) all wrote
# the report; the reporter judges the job from it.
if [ "$OUT" != /dev/stdout ] && [ "$after" = "$before" ]; then
    refuse "the harness stopped (exit status $status) without a report."
fi
exit 0
}
