#!/usr/bin/env bash
# Removes what scripts/install.sh [PREFIX] installed (default /usr/local), and nothing else.
#   bash scripts/uninstall.sh [PREFIX]
set -euo pipefail
prefix="${1:-/usr/local}"
rm -f "$prefix/bin/lovesnap" "$prefix/share/man/man1/lovesnap.1" \
  "$prefix/share/bash-completion/completions/lovesnap" \
  "$prefix/share/lovesnap/text-detection.onnx" "$prefix/share/lovesnap/text-recognition.onnx" \
  "$prefix/share/lovesnap/text-recognition.txt" "$prefix/share/lovesnap/LICENSE-Apache-2.0" \
  "$prefix/share/lovesnap/README.md"
rmdir "$prefix/share/lovesnap" 2>/dev/null || true
echo "lovesnap removed from $prefix"
