#!/usr/bin/env bash
# Makes docs/photo-view.png, README's picture of the photo view: lovesnap runs in a real terminal
# (a private tmux server, 100x40, 256 colours, chafa's symbols) on SamplePoems/kettle-photo.jpg,
# M-P opens the photo view with the cursor moved to "kettle" (--uncertain-below 92.7 marks three
# words, drawn in red), and the screen is captured with its
# colours (tmux capture-pane -e) and rendered to PNG by scripts/screenshot.py.
#
#   swift build && bash scripts/photo-view-screenshot.sh [LOVESNAP] [OUT.png]
set -euo pipefail
cd "$(dirname "$0")/.."
LOVESNAP="${1:-$PWD/.build/debug/lovesnap}"
OUT="${2:-docs/photo-view.png}"
WORK="$(mktemp -d /tmp/lovesnap-shot-XXXXXX)"
SOCKET="lovesnap-shot-$$"
T=(tmux -L "$SOCKET" -f /dev/null)
trap '"${T[@]}" kill-server 2>/dev/null || true; rm -rf "$WORK"' EXIT
cp SamplePoems/kettle-photo.jpg "$WORK/"
"${T[@]}" new-session -d -s shot -x 100 -y 40 -c "$WORK" \
  env LANG=C.UTF-8 TERM=tmux-256color NO_COLOR= LOVESNAP_GRAPHICS=symbols "$LOVESNAP" --uncertain-below 92.7 kettle-photo.jpg
screen() { "${T[@]}" capture-pane -p -t shot; }
wait_for() {
  for _ in $(seq 1 200); do screen | grep -q -F -- "$1" && return 0; sleep 0.1; done
  echo "timed out waiting for: $1" >&2; screen >&2; exit 1
}
wait_for "[ Read 4 lines"
"${T[@]}" send-keys -t shot C-Right C-Right M-p
wait_for '"kettle" conf'
sleep 1  # the picture is drawn right after the status line
mkdir -p "$(dirname "$OUT")"
"${T[@]}" capture-pane -e -p -t shot > "$WORK/screen.ansi"
python3 scripts/screenshot.py "$WORK/screen.ansi" "$OUT" --columns 100 --rows 40
"${T[@]}" send-keys -t shot Escape C-x
echo "wrote $OUT"
