#!/usr/bin/env bash
# Sets up the environment if needed, then runs the linters: ruff (lint + format check), mypy,
# import-linter (the layers of the package: [tool.importlinter] contracts), and builds the API
# reference with pdoc (scripts/docs.sh: fails on a module that does not import or a pdoc error).
# Tool versions are pinned in the `dev` extra of pyproject.toml; the settings live there too.
#
# mypy keeps its cache outside the checkout ($DUALGRAPH_MYPY_CACHE, default
# ~/.cache/dualgraph/mypy), so a fresh clone on a machine that checked the package before reuses
# it: mypy re-checks a module whose file (compared by hash) or dependencies changed, so the result
# is the one a cold run gives, in seconds instead of a minute. DUALGRAPH_MYPY_CACHE=off: the
# checkout's own .mypy_cache. The API reference builds at the same time as mypy (two cores).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
PATHS=(dualgraph tests bench jobs)
MYPY_CACHE=${DUALGRAPH_MYPY_CACHE:-$HOME/.cache/dualgraph/mypy}
MYPY_ARGS=()
[ "$MYPY_CACHE" = off ] || MYPY_ARGS=(--cache-dir "$MYPY_CACHE")
docs_log=$(mktemp)
trap 'rm -f "$docs_log"' EXIT
bash scripts/docs.sh >"$docs_log" 2>&1 &
docs=$!
status=0
# Run them all, so one report shows every problem; fail if any failed.
.venv/bin/ruff check "${PATHS[@]}" || status=1
.venv/bin/ruff format --check "${PATHS[@]}" || status=1
.venv/bin/mypy "${MYPY_ARGS[@]}" || status=1
.venv/bin/lint-imports --no-logo || status=1
wait "$docs" || status=1
cat "$docs_log"
exit "$status"
