#!/usr/bin/env bash
# The oblique classifier fine-tuned in many tile designs on a GPU machine: the retrain a CPU fine-tune of
# the shipped file could not stand in for (models/README.md, "Rebuilding"; docs/vision.md). It renders the
# scenes, fine-tunes from the shipped models/oblique/tile-classifier.onnx and leaves in OUT:
#   best.pt, start.pt    the fine-tune and its start, to soup and export where ../shared is (next lines)
#   results.csv, train.log
# Then, in the training venv:
#   python -m vision soup OUT/start.pt OUT/best.pt --into models/oblique/tile-classifier.onnx
#   python -m vision.build.projection models/oblique/tile-classifier.onnx --view oblique
# and measure it against the shipped file (bench/bench_tileset.py) before it ships.
#
# Run from the repository root: bash vision/build/gpu_oblique.sh OUT
# Needs a Python (PY, default python3) with torch, torchvision, ultralytics and onnx, and the shared assets
# (SHARED, default ../shared: tiles/ and real-tiles/). Nothing is fetched. Its size, by environment:
# SCENES oblique scenes (default 2000; overhead, rim and console a third of it each; below a few hundred
# some kinds never show and ultralytics cuts the head to the kinds it saw), EPOCHS (12), JOBS renderers
# (the machine's cores), BATCH (512), MINUTES the training's cap (4), SUITS the share of scenes whose circles
# and bamboos are other makers' (0; vision/synth/suits.py). Sized for about 8 minutes on 16
# cores and one GPU (not yet run there; at SCENES=6 EPOCHS=1 it ran through on a 2-core CPU).
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: bash vision/build/gpu_oblique.sh OUT" >&2; exit 2; }
OUT=$1
PY=${PY:-python3}
SHARED=${SHARED:-../shared}
SCENES=${SCENES:-2000}
EPOCHS=${EPOCHS:-12}
JOBS=${JOBS:-$(nproc)}
BATCH=${BATCH:-512}
MINUTES=${MINUTES:-4}
SUITS=${SUITS:-0}
for need in tiles real-tiles/camerash/tiles-data/data.csv; do
    [ -e "$SHARED/$need" ] || { echo "gpu_oblique: $SHARED/$need is missing (set SHARED)" >&2; exit 2; }
done
SHARED=$(cd "$SHARED" && pwd)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

# the code finds the real tiles at ../shared beside the repository: work in a copy that has them there
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir "$WORK/repo"
cp -r calibration scoring service vision models pyproject.toml "$WORK/repo/"
ln -s "$SHARED" "$WORK/shared"
cd "$WORK/repo"
export TOUTENKOU_TILE_ART="$SHARED/tiles" PYTHONUNBUFFERED=1

third=$((SCENES / 3))
common=(--finetune --start oblique --data "$WORK/data" --runs "$WORK/runs")
{
    time "$PY" -m vision train "${common[@]}" --stage data --jobs "$JOBS" --scenes "$third" \
        --oblique-scenes "$SCENES" --rim-scenes "$third" --console-scenes "$third" \
        --real-faces 0.5 --designs 0.5 --suits "$SUITS"
    time "$PY" -m vision train "${common[@]}" --stage classifier --classifier-epochs "$EPOCHS" \
        --classifier-batch "$BATCH" --workers "$((JOBS > 1 ? JOBS - 1 : 1))" \
        --hours "$(awk "BEGIN {print $MINUTES / 60}")"
} 2>&1 | tr '\r' '\n' | grep -v '━' > "$OUT/train.log"

cp "$WORK/runs/classifier/weights/best.pt" "$OUT/best.pt"
cp "$WORK/runs/start/oblique-tile-classifier.pt" "$OUT/start.pt"
cp "$WORK/runs/classifier/results.csv" "$OUT/results.csv" 2>/dev/null || true
tail -n 5 "$OUT/train.log"
