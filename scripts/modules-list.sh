#!/bin/sh
# The initramfs list of the test modules built in DIR: /lib/modules/*.ko.
# Usage: scripts/modules-list.sh DIR
set -eu
dir=$(cd "$1" && pwd)
echo 'dir /lib 0755 0 0'
echo 'dir /lib/modules 0755 0 0'
for ko in "$dir"/*.ko; do
	[ -e "$ko" ] || continue
	echo "file /lib/modules/$(basename "$ko") $ko 0644 0 0"
done
