#!/usr/bin/env bash
# scripts/fetch-nsys-libs.sh [--dest DIR]
# Downloads Debian's libdw1 and libelf1 and unpacks them into .nsys-libs/, installing nothing.
# Nsight Systems' report import (`nsys stats`, .qdstrm -> .nsys-rep) loads libdw and libelf,
# which a minimal GPU host's image may lack. .nsys-libs/ is ignored by git and carried to that
# machine, where scripts/nsys.sh and scripts/gpu-suite.sh put it on LD_LIBRARY_PATH.
# Run it on a Debian or Ubuntu machine with apt (no root needed).
set -euo pipefail

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }

root=$(cd "$(dirname "$0")/.." && pwd)
dest=$root/.nsys-libs
packages=(libdw1 libelf1)
while [ $# -gt 0 ]; do
  case $1 in
    -h|--help) usage; exit 0 ;;
    --dest) [ $# -ge 2 ] || { echo "fetch-nsys-libs.sh: --dest needs a folder" >&2; exit 2; }
            dest=$2; shift 2 ;;
    *) echo "fetch-nsys-libs.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

command -v apt-get >/dev/null || { echo "fetch-nsys-libs.sh: apt-get not found: run this on a Debian or Ubuntu machine" >&2; exit 1; }
command -v dpkg >/dev/null || { echo "fetch-nsys-libs.sh: dpkg not found: run this on a Debian or Ubuntu machine" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# apt-get download writes into the current folder and needs no root.
if ! (cd "$work" && apt-get download "${packages[@]}" >"$work/apt.log" 2>&1); then
  echo "fetch-nsys-libs.sh: apt-get download ${packages[*]} failed: $(tail -n 1 "$work/apt.log") (try: apt-get update)" >&2
  exit 1
fi

rm -rf "$dest"
mkdir -p "$dest"
for deb in "$work"/*.deb; do
  dpkg -x "$deb" "$dest"
  echo "unpacked $(basename "$deb")"
done
libdir=$(find "$dest" -name 'libdw.so.1' -printf '%h\n' | head -n 1)
[ -n "$libdir" ] || { echo "fetch-nsys-libs.sh: libdw.so.1 not found after unpacking into $dest" >&2; exit 1; }
[ -e "$libdir/libelf.so.1" ] || { echo "fetch-nsys-libs.sh: libelf.so.1 not found in $libdir" >&2; exit 1; }
echo "fetch-nsys-libs.sh: libdw and libelf are in ${libdir#"$root"/} (copy .nsys-libs to the GPU host with the build)"
