#!/bin/sh
# Fail when a setting of a config fragment did not survive olddefconfig
# (a missing dependency, a misspelt option): a variant is never silently
# built without what it asks for.
# Usage: scripts/check-fragment.sh FRAGMENT SETTINGS .config
#   SETTINGS: the fragment as the kernel series sees it
#   (scripts/fragment-for-series.sh); FRAGMENT names it in messages.
set -eu
frag=$1 settings=$2 config=$3
bad=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=n) want="# ${line%=n} is not set" ;;
	CONFIG_*=*) want=$line ;;
	"# CONFIG_"*" is not set") want=$line ;;
	*) continue ;;
	esac
	if ! grep -qxF "$want" "$config"; then
		case $want in
		"# "*) grep -q "^${line%%=*}=" "$config" || continue ;;
		esac
		echo "check-fragment: $frag: '$line' is not in the resulting .config" >&2
		bad=1
	fi
done < "$settings"
exit $bad
