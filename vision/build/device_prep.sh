#!/usr/bin/env bash
# Readies this checkout for vision/build/gpu_classifier.sh on the lent GPU machine (the tool `device`), and
# puts it back after. That machine gets this checkout's tracked files, its untracked files git does not
# ignore, a shared/ folder inside it and the ignored paths a call carries: 64 MiB at most. The shipped
# models alone are more (66 MB, four locators of 12 MB), and it has no ultralytics. So, before the call:
#
#   bash vision/build/device_prep.sh pack
#
# copies what the renderer and the real faces need from ../shared into shared/, fetches the ultralytics
# wheel the training venv has into .whl/, moves the locators (not used in a classifier's retrain) into
# .device-stash/ (all three ignored), checks what would travel and prints the call. Then run that call
# (one, with a timeout that leaves room: the session's machine time is 15 minutes, its start included), and
#
#   bash vision/build/device_prep.sh unpack
#
# moves the locators back and removes shared/ and .whl/. Commit nothing between the two: the locators
# are missing from the working tree and a commit of all changes would delete them.
# The call's sizes: this CPU renders 120 oblique-view scenes in 38 s on 2 cores, so its 3,900 scenes take
# about 2-3 minutes on 16; training is capped at 3 minutes, then 3 epochs on the 900 re-anchor scenes.
# Not yet run against the machine itself (no session has been lent one since it was written); `pack`
# checks the size here and a CPU run of gpu_classifier.sh checks the rest (docs: models/README.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
SHARED=${SHARED:-../shared}
ULTRALYTICS=${ULTRALYTICS:-8.4.190}
LIMIT=$((64 * 1024 * 1024))
LOCATORS=(models/tile-locator.onnx models/oblique/tile-locator.onnx models/oblique/tile-locator-seat.onnx
          models/oblique/tile-locator-console.onnx)
STASH=.device-stash

travelling_bytes() {    # what the device tool sends: tracked files that are there, untracked ones not ignored, shared/, .whl/
    {
        git ls-files -z | while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done
        git ls-files -z --others --exclude-standard
        find shared .whl -type f -print0 2>/dev/null
    } | du -cb --files0-from=- | tail -n 1 | cut -f 1
}

case "${1:-}" in
pack)
    for need in tiles real-tiles/camerash/tiles-data/data.csv; do
        [ -e "$SHARED/$need" ] || { echo "device_prep: $SHARED/$need is missing (set SHARED)" >&2; exit 2; }
    done
    [ ! -e shared ] || { echo "device_prep: shared/ is here already (unpack first, or move it)" >&2; exit 2; }
    mkdir -p shared/real-tiles "$STASH/models/oblique"
    cp -r "$SHARED/tiles" shared/
    cp -r "$SHARED/real-tiles/camerash" shared/real-tiles/
    python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
        --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 -d .whl "ultralytics==$ULTRALYTICS"
    for f in "${LOCATORS[@]}"; do
        if [ -f "$f" ]; then mv "$f" "$STASH/$f"; fi
    done
    bytes=$(travelling_bytes)
    echo "device_prep: $((bytes / 1024 / 1024)) MiB would travel (the limit: 64 MiB); the locators wait in $STASH/"
    [ "$bytes" -le "$LIMIT" ] || { echo "device_prep: too much would travel; nothing is sent like this" >&2; exit 1; }
    cat <<'EOF'
the call (the tool device's run; carry [".whl"], timeout_s 590), then: bash vision/build/device_prep.sh unpack
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=/tmp/site YOLO_OFFLINE=1 && SHARED=shared JOBS=16 SCENES=1500 MINUTES=3 REANCHOR=450 SUITS=0.5 \
  timeout 560 bash vision/build/gpu_classifier.sh $OUT/run
EOF
    ;;
unpack)
    for f in "${LOCATORS[@]}"; do
        if [ -f "$STASH/$f" ]; then mv "$STASH/$f" "$f"; fi
    done
    [ ! -d "$STASH" ] || rm -rf shared .whl "$STASH"    # shared/ and .whl/ only where pack made them
    if ! git diff --quiet -- models; then
        echo "device_prep: models/ differs from the last commit: git status models" >&2
        exit 1
    fi
    echo "device_prep: the locators are back; shared/ and .whl/ removed"
    ;;
*)
    echo "usage: bash vision/build/device_prep.sh pack|unpack" >&2
    exit 2
    ;;
esac
