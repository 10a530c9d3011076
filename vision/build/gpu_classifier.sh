#!/usr/bin/env bash
# A view's classifier fine-tuned in many tile designs on a GPU machine: the retrain a CPU fine-tune of the
# shipped file could not stand in for (models/README.md, "Rebuilding"; docs/vision.md). It renders the
# scenes, fine-tunes from the shipped classifier of VIEW and leaves in OUT:
#   best.pt, start.pt    the fine-tune and its start, to soup and export where ../shared is (next lines)
#   reanchored.pt        with REANCHOR: best.pt fine-tuned 3 epochs more in the plain art (next lines)
#   results.csv, train.log
# Then, in the training venv (oblique; overhead: models/tile-classifier.onnx, --view overhead):
#   python -m vision soup OUT/start.pt OUT/best.pt --into CAND/tile-classifier.onnx
#   (with REANCHOR: OUT/start.pt OUT/reanchored.pt)
#   python -m vision.build.projection CAND/tile-classifier.onnx --view oblique
# and measure it against the shipped file before it ships (each bench takes --classifier CAND/...):
#   oblique: bench/bench_tileset.py and bench/bench_seat_lines.py;
#   overhead: bench/bench_tileset.py --view overhead, bench/bench_read.py, bench/bench_teach.py --designs 8.
#
# Run from the repository root: bash vision/build/gpu_classifier.sh OUT
# On the lent GPU machine (the tool device): bash vision/build/device_prep.sh pack first; it prints the call.
# Needs a Python (PY, default python3) with torch, torchvision, ultralytics and onnx, and the shared assets
# (SHARED, default ../shared: tiles/ and real-tiles/). Nothing is fetched. Its size, by environment:
# VIEW oblique (default) or overhead; SCENES scenes of that view (default 2000; for oblique, overhead, rim
# and console scenes a third of it each; below a few hundred some kinds never show and ultralytics cuts the
# head to the kinds it saw), JOBS renderers (the machine's cores), BATCH (512), MINUTES the training's
# length (4: ultralytics fits the epochs to it after the first, so EPOCHS, default 12, counts only with
# MINUTES=0), SUITS the share of scenes whose circles and bamboos are other makers' (0;
# vision/synth/suits.py), REANCHOR (0: none) that many scenes more of the view, rendered without
# designs, on which best.pt is fine-tuned 3 epochs more (at this CPU's size, souped with the start, it
# named real single tiles best of all candidates and read the AMOS 發 the designs had lost, but the
# held-out photo's retakes a tile too many: docs/vision.md). Sized for about 8 minutes on 16 cores and
# one GPU (not yet run there; at SCENES=6 EPOCHS=1 it ran through on a 2-core CPU, either view, and at
# SCENES=90 EPOCHS=1 MINUTES=0 REANCHOR=90 the oblique view in 4 minutes, its result souped; at
# SCENES=2000 MINUTES=60 the oblique view rendered its 4,000 scenes in 12 minutes there and fitted 6
# epochs of 10 minutes to the hour).
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
REANCHOR=${REANCHOR:-0}
case "$VIEW" in
    oblique|overhead) ;;
    *) echo "gpu_classifier: VIEW must be oblique or overhead, not $VIEW" >&2; exit 2 ;;
esac
case "$REANCHOR" in
    ''|*[!0-9]*) echo "gpu_classifier: REANCHOR must be a number of scenes (0: none), not $REANCHOR" >&2; exit 2 ;;
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

scenes_of() {    # the view's scenes, $1 of it: for oblique, overhead, rim and console scenes a third of it each
    if [ "$VIEW" = oblique ]; then
        echo --scenes $(($1 / 3)) --oblique-scenes "$1" --rim-scenes $(($1 / 3)) --console-scenes $(($1 / 3))
    else
        echo --scenes "$1"
    fi
}
if [ "$VIEW" = oblique ]; then
    # the oblique pair's plan (FINETUNE_PLAN), the table rig's scenes beside the views from the side
    start=(--finetune --start oblique)
else
    start=(--start overhead)
fi
workers=$((JOBS > 1 ? JOBS - 1 : 1))
hours=()                # MINUTES=0: no cap, EPOCHS epochs
[ "$MINUTES" = 0 ] || hours=(--hours "$(awk "BEGIN {print $MINUTES / 60}")")
{
    time "$PY" -m vision train "${start[@]}" --data "$WORK/data" --runs "$WORK/runs" --stage data --jobs "$JOBS" \
        $(scenes_of "$SCENES") --real-faces 0.5 --designs 0.5 --suits "$SUITS"
    time "$PY" -m vision train "${start[@]}" --data "$WORK/data" --runs "$WORK/runs" --stage classifier \
        --classifier-epochs "$EPOCHS" --classifier-batch "$BATCH" --workers "$workers" "${hours[@]}"
    if [ "$REANCHOR" -gt 0 ]; then
        # the same scenes' first seeds in the plain art, real faces and other suits as before, no designs
        time "$PY" -m vision train "${start[@]}" --data "$WORK/plain" --runs "$WORK/reanchor" --stage data \
            --jobs "$JOBS" $(scenes_of "$REANCHOR") --real-faces 0.5 --suits "$SUITS"
        time "$PY" -m vision train "${start[@]}" --data "$WORK/plain" --runs "$WORK/reanchor" --stage classifier \
            --classifier-start "$WORK/runs/classifier/weights/best.pt" --classifier-epochs 3 --seed 1 \
            --classifier-batch "$BATCH" --workers "$workers"
    fi
} 2>&1 | tr '\r' '\n' | grep -v '━' > "$OUT/train.log"

cp "$WORK/runs/classifier/weights/best.pt" "$OUT/best.pt"
[ "$REANCHOR" -eq 0 ] || cp "$WORK/reanchor/classifier/weights/best.pt" "$OUT/reanchored.pt"
cp "$WORK/runs/start/$VIEW-tile-classifier.pt" "$OUT/start.pt"
cp "$WORK/runs/classifier/results.csv" "$OUT/results.csv" 2>/dev/null || true
tail -n 5 "$OUT/train.log"
