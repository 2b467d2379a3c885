#!/usr/bin/env bash
# The five games' whole check, too long for CI (about 30 minutes on 2 cores): run it after
# changing a game's spec, cases, reference or readers, and before a release.
#  1. every sample submission gets what examples/GAME/expected.yaml says (`harness samples`):
#     correct ones 100 %, each seeded bug exactly the items it touches, each liberty nothing;
#  2. each game's case suite judged by a sample of mutants of its reference (`harness audit
#     --sample N`, N as many mutants as the game has graded items, two or three per item): a
#     graded item whose cases kill none fails; the charging precision is printed;
#  3. a population of styled programs per game (`harness audit --styles N`, the reference redrawn
#     in styles its handout allows): every one must score 100 %.
# Usage: bash bench/games.sh [STYLES]   (STYLES: styled programs per game, 20 unless given)
# Exit status: 0 when every step passes; the first failing step's status otherwise, after all ran.
set -uo pipefail
cd "$(dirname "$0")/.."
styles="${1:-20}"
harness=.venv/bin/harness
status=0
step() { "$@" || { code=$?; echo "FAILED ($code): $*"; [ "$status" = 0 ] && status=$code; }; }
step "$harness" samples connect flip reversi silver-dollar strings-and-coins
for sample in reversi:22 connect:33 flip:11 silver-dollar:12 strings-and-coins:18; do
  game="${sample%%:*}"
  step "$harness" audit "$game" --sample "${sample##*:}" -q -o "reports/audit-$game"
  step "$harness" audit "$game" --styles "$styles" --seed 6 -q -o "reports/audit-$game"
done
exit "$status"
