#!/usr/bin/env bash
# The main job on the embedded default: import a catalog, index it (both graphs), bulk-answer its
# questions on Ray Data, and print the evaluation table.
#   With the public Smartprix data in the shared data folder (../shared/data beside the checkout, or
#   $DUALGRAPH_SHARED_DATA): its 758 listings, with questions whose gold is computed from the CSV.
#   Without it: a catalog the project generates itself (seeded; raw spec strings and prose pages),
#   with questions whose gold is computed from the generated specs.
# Nothing from a public data set is in the repository; the questions are written into $OUT.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
OUT=${OUT:-runs/demo}
STRATEGY=${STRATEGY:-skg+tkg_fb}
mkdir -p "$OUT"
if CSV=$(.venv/bin/python -m dualgraph.shared_data smartprix-india-2025/smartphones_cleaned.csv); then
  CATALOG=smartprix
  QUESTION="Which 5G phones under Rs 10000 have a battery of at least 6000 mAh?"
else
  CATALOG=generated
  QUESTION="Which phones under 400 pounds have a battery of at least 5000 mAh?"
fi
# an index of the other catalog would be updated in place, page by page: start it afresh instead
if [ "$(cat "$OUT/catalog" 2>/dev/null || true)" != "$CATALOG" ]; then
  rm -rf "$OUT/index"
fi
rm -rf "$OUT/dataset"
echo "$CATALOG" >"$OUT/catalog"
if [ "$CATALOG" = smartprix ]; then
  echo "--- catalog: $CSV (Smartprix India 2025, CC0; shared data, not in the repository)"
  .venv/bin/dualgraph import-table "$CSV" --mapping samples/smartprix/mapping.yaml --out "$OUT/dataset"
  echo "--- questions, gold computed from the CSV (samples/smartprix/make_questions.py):"
  .venv/bin/python samples/smartprix/make_questions.py "$OUT/questions.json" --csv "$CSV"
else
  echo "--- no shared data ($CSV is absent): a generated catalog and its questions (samples/generated/make_sample.py):"
  .venv/bin/python samples/generated/make_sample.py "$OUT"
fi
.venv/bin/dualgraph index "$OUT/dataset" --index "$OUT/index"
echo "--- one question, with its trace (strategy $STRATEGY, zero LLM tokens):"
.venv/bin/dualgraph ask --index "$OUT/index" --strategy "$STRATEGY" "$QUESTION"
echo "--- the questions ($OUT/questions.json), answered in bulk:"
.venv/bin/dualgraph ask --index "$OUT/index" --questions "$OUT/questions.json" \
  --out "$OUT/answers-$STRATEGY.jsonl" --strategy "$STRATEGY" --no-resume
echo "--- evaluation (report with plots in $OUT/report):"
.venv/bin/dualgraph eval --questions "$OUT/questions.json" --answers "$OUT/answers-$STRATEGY.jsonl" \
  --index "$OUT/index" --report "$OUT/report"
