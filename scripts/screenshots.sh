#!/usr/bin/env bash
# Takes the README's screenshots of the sample digest with headless Chromium: a phone (390x844, light and dark)
# and a laptop (1280x800). The page is Tests/RenderersTests/Golden/htmlSampleMatchesGolden.html, which is exactly what
# the HTML renderer draws from Digest.sample (the golden test keeps it current). Writes docs/screenshots/*.png.
#
#   scripts/screenshots.sh    # needs chromium, and fonts-noto-cjk for the Japanese items
#                             # (apt-get install chromium fonts-noto-cjk)
#
# Without Chromium it fails, unless CI is unset, in which case it says what to install and exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."

browser=""
for name in chromium chromium-browser google-chrome; do
    if command -v "$name" >/dev/null; then browser="$name"; break; fi
done
if [ -z "$browser" ]; then
    echo "screenshots: chromium is not installed (apt-get install chromium)" >&2
    [ "${CI:-}" = "true" ] && exit 1
    exit 0
fi

page="$PWD/Tests/RenderersTests/Golden/htmlSampleMatchesGolden.html"
out="docs/screenshots"
mkdir -p "$out"
profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT

# shot NAME WIDTH HEIGHT SCALE [extra flags...]
shot() {
    local name="$1" width="$2" height="$3" scale="$4"
    shift 4
    "$browser" --headless --disable-gpu --no-sandbox --no-first-run --disable-extensions --hide-scrollbars \
        --user-data-dir="$profile" --force-device-scale-factor="$scale" --window-size="$width,$height" \
        --screenshot="$PWD/$out/$name.png" "$@" "file://$page" 2>/dev/null
    echo "screenshots: wrote $out/$name.png (${width}x${height} CSS px)"
}

# The two sizes the README shows and the browser test measures: a phone (390x844) and a laptop (1280x800).
shot digest-390 390 844 2
shot digest-390-dark 390 844 2 --force-dark-mode --blink-settings=preferredColorScheme=0
shot digest-1280 1280 800 1
