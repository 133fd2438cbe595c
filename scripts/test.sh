#!/usr/bin/env bash
# Sets up the environments if needed, then runs the whole test suite:
#   1. every lane of the main environment in one pytest run spread over the cores (pytest-xdist;
#      the tests that share a server or a Ray/Spark runtime stay on one worker: tests/conftest.py),
#      while the vLLM environment (.venv-vllm) installs in the background;
#   2. the vLLM tier (tests/vllm_tier) in .venv-vllm;
#   3. a table of seconds per lane and one closing line for the whole run (scripts/test_lanes.py).
# With arguments, only the main environment's pytest, with them: `bash scripts/test.sh -m unit`,
# `bash scripts/test.sh -m "store or ray"`, `bash scripts/test.sh tests/unit/test_parse.py`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
# Bytecode for the checkout, written once here (~1 CPU-s): where PYTHONDONTWRITEBYTECODE is set (as
# on CI machines) nothing writes it, and every process the tests start (engines, budget workers,
# CLI runs, Ray workers) compiled the package from source again, ~0.4 CPU-s apiece. compileall
# writes it whatever that variable says; Python still reads it; a file already current is skipped.
.venv/bin/python -m compileall -q dualgraph bench tests >/dev/null
if [ "$#" -gt 0 ]; then
  exec .venv/bin/python -m pytest -q "$@"
fi
WORKERS=${TEST_WORKERS:-auto}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
bash scripts/setup.sh --vllm >"$out/setup-vllm.log" 2>&1 &
vllm_setup=$!
status=0
start=$SECONDS
.venv/bin/python -m pytest -q -p no:cacheprovider -n "$WORKERS" --dist loadgroup --junitxml="$out/main.xml" || status=1
echo "main environment: $((SECONDS - start)) s"
start=$SECONDS
if wait "$vllm_setup"; then
  .venv-vllm/bin/python -m pytest -q -p no:cacheprovider --junitxml="$out/vllm.xml" tests/vllm_tier || status=1
  echo "vLLM tier: $((SECONDS - start)) s (set-up overlapped the main run)"
else
  echo "error: the vLLM environment could not be set up:" >&2
  tail -n 30 "$out/setup-vllm.log" >&2
  status=1
fi
python3 scripts/test_lanes.py "$out"/*.xml || status=1
exit "$status"
