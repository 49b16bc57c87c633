#!/usr/bin/env bash
# Installs lovesnap under PREFIX (default /usr/local), as a Debian tool is laid out: the release
# build in PREFIX/bin, the text detector's model with its licence in PREFIX/share/lovesnap, the
# manual page (man lovesnap) and the bash completion, both made from the program itself by
# scripts/make-manpage.py. scripts/uninstall.sh [PREFIX] removes them.
#   bash scripts/install.sh [PREFIX]
# LOVESNAP_BINARY=PATH installs that build instead of making the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${1:-/usr/local}"
binary="${LOVESNAP_BINARY:-}"
if [ -z "$binary" ]; then
  swift build -c release --product lovesnap
  binary=.build/release/lovesnap
fi
install -d "$prefix/bin" "$prefix/share/lovesnap" "$prefix/share/man/man1" \
  "$prefix/share/bash-completion/completions"
install -m 755 "$binary" "$prefix/bin/lovesnap"
install -m 644 Models/text-detection.onnx Models/text-recognition.onnx Models/text-recognition.txt \
  Models/LICENSE-Apache-2.0 Models/README.md "$prefix/share/lovesnap/"
made=$(mktemp -d)
trap 'rm -rf "$made"' EXIT
python3 scripts/make-manpage.py "$prefix/bin/lovesnap" "$made" >/dev/null
install -m 644 "$made/lovesnap.1" "$prefix/share/man/man1/lovesnap.1"
install -m 644 "$made/lovesnap.bash" "$prefix/share/bash-completion/completions/lovesnap"
echo "lovesnap installed in $prefix: bin/lovesnap, share/lovesnap/, share/man/man1/lovesnap.1,"
echo "share/bash-completion/completions/lovesnap (a new shell completes it; man lovesnap)"
