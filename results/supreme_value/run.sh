#!/usr/bin/env bash
# Reproduces this folder (about a minute on 2 cores); then report.md is rebuilt by make_report.py.
set -euo pipefail
cd "$(dirname "$0")/../.."
rm -rf results/supreme_value/folk results/supreme_value/hk  # a fresh run (the folders refuse to be reused)
python cli.py value --feature supreme --rules folk --bonus supreme=0,1,2,4 --deals 200000 --seed 2026 \
    --out-dir results/supreme_value/folk --format csv --out results/supreme_value/folk.csv
python cli.py value --feature supreme --rules hk --deals 200000 --seed 2026 \
    --out-dir results/supreme_value/hk --format csv --out results/supreme_value/hk.csv
python results/supreme_value/make_report.py
