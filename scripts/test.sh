#!/usr/bin/env bash
# Sets up the environments if needed, then runs the whole test suite: the main environment's
# tests, then the vLLM tier (tests/vllm_tier) in .venv-vllm. With arguments, only the main run, with them.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
if [ "$#" -gt 0 ]; then
  exec .venv/bin/python -m pytest -q "$@"
fi
.venv/bin/python -m pytest -q
bash scripts/setup.sh --vllm
exec .venv-vllm/bin/python -m pytest -q -p no:cacheprovider tests/vllm_tier
