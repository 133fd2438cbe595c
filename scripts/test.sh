#!/usr/bin/env bash
# Sets up the environments if needed, then runs the whole test suite:
#   1. every lane of the main environment in one pytest run spread over the cores (pytest-xdist;
#      the tests that share a server or a Ray/Spark runtime stay on one worker: tests/conftest.py),
#      while the vLLM environment (.venv-vllm) installs in the background and then
#   2. the vLLM tier (tests/vllm_tier) runs in .venv-vllm, beside the main run;
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
# OpenMP threads that wait (torch's: MiniLM, the aligner, the vLLM engine) sleep instead of spinning.
# The suite keeps both cores busy, so a spinning thread takes a core from work: beside one busy
# process the MiniLM and aligner tests took 65 and 60 s with libgomp's default (spin, then sleep)
# and 51 and 48 s with PASSIVE. Every process the tests start inherits it. (Never ACTIVE on a
# shared box: its threads spin without end, and a run of the suite crawled at a load of 17.)
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE}
if [ "$#" -gt 0 ]; then
  exec .venv/bin/python -m pytest -q "$@"
fi
WORKERS=${TEST_WORKERS:-auto}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# The vLLM tier runs beside the main tier, as soon as its environment is ready: the main tier's
# Ray group holds one xdist worker for about 600 s of which about 230 are CPU (it waits on jobs,
# Serve and timeouts), and the tier's engine uses that idle core. Its output is printed after.
(
  if bash scripts/setup.sh --vllm >"$out/setup-vllm.log" 2>&1; then
    begun=$SECONDS
    rc=0
    # its own local Ray: never the `ray start` cluster a main-tier test may have up at that moment
    RAY_ADDRESS=local .venv-vllm/bin/python -m pytest -q -p no:cacheprovider --junitxml="$out/vllm.xml" \
      tests/vllm_tier >"$out/vllm.log" 2>&1 || rc=$?
    echo "vLLM tier: $((SECONDS - begun)) s (beside the main environment)" >>"$out/vllm.log"
    echo "$rc" >"$out/vllm.rc"
  else
    echo setup >"$out/vllm.rc"
  fi
) &
vllm=$!
status=0
start=$SECONDS
.venv/bin/python -m pytest -q -p no:cacheprovider -n "$WORKERS" --dist loadgroup --junitxml="$out/main.xml" || status=1
echo "main environment: $((SECONDS - start)) s"
wait "$vllm" || true
if [ "$(cat "$out/vllm.rc" 2>/dev/null)" = setup ] || [ ! -f "$out/vllm.rc" ]; then
  echo "error: the vLLM environment could not be set up:" >&2
  tail -n 30 "$out/setup-vllm.log" >&2
  status=1
else
  cat "$out/vllm.log"
  [ "$(cat "$out/vllm.rc")" = 0 ] || status=1
fi
echo "all tiers: $((SECONDS - start)) s"
python3 scripts/test_lanes.py "$out"/*.xml || status=1
# DUALGRAPH_TEST_REPORTS=DIR keeps the run's JUnit files (seconds per test) there
if [ -n "${DUALGRAPH_TEST_REPORTS:-}" ]; then
  mkdir -p "$DUALGRAPH_TEST_REPORTS" && cp "$out"/*.xml "$DUALGRAPH_TEST_REPORTS"/
fi
exit "$status"
