#!/bin/sh
# The initramfs list of the test modules built in DIR, and of the kernel's
# own modules listed in KOUT/modules.order if KOUT is given (the torture
# tests of a variant, for example):
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
if [ $# -ge 2 ] && [ -f "$2/modules.order" ]; then
	kout=$(cd "$2" && pwd)
	# Entries are paths of .ko (or .o) files relative to the build tree.
	sed -e 's/\.o$/.ko/' "$kout/modules.order" |
	while read -r ko; do
		# Older trees prefix the entries with kernel/.
		[ -e "$kout/$ko" ] || ko=${ko#kernel/}
		[ -e "$kout/$ko" ] || continue
		echo "file /lib/modules/$(basename "$ko") $kout/$ko 0644 0 0"
	done
fi
