#!/usr/bin/env bash
# Sets up the environment if needed, then runs the linters: ruff (lint + format check), mypy,
# import-linter (the layers of the package: [tool.importlinter] contracts), and builds the API
# reference with pdoc (scripts/docs.sh: fails on a module that does not import or a pdoc error).
# Tool versions are pinned in the `dev` extra of pyproject.toml; the settings live there too.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
PATHS=(dualgraph tests bench jobs)
status=0
# Run them all, so one report shows every problem; fail if any failed.
.venv/bin/ruff check "${PATHS[@]}" || status=1
.venv/bin/ruff format --check "${PATHS[@]}" || status=1
.venv/bin/mypy || status=1
.venv/bin/lint-imports --no-logo || status=1
bash scripts/docs.sh || status=1
exit "$status"
