#!/usr/bin/env bash
# The main job on the embedded default: import the bundled sample catalog, index it (both graphs),
# bulk-answer its sample questions on Ray Data, and print the evaluation table.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
OUT=${OUT:-runs/demo}
STRATEGY=${STRATEGY:-skg+tkg_fb}
mkdir -p "$OUT"
.venv/bin/dualgraph import-table samples/smartprix/smartphones_cleaned.csv --mapping samples/smartprix/mapping.yaml --out "$OUT/dataset"
.venv/bin/dualgraph index "$OUT/dataset" --index "$OUT/index"
echo "--- one question, with its trace (strategy $STRATEGY, zero LLM tokens):"
.venv/bin/dualgraph ask --index "$OUT/index" --strategy "$STRATEGY" "Which 5G phones under Rs 10000 have a battery of at least 6000 mAh?"
echo "--- the sample questions (samples/smartprix/questions.json), answered in bulk:"
.venv/bin/dualgraph ask --index "$OUT/index" --questions samples/smartprix/questions.json \
  --out "$OUT/answers-$STRATEGY.jsonl" --strategy "$STRATEGY" --no-resume
echo "--- evaluation (report with plots in $OUT/report):"
.venv/bin/dualgraph eval --questions samples/smartprix/questions.json --answers "$OUT/answers-$STRATEGY.jsonl" \
  --index "$OUT/index" --report "$OUT/report"
