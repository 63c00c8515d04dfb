#!/bin/sh
# Stage a root file system tree from an initramfs list (the format of the
# kernel's gen_init_cpio: dir, file, slink and nod lines), for make-disk.sh.
# Usage: scripts/stage-rootfs.sh LIST DIR
# DIR is replaced as a whole. Device nodes are left out (no root needed:
# the kernel's devtmpfs provides /dev); an empty /dev stays as mount point.
set -eu

[ $# -eq 2 ] || { echo "usage: $0 LIST DIR" >&2; exit 2; }
list=$1 dir=$2
[ -f "$list" ] || { echo "stage-rootfs: $list: no such initramfs list" >&2; exit 1; }

tmp=$(mktemp -d "$(dirname "$dir")/.stage.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
lineno=0
while read -r kind name a b c d e; do
	lineno=$((lineno + 1))
	case $kind in
	''|'#'*) continue ;;
	dir) mkdir -p "$tmp$name" && chmod "$a" "$tmp$name" ;;
	file)
		[ -f "$a" ] || { echo "stage-rootfs: $list:$lineno: $a: no such file" >&2; exit 1; }
		mkdir -p "$(dirname "$tmp$name")"
		cp "$a" "$tmp$name" && chmod "$b" "$tmp$name" ;;
	slink) mkdir -p "$(dirname "$tmp$name")" && ln -sfn "$a" "$tmp$name" ;;
	nod) mkdir -p "$(dirname "$tmp$name")" ;;
	*) echo "stage-rootfs: $list:$lineno: unknown entry '$kind'" >&2; exit 1 ;;
	esac
done < "$list"
chmod 0755 "$tmp"
rm -rf "$dir.old"
[ ! -e "$dir" ] || mv "$dir" "$dir.old"
mv "$tmp" "$dir"
rm -rf "$dir.old"
trap - EXIT
