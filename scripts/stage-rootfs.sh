#!/bin/sh
# Stage a root file system tree from initramfs lists (the format of the
# kernel's gen_init_cpio: dir, file, slink and nod lines), for make-disk.sh.
# Usage: scripts/stage-rootfs.sh LIST [LIST...] DIR
# The lists are read in order (a later entry for the same path replaces an
# earlier one). DIR is replaced as a whole. Device nodes are left out (no
# root needed: the kernel's devtmpfs provides /dev); an empty /dev stays as
# mount point.
set -eu

[ $# -ge 2 ] || { echo "usage: $0 LIST [LIST...] DIR" >&2; exit 2; }
eval "dir=\${$#}"
nlists=$(($# - 1))
i=0
for list in "$@"; do
	i=$((i + 1))
	[ $i -le $nlists ] || break
	[ -f "$list" ] || { echo "stage-rootfs: $list: no such initramfs list" >&2; exit 1; }
done

# Staged again only when the lists, the files they name (contents) or
# this script changed: DIR.stamp records them.
lists() { i=0; for l in "$@"; do i=$((i + 1)); [ $i -le $nlists ] && echo "$l"; done; }
stamp=$( {
	sha256sum < "$0"
	lists "$@" | while read -r l; do echo "$l"; cat "$l"; done
	lists "$@" | while read -r l; do awk '$1 == "file" { print $3 }' "$l"; done |
		xargs -r sha256sum 2>&1
} | sha256sum | cut -d' ' -f1)
if [ -d "$dir" ] && [ -f "$dir.stamp" ] && [ "$(cat "$dir.stamp")" = "$stamp" ]; then
	exit 0
fi
rm -f "$dir.stamp"

tmp=$(mktemp -d "$(dirname "$dir")/.stage.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
i=0
for list in "$@"; do
i=$((i + 1))
[ $i -le $nlists ] || break
lineno=0
while read -r kind name a b c d e; do
	lineno=$((lineno + 1))
	case $kind in
	''|'#'*) continue ;;
	dir) mkdir -p "$tmp$name" && chmod "$a" "$tmp$name" ;;
	file)
		[ -f "$a" ] || { echo "stage-rootfs: $list:$lineno: $a: no such file" >&2; exit 1; }
		[ -d "$tmp${name%/*}" ] || mkdir -p "$tmp${name%/*}"
		cp -f --remove-destination "$a" "$tmp$name" && chmod "$b" "$tmp$name" ;;
	slink)
		[ -d "$tmp${name%/*}" ] || mkdir -p "$tmp${name%/*}"
		ln -sfn "$a" "$tmp$name" ;;
	nod) [ -d "$tmp${name%/*}" ] || mkdir -p "$tmp${name%/*}" ;;
	*) echo "stage-rootfs: $list:$lineno: unknown entry '$kind'" >&2; exit 1 ;;
	esac
done < "$list"
done
chmod 0755 "$tmp"
rm -rf "$dir.old"
[ ! -e "$dir" ] || mv "$dir" "$dir.old"
mv "$tmp" "$dir"
rm -rf "$dir.old"
trap - EXIT
echo "$stamp" > "$dir.stamp"
echo "  STAGE   $dir"
