#!/bin/sh
# The initramfs list of the test modules built in DIR, and of the kernel's
# own modules built in KOUT (the torture tests of a variant, for example):
# /lib/modules/*.ko.
# Usage: scripts/modules-list.sh DIR [KOUT]
set -eu
dir=$(cd "$1" && pwd)
echo 'dir /lib 0755 0 0'
echo 'dir /lib/modules 0755 0 0'
for ko in "$dir"/*.ko; do
	[ -e "$ko" ] || continue
	echo "file /lib/modules/$(basename "$ko") $ko 0644 0 0"
done
if [ $# -ge 2 ]; then
	kout=$(cd "$2" && pwd)
	find "$kout" -path "$dir" -prune -o -name '*.ko' -print | sort |
	while read -r ko; do
		echo "file /lib/modules/$(basename "$ko") $ko 0644 0 0"
	done
fi
