#!/usr/bin/env bash
# Removes what scripts/install.sh installed from $PREFIX (default /usr/local).
set -euo pipefail
prefix="${PREFIX:-/usr/local}"
root="${DESTDIR:-}${prefix}"
sudo=""
if [ ! -w "$root/bin" ] && [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo rm -rf "$root/bin/tributary" "$root/bin/Tributary_Renderers.resources" "$root/share/man/man1/tributary.1" \
    "$root/share/bash-completion/completions/tributary" "$root/share/zsh/site-functions/_tributary" \
    "$root/share/fish/vendor_completions.d/tributary.fish"
echo "uninstall: removed tributary from $root"
