#!/bin/sh
# Install the Debian packages portkit needs, only those that are missing.
# Usage: scripts/install-deps.sh [GROUP...]   (groups: kernel emulator disk test; default: all)
set -eu

kernel="linux-source-6.1 gcc-mipsel-linux-gnu binutils-mipsel-linux-gnu
	device-tree-compiler flex bison bc rsync cpio kmod xz-utils make gcc libc6-dev
	python3 python3-jinja2 python3-yaml"
emulator="gcc make libfdt-dev device-tree-compiler gcc-mipsel-linux-gnu
	binutils-mipsel-linux-gnu"
disk="e2fsprogs"
test="python3-pytest qemu-user qemu-system-mips gdb-multiarch clang
	libclang-rt-14-dev"

groups=${*:-kernel emulator disk test}
want=""
for g in $groups; do
	case $g in
	kernel) want="$want $kernel" ;;
	emulator) want="$want $emulator" ;;
	disk) want="$want $disk" ;;
	test) want="$want $test" ;;
	*) echo "install-deps: unknown group '$g' (kernel, emulator, disk, test)" >&2; exit 2 ;;
	esac
done

missing=""
for p in $want; do
	case " $missing " in *" $p "*) continue ;; esac
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "install-deps: installing:$missing"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
$SUDO apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
