#!/usr/bin/env bash
# The value of 至尊 and 四大賀 under strong play (issue 11): pimc at every seat (hk bonuses off,
# folk as set), the same measurement as results/supreme_value (heuristic at every seat).
# pimc:16:3 is pimc as it was when these folders were made (exact from 3 tiles a hand; the default
# became 4 on 2026-12-02): the folders' manifests name it `pimc`.
set -euo pipefail
cd "$(dirname "$0")/../.."
for rules in hk folk; do
  python3 cli.py value --feature supreme --feature quartet --policy pimc:16:3 --rules "$rules" \
      --deals "${DEALS:-2000}" --seed 2026 --format csv --out results/supreme_value_strong/"$rules".csv \
      --out-dir results/supreme_value_strong/"$rules"
done
# 至尊 in hk needs more deals for its sign (issue 11): 40,000, in chunks of 500 that --resume finishes
python3 cli.py value --feature supreme --policy pimc:16:3 --rules hk --deals 40000 --seed 2026 --format csv \
    --out results/supreme_value_strong/hk_supreme.csv --out-dir results/supreme_value_strong/hk_supreme \
    $( [ -f results/supreme_value_strong/hk_supreme/manifest.json ] && echo --resume )
python3 results/supreme_value_strong/make_report.py > /dev/null
