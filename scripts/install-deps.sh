#!/usr/bin/env bash
# Installs the Debian 12 packages lovesnap builds and tests against (needs root or sudo).
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends \
  libtesseract-dev libleptonica-dev \
  tesseract-ocr-eng tesseract-ocr-fra tesseract-ocr-osd \
  libncurses-dev libexif-dev libgif-dev \
  libhunspell-dev hunspell-en-us hunspell-en-gb hunspell-fr \
  libxml2-dev libqpdf-dev libxml2-utils poppler-utils \
  libchafa-dev libglib2.0-dev \
  libopencv-dev \
  tmux strace python3 locales man-db \
  msmtp python3-aiosmtpd
