#!/bin/sh
# A config fragment as one kernel series sees it: a line ending in
# "# series: A B" (option names that exist in those series only, e.g. a
# self-test that became a KUnit suite) is kept only for series A or B;
# every other line is kept as it is.
# Usage: scripts/fragment-for-series.sh FRAGMENT SERIES > OUT
set -eu
[ $# -eq 2 ] || { echo "usage: $0 FRAGMENT SERIES" >&2; exit 2; }
[ -r "$1" ] || { echo "fragment-for-series: cannot read $1" >&2; exit 2; }
awk -v series="$2" '
/#[ \t]*series:/ {
	list = $0
	sub(/.*#[ \t]*series:[ \t]*/, "", list)
	line = $0
	sub(/[ \t]*#[ \t]*series:.*/, "", line)
	n = split(list, s, /[ \t]+/)
	for (i = 1; i <= n; i++)
		if (s[i] == series) { print line; next }
	next
}
{ print }
' "$1"
