#!/bin/sh
# Build an ext4 disk image (4 KiB blocks, the page size) of a directory tree
# with e2fsprogs (mke2fs -d: no root privileges, no loop mount), for the
# TSAR block device.
# Usage: scripts/make-disk.sh DIR IMAGE [SIZE]   (SIZE as mke2fs takes it, default 32M)
#
# The image is rebuilt only when its inputs changed: the tree (names,
# types, modes, owners, sizes, link targets and file contents), SIZE and
# this script; IMAGE.stamp records them. A rebuild starts from an empty
# file system: what a guest wrote to the old image is gone.
set -eu

[ $# -ge 2 ] && [ $# -le 3 ] || { echo "usage: $0 DIR IMAGE [SIZE]" >&2; exit 2; }
dir=$1 img=$2 size=${3:-32M}
[ -d "$dir" ] || { echo "make-disk: $dir: no such directory" >&2; exit 1; }
export PATH="$PATH:/sbin:/usr/sbin"
command -v mke2fs >/dev/null || { echo "make-disk: mke2fs not found (install e2fsprogs)" >&2; exit 1; }

stamp=$( {
	echo "size $size"
	sha256sum < "$0"
	cd "$dir"
	find . -printf '%y %m %U %G %s %l %p\n' | LC_ALL=C sort
	find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum
} | sha256sum | cut -d' ' -f1)

if [ -f "$img" ] && [ -f "$img.stamp" ] && [ "$(cat "$img.stamp")" = "$stamp" ]; then
	echo "  DISK    $img is up to date"
	exit 0
fi

echo "  DISK    $img: ext4, $size, from $dir"
mkdir -p "$(dirname "$img")"
tmp=$(mktemp "$img.XXXXXX")
trap 'rm -f "$tmp"' EXIT
: > "$tmp"
chmod 0644 "$tmp"
mke2fs -q -F -t ext4 -b 4096 -L portkit-root -E root_owner=0:0 -d "$dir" "$tmp" "$size"
mv "$tmp" "$img"
echo "$stamp" > "$img.stamp"
trap - EXIT
