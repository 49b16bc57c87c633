#!/usr/bin/env bash
# One command for a newcomer: install the C libraries and language data, build lovesnap,
# and open the editor on a sample phone photo of a poem.
#   bash scripts/quickstart.sh [PHOTO]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build -c release --product lovesnap
export LANG="${LANG:-C.UTF-8}"
# Mail (M-M) pipes to sendmail: say what to install where there is none.
if ! command -v sendmail >/dev/null && ! [ -x /usr/sbin/sendmail ] && ! [ -x /usr/lib/sendmail ]; then
    echo "quickstart: no sendmail here, so M-M (mail) cannot send: sudo apt-get install msmtp-mta," \
        "then put your account in ~/.msmtprc (README, Mail)" >&2
fi
exec .build/release/lovesnap "${1:-SamplePoems/harbour-photo.jpg}"
