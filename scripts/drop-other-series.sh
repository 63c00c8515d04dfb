#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# drop-other-series.sh SERIES DIR...: empty each kernel build directory whose
# .config was made by a kernel of another series than SERIES ("6.12").
#
# A spec that changes arch.kernel_series keeps its build directory, but
# everything in it (objects, UAPI headers, the userland built against them)
# belongs to the old tree, and the new tree's sources are older than those
# objects, so make would keep them: the directory starts afresh instead.
set -eu
series=$1
shift
for dir in "$@"; do
	[ -f "$dir/.config" ] || continue
	# "# Linux/tsar 6.1.192 Kernel Configuration": the third line.
	version=$(sed -n '3s/^# Linux\/[^ ]* \([0-9][0-9]*\.[0-9][0-9]*\)\..*/\1/p' "$dir/.config")
	[ "$version" = "$series" ] && continue
	echo "  CLEAN   $dir (built for Linux ${version:-unknown}, the spec says $series)"
	find "$dir" -mindepth 1 -delete
done
