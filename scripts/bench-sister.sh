#!/bin/sh
# Side by side: the sister architecture qmips on QEMU mipssim next
# to stock arch/mips on QEMU Malta, same CPU model (24Kc), same RAM, same
# /init and nolibc-test. Prints vmlinux text/data/bss and, for each boot,
# the wall-clock time to "Run /init" and the kernel's own timestamp there,
# and the nolibc-test tally. Not a test: figures only.
#
# usage: scripts/bench-sister.sh QMIPS_OUT MALTA_OUT KSRC JOBS
#   QMIPS_OUT  build/qmips (vmlinux built by make kernel SPEC=specs/qmips.yaml)
#   MALTA_OUT  build/malta (created here: stock kernel, userland, initramfs)
#   KSRC       the pristine kernel tree of the series (build/linux-source-6.12;
#              never modified)
set -eu

JOBS=${4:-2}
mkdir -p "$2"
# Absolute paths: make -C changes directory before reading O=.
QOUT=$(cd "$1" && pwd) MOUT=$(cd "$2" && pwd) KSRC=$(cd "$3" && pwd)
TOP=$(cd "$(dirname "$0")/.." && pwd)
CROSS=mipsel-linux-gnu-
PY=${PYTHON:-/usr/bin/python3}

mkdir -p "$MOUT/userland/include"

# --- stock userland: the same init.c and nolibc-test, with the kernel
# tree's own MIPS o32 nolibc support and arch/mips UAPI headers.
make -s -C "$KSRC" O="$MOUT" ARCH=mips headers_install INSTALL_HDR_PATH="$MOUT/sysroot" >/dev/null
cp "$KSRC"/tools/include/nolibc/*.h "$MOUT/userland/include/"
CFLAGS="-Os -static -nostdlib -fno-pie -no-pie -EL -march=mips32r2 -msoft-float \
 -fno-asynchronous-unwind-tables -fno-ident -fno-stack-protector -ffreestanding \
 -fno-builtin -w -DPORTKIT_STOCK_MIPS -DPORTKIT_KERNEL_WINDOWS -I$MOUT/userland/include -I$MOUT/sysroot/include -I$TOP/userland/include"
${CROSS}gcc $CFLAGS -o "$MOUT/userland/init" "$TOP/userland/init.c" -lgcc
# 6.12's nolibc-test has a second unit (errno and constructors across units).
NOLIBC_TEST=$KSRC/tools/testing/selftests/nolibc
${CROSS}gcc $CFLAGS -D_LIBC_LIMITS_H_ -include nolibc.h -o "$MOUT/userland/nolibc-test" \
	"$NOLIBC_TEST/nolibc-test.c" $(ls "$NOLIBC_TEST/nolibc-test-linkage.c" 2>/dev/null) -lgcc
cat > "$MOUT/userland/initramfs.list" <<EOF
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
dir /proc 0755 0 0
dir /tmp 1777 0 0
dir /bin 0755 0 0
file /init $MOUT/userland/init 0755 0 0
file /bin/nolibc-test $MOUT/userland/nolibc-test 0755 0 0
EOF

# --- stock kernel: malta_defconfig with qmips' feature set
# (scripts/malta-kernel.sh), the initramfs linked in.
"$TOP/scripts/malta-kernel.sh" "$MOUT" "$KSRC" "$JOBS" --initramfs "$MOUT/userland/initramfs.list"

# --- boot both, with nolibc-test
run_one() {	# name, command...: boot, print the figures
	name=$1; shift
	$PY "$TOP/scripts/bench-sister-figures.py" "$name" "$MOUT/$name.log" "$@"
}

echo "  SIZE    text/data/bss"
${CROSS}size "$QOUT/vmlinux" "$MOUT/vmlinux"

run_one qmips-mipssim timeout 300 $PY "$TOP/scripts/qemu-cmd.py" --exec "$TOP/specs/qmips.yaml" \
	"$QOUT/vmlinux" console=ttyS0 portkit_nolibc_test=1
run_one stock-malta timeout 300 qemu-system-mipsel -M malta -cpu 24Kc -m 128M \
	-display none -monitor none -serial stdio -nic none -vga none -no-reboot -kernel "$MOUT/vmlinux" \
	-append "console=ttyS0 portkit_nolibc_test=1"
