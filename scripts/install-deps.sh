#!/bin/sh
# Install the Debian packages portkit needs, only those that are missing.
# Usage: scripts/install-deps.sh [GROUP...]
#   groups: kernel emulator disk test sources mipsref keys rv32; default: kernel emulator disk test
#   mipsref: the stock-MIPS reference BusyBox (glibc, static) and qemu-mipsel-static
#   test: also stock MIPS's UAPI headers (test_wild_sp.py builds a program for qemu-mipsel)
#   kernel: the Linux source of each series in KERNEL_SERIES (default: all the
#   kit supports, "6.1 6.12"; the Makefile asks for the spec's series only)
#   sources: dpkg-dev and a deb-src entry for Debian 12 in portkit's own
#   /etc/apt/sources.list.d/portkit-src.sources (for scripts/get-sources.sh)
#   keys: the guest's ssh keys made at build time (userland/dropbear/): the
#   host key with dropbearkey, the client key pair with ssh-keygen
#   test: also ssh and scp, the network tests' client (tests/boot/test_network_userland.py)
#   rv32: the RISC-V groundwork: Debian's riscv64 cross gcc (it builds RV32
#   with -march/-mabi) for firmware/rv32-sbi and the stock rv32 kernel,
#   qemu-system-riscv32 (qemu-system-misc), fdtput (device-tree-compiler)
set -eu

kernel_sources=""
for s in ${KERNEL_SERIES:-6.1 6.12}; do
	case $s in
	6.1 | 6.12) kernel_sources="$kernel_sources linux-source-$s" ;;
	*) echo "install-deps: KERNEL_SERIES: unknown series '$s' (6.1, 6.12)" >&2; exit 2 ;;
	esac
done
kernel="$kernel_sources gcc-mipsel-linux-gnu binutils-mipsel-linux-gnu
	device-tree-compiler flex bison bc rsync cpio kmod xz-utils make gcc libc6-dev
	python3 python3-jinja2 python3-yaml ccache"
emulator="gcc make libfdt-dev libslirp-dev libglib2.0-dev pkg-config device-tree-compiler gcc-mipsel-linux-gnu
	binutils-mipsel-linux-gnu python3 python3-jinja2 python3-yaml"
disk="e2fsprogs"
test="python3-pytest qemu-user qemu-system-mips gdb-multiarch clang
	libclang-rt-14-dev tmux linux-libc-dev-mipsel-cross openssh-client"
sources="dpkg-dev xz-utils"
mipsref="gcc-mipsel-linux-gnu libc6-dev-mipsel-cross qemu-user-static e2fsprogs"
keys="dropbear-bin openssh-client"
rv32="gcc-riscv64-linux-gnu binutils-riscv64-linux-gnu qemu-system-misc device-tree-compiler
	flex bison bc make gcc libc6-dev"
SRC_LIST=/etc/apt/sources.list.d/portkit-src.sources

groups=${*:-kernel emulator disk test}
want=""
for g in $groups; do
	case $g in
	kernel) want="$want $kernel" ;;
	emulator) want="$want $emulator" ;;
	disk) want="$want $disk" ;;
	test) want="$want $test" ;;
	sources) want="$want $sources" ;;
	mipsref) want="$want $mipsref" ;;
	keys) want="$want $keys" ;;
	rv32) want="$want $rv32" ;;
	*) echo "install-deps: unknown group '$g' (kernel, emulator, disk, test, sources, mipsref, keys, rv32)" >&2; exit 2 ;;
	esac
done

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo

# Debian 12's source packages (musl, busybox): a deb-src entry of our own.
case " $groups " in
*" sources "*)
	if [ ! -f "$SRC_LIST" ] ||
	    ! ls /var/lib/apt/lists/*_bookworm_main_source_Sources* >/dev/null 2>&1; then
		echo "install-deps: adding deb-src entry $SRC_LIST"
		printf '%s\n' '# portkit: Debian 12 source packages (scripts/get-sources.sh)' \
			'Types: deb-src' 'URIs: http://deb.debian.org/debian' \
			'Suites: bookworm' 'Components: main' \
			'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' |
			$SUDO tee "$SRC_LIST" >/dev/null
		$SUDO apt-get update -qq
	fi ;;
esac

missing=""
for p in $want; do
	case " $missing " in *" $p "*) continue ;; esac
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "install-deps: installing:$missing"
$SUDO apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
