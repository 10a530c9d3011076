#!/usr/bin/env bash
# A view's classifier fine-tuned in many tile designs on a GPU machine: the retrain a CPU fine-tune of the
# shipped file could not stand in for (models/README.md, "Rebuilding"; docs/vision.md). It renders the
# scenes, fine-tunes from the shipped classifier of VIEW and leaves in OUT:
#   best.pt, start.pt    the fine-tune and its start, to soup and export where ../shared is (next lines)
#   results.csv, train.log
# Then, in the training venv (oblique; overhead: models/tile-classifier.onnx, --view overhead):
#   python -m vision soup OUT/start.pt OUT/best.pt --into CAND/tile-classifier.onnx
#   python -m vision.build.projection CAND/tile-classifier.onnx --view oblique
# and measure it against the shipped file before it ships (each bench takes --classifier CAND/...):
#   oblique: bench/bench_tileset.py and bench/bench_seat_lines.py;
#   overhead: bench/bench_tileset.py --view overhead, bench/bench_read.py, bench/bench_teach.py --designs 8.
#
# Run from the repository root: bash vision/build/gpu_classifier.sh OUT
# Needs a Python (PY, default python3) with torch, torchvision, ultralytics and onnx, and the shared assets
# (SHARED, default ../shared: tiles/ and real-tiles/). Nothing is fetched. Its size, by environment:
# VIEW oblique (default) or overhead; SCENES scenes of that view (default 2000; for oblique, overhead, rim
# and console scenes a third of it each; below a few hundred some kinds never show and ultralytics cuts the
# head to the kinds it saw), JOBS renderers (the machine's cores), BATCH (512), MINUTES the training's
# length (4: ultralytics fits the epochs to it after the first, so EPOCHS, default 12, counts only with
# MINUTES=0), SUITS the share of scenes whose circles and bamboos are other makers' (0;
# vision/synth/suits.py). Sized for about 8 minutes on 16 cores and one GPU (not yet run there; at
# SCENES=6 EPOCHS=1 it ran through on a 2-core CPU, either view; at SCENES=2000 MINUTES=60 the oblique
# view rendered its 4,000 scenes in 12 minutes there and fitted 6 epochs of 10 minutes to the hour).
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: bash vision/build/gpu_classifier.sh OUT" >&2; exit 2; }
OUT=$1
PY=${PY:-python3}
SHARED=${SHARED:-../shared}
VIEW=${VIEW:-oblique}
SCENES=${SCENES:-2000}
EPOCHS=${EPOCHS:-12}
JOBS=${JOBS:-$(nproc)}
BATCH=${BATCH:-512}
MINUTES=${MINUTES:-4}
SUITS=${SUITS:-0}
case "$VIEW" in
    oblique|overhead) ;;
    *) echo "gpu_classifier: VIEW must be oblique or overhead, not $VIEW" >&2; exit 2 ;;
esac
for need in tiles real-tiles/camerash/tiles-data/data.csv; do
    [ -e "$SHARED/$need" ] || { echo "gpu_classifier: $SHARED/$need is missing (set SHARED)" >&2; exit 2; }
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
if [ "$VIEW" = oblique ]; then
    # the oblique pair's plan (FINETUNE_PLAN), the table rig's scenes beside the views from the side
    common=(--finetune --start oblique --data "$WORK/data" --runs "$WORK/runs")
    scenes=(--scenes "$third" --oblique-scenes "$SCENES" --rim-scenes "$third" --console-scenes "$third")
else
    common=(--start overhead --data "$WORK/data" --runs "$WORK/runs")
    scenes=(--scenes "$SCENES")
fi
{
    time "$PY" -m vision train "${common[@]}" --stage data --jobs "$JOBS" "${scenes[@]}" \
        --real-faces 0.5 --designs 0.5 --suits "$SUITS"
    time "$PY" -m vision train "${common[@]}" --stage classifier --classifier-epochs "$EPOCHS" \
        --classifier-batch "$BATCH" --workers "$((JOBS > 1 ? JOBS - 1 : 1))" \
        --hours "$(awk "BEGIN {print $MINUTES / 60}")"
} 2>&1 | tr '\r' '\n' | grep -v '━' > "$OUT/train.log"

cp "$WORK/runs/classifier/weights/best.pt" "$OUT/best.pt"
cp "$WORK/runs/start/$VIEW-tile-classifier.pt" "$OUT/start.pt"
cp "$WORK/runs/classifier/results.csv" "$OUT/results.csv" 2>/dev/null || true
tail -n 5 "$OUT/train.log"
