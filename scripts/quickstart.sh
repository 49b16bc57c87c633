#!/usr/bin/env bash
# One command for a newcomer: install the C libraries and language data, build lovesnap,
# and open the editor on a sample phone photo of a poem.
#   bash scripts/quickstart.sh [PHOTO]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build -c release --product lovesnap
export LANG="${LANG:-C.UTF-8}"
exec .build/release/lovesnap "${1:-SamplePoems/harbour-photo.jpg}"
