#!/usr/bin/env bash
# Installs tributary like a Unix tool, into $PREFIX (default /usr/local):
#
#   $PREFIX/bin/tributary                                   the release build the README and the benchmarks use
#   $PREFIX/bin/Tributary_Renderers.resources/              the built-in HTML template, found beside the binary
#   $PREFIX/share/man/man1/tributary.1                      the man page (docs/tributary.1, from the command definitions)
#   $PREFIX/share/bash-completion/completions/tributary     bash completion
#   $PREFIX/share/zsh/site-functions/_tributary             zsh completion
#   $PREFIX/share/fish/vendor_completions.d/tributary.fish  fish completion
#
#   scripts/install.sh                      # into /usr/local (with sudo when it is not writable)
#   PREFIX=~/.local scripts/install.sh      # into your home
#   DESTDIR=/tmp/stage scripts/install.sh   # staged, for packaging
#
# scripts/uninstall.sh removes the same files.
set -euo pipefail
cd "$(dirname "$0")/.."

prefix="${PREFIX:-/usr/local}"
root="${DESTDIR:-}${prefix}"

swift build -c release --static-swift-stdlib --product tributary
bin="$(swift build -c release --static-swift-stdlib --show-bin-path)"

sudo=""
probe="$root"
while [ ! -e "$probe" ]; do probe="$(dirname "$probe")"; done
if [ ! -w "$probe" ] && [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

$sudo install -d "$root/bin" "$root/share/man/man1" "$root/share/bash-completion/completions" \
    "$root/share/zsh/site-functions" "$root/share/fish/vendor_completions.d"
$sudo install -m 0755 "$bin/tributary" "$root/bin/tributary"
$sudo rm -rf "$root/bin/Tributary_Renderers.resources"
$sudo cp -R "$bin/Tributary_Renderers.resources" "$root/bin/"
$sudo install -m 0644 docs/tributary.1 "$root/share/man/man1/tributary.1"
for shell in bash zsh fish; do
    case "$shell" in
    bash) target="$root/share/bash-completion/completions/tributary" ;;
    zsh) target="$root/share/zsh/site-functions/_tributary" ;;
    fish) target="$root/share/fish/vendor_completions.d/tributary.fish" ;;
    esac
    "$bin/tributary" --generate-completion-script "$shell" | $sudo tee "$target" >/dev/null
done
echo "install: tributary $("$root/bin/tributary" --version) in $root/bin; man page and bash, zsh and fish completions"
case ":$PATH:" in
*":$prefix/bin:"*) ;;
*) echo "install: add $prefix/bin to your PATH" ;;
esac
