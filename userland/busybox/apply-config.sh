#!/bin/sh
# Make BusyBox's .config for TSAR: Debian's busybox-static configuration
# (debian/config/os/linux then debian/config/pkg/static, as debian/rules
# does) with the changes in config.changes, then "make oldconfig".
# With CC, the compiler BusyBox is built with, the applets its kernel
# headers cannot build are left out as well (below).
#
# Usage: apply-config.sh SRC OUT CHANGES [CC]
set -eu

[ $# -eq 3 ] || [ $# -eq 4 ] || { echo "usage: $0 SRC OUT CHANGES [CC]" >&2; exit 2; }
src=$1 out=$2 changes=$3 cc=${4:-}
for f in "$src/debian/config/os/linux" "$src/debian/config/pkg/static" "$changes"; do
	[ -f "$f" ] || { echo "apply-config: $f not found" >&2; exit 2; }
done
mkdir -p "$out"
cat "$src/debian/config/os/linux" "$src/debian/config/pkg/static" > "$out/.config.new"

n=0
while read -r opt val rest; do
	case $opt in ''|'#'*) continue ;; esac
	case $opt in
	CONFIG_[A-Z0-9_]*) ;;
	*) echo "apply-config: $changes: bad option '$opt'" >&2; exit 2 ;;
	esac
	case $rest in
	--\ ?*) ;;
	*) echo "apply-config: $changes: $opt: no reason given (OPTION VALUE -- reason)" >&2; exit 2 ;;
	esac
	grep -q "^$opt=\|^# $opt is not set" "$out/.config.new" ||
		{ echo "apply-config: $opt is not in Debian's configuration" >&2; exit 2; }
	sed -i "/^$opt=/d; /^# $opt is not set/d" "$out/.config.new"
	case $val in
	n) echo "# $opt is not set" >> "$out/.config.new" ;;
	y|\"*\"|[0-9]*) echo "$opt=$val" >> "$out/.config.new" ;;
	*) echo "apply-config: $opt: bad value '$val'" >&2; exit 2 ;;
	esac
	n=$((n + 1))
done < "$changes"

# tc prints CBQ classes with the UAPI's CBQ definitions, which the kernel's
# headers dropped with the CBQ qdisc (6.1's have them, 6.12's not).
if [ -n "$cc" ] && ! printf '#include <linux/pkt_sched.h>\nint x = TCA_CBQ_MAX;\n' |
		"$cc" -x c -c -o /dev/null - 2>/dev/null; then
	sed -i "/^CONFIG_TC=/d; /^# CONFIG_TC is not set/d" "$out/.config.new"
	echo "# CONFIG_TC is not set" >> "$out/.config.new"
	echo "  CONFIG  BusyBox: no tc (the kernel headers have no CBQ definitions)"
fi

mv "$out/.config.new" "$out/.config"
yes "" | make -s -C "$src" O="$out" oldconfig >/dev/null
for opt in $(sed -n 's/^\(CONFIG_[A-Z0-9_]*\) \([yn"0-9]\).*/\1=\2/p' "$changes"); do
	o=${opt%%=*} v=${opt#*=}
	if [ "$v" = n ]; then
		! grep -q "^$o=y" "$out/.config" ||
			{ echo "apply-config: $o=n did not survive oldconfig" >&2; exit 1; }
	elif [ "$v" = y ]; then
		grep -q "^$o=y" "$out/.config" ||
			{ echo "apply-config: $o=y did not survive oldconfig" >&2; exit 1; }
	fi
done
echo "  CONFIG  BusyBox: Debian's busybox-static configuration, $n changes (config.changes)"
