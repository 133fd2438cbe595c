#!/usr/bin/env bash
# The main job on the embedded default: import the bundled sample catalog, index it, show what was indexed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
OUT=${OUT:-runs/demo}
mkdir -p "$OUT"
.venv/bin/dualgraph import-table samples/smartprix/smartphones_cleaned.csv --mapping samples/smartprix/mapping.yaml --out "$OUT/dataset"
.venv/bin/dualgraph index "$OUT/dataset" --index "$OUT/index"
echo "--- five 5G phones with a battery of at least 5000 mAh under 15000 INR, cheapest first:"
.venv/bin/dualgraph sparql --index "$OUT/index" --format table '
SELECT DISTINCT ?name ?price ?mah WHERE {
  ?p a skgt:Product ; skg:hasName ?name ; skg:hasPrice ?price ; skg:hasFeature skg:feature-5g_support ;
     skg:hasSpec ?s . ?s skg:inSection/skg:hasName "Battery" ; skg:inEntry/skg:hasName "Capacity" ; skg:hasNumericValue ?mah .
  FILTER(?mah >= 5000 && ?price < 15000)
} ORDER BY ?price LIMIT 5'
echo "--- the same kind of question in words, compiled to SPARQL with zero tokens (add --explain for the trace):"
.venv/bin/dualgraph ask --index "$OUT/index" "Which 5G phones under Rs 10000 have a battery of at least 6000 mAh?"
