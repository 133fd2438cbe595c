#!/usr/bin/env bash
# Answer one questions file with every strategy and evaluate them side by side.
#   bash scripts/compare_strategies.sh INDEX_DIR QUESTIONS.json OUT_DIR [STRATEGY ...]
# Writes OUT_DIR/answers-<strategy>.jsonl and a comparison report in OUT_DIR/report/.
set -euo pipefail
cd "$(dirname "$0")/.."
INDEX=$1; QUESTIONS=$2; OUT=$3; shift 3
STRATEGIES=("$@")
[ ${#STRATEGIES[@]} -gt 0 ] || STRATEGIES=(skg tkg concat skg+tkg_fb router router+tkg_fb agentic)
mkdir -p "$OUT"
args=()
for s in "${STRATEGIES[@]}"; do
  .venv/bin/dualgraph ask --index "$INDEX" --questions "$QUESTIONS" --out "$OUT/answers-$s.jsonl" --strategy "$s" \
    --runner "${RUNNER:-inline}" --no-resume --no-progress > "$OUT/run-$s.json"
  args+=(--answers "$OUT/answers-$s.jsonl")
done
.venv/bin/dualgraph eval --questions "$QUESTIONS" "${args[@]}" --index "$INDEX" --report "$OUT/report"
