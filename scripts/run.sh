#!/usr/bin/env bash
# The main job: set up .venv, list the exercises and print the reference alpha-beta
# trace of the AIMA Figure 5.2 tree.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh run
.venv/bin/grader exercises list
echo
.venv/bin/grader exercises trace aima-fig5.2-alphabeta
