#!/bin/sh
# Boot the stock arch/riscv rv32 kernel (scripts/rv32-upstream-kernel.sh) on
# QEMU virt through portkit's SBI shim (firmware/rv32-sbi) to a nolibc
# /init that prints a line and powers off; exits with QEMU's status (0
# when the guest powered off). The shim and /init are (re)built here; the
# kernel only with --build. Reused by the RV32 benches, which put the
# port's kernel next to this one.
#
# usage: scripts/rv32-upstream-boot.sh [--build JOBS] [--srst] [--smp N]
#            [--kernel-dir DIR] [--append WORDS] [-- QEMU-ARGS...]
#   --build JOBS  build (or bring up to date) the kernel in DIR first
#   --srst        boot with QEMU's device tree less its syscon power-off
#                 and reboot nodes: Linux then powers off through SBI SRST
#                 (with them, Linux 6.12 prefers the syscon driver)
#   --smp N       N harts (default 1)
#   --kernel-dir  the kernel's build directory (default build/rv32-upstream)
#   --append      more kernel command line (rv32_hotplug=1: /init takes
#                 CPU 1 off line and back, through SBI HSM; needs --smp 2)
# The CPU is the port's: RV32IMA (no C, F, D, H) and no Sstc, so that the
# timer goes through SBI TIME (the shim's mtimecmp -> STIP path).
# Environment: TIMEOUT (seconds, default 120).
set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
KDIR=$TOP/build/rv32-upstream KSRC=$TOP/build/linux-source-6.12
SHIM=$TOP/build/rv32-sbi PROOF=$TOP/build/rv32-proof
BUILD_JOBS="" SRST=0 SMP=1 APPEND=""
while [ $# -gt 0 ]; do
	case $1 in
	--build) BUILD_JOBS=$2; shift ;;
	--srst) SRST=1 ;;
	--smp) SMP=$2; shift ;;
	--kernel-dir) KDIR=$2; shift ;;
	--append) APPEND=" $2"; shift ;;
	--) shift; break ;;
	*) echo "$0: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done

[ -z "$BUILD_JOBS" ] || "$TOP/scripts/rv32-upstream-kernel.sh" "$KDIR" "$KSRC" "$BUILD_JOBS"
IMAGE=$KDIR/arch/riscv/boot/Image
[ -f "$IMAGE" ] || { echo "$0: no $IMAGE (run with --build JOBS)" >&2; exit 2; }

make -s -C "$TOP/firmware/rv32-sbi" O="$SHIM" >/dev/null

# /init: nolibc from the kernel tree, the kernel's own UAPI headers
# (built every time: a fraction of a second).
mkdir -p "$PROOF"
riscv64-linux-gnu-gcc -march=rv32ima_zicsr -mabi=ilp32 -Os -static -nostdlib \
	-ffreestanding -fno-stack-protector -fno-asynchronous-unwind-tables \
	-I"$KSRC/tools/include/nolibc" -I"$KDIR/usr-headers/include" \
	-include nolibc.h -o "$PROOF/init" "$TOP/firmware/rv32-sbi/proof/init.c"
printf 'dir /dev 0755 0 0\nnod /dev/console 0600 0 0 c 5 1\nfile /init %s 0755 0 0\n' \
	"$PROOF/init" > "$PROOF/initramfs.list"
"$KDIR/usr/gen_init_cpio" "$PROOF/initramfs.list" > "$PROOF/initramfs.cpio"

MACHINE="-M virt -m 128M -smp $SMP -cpu rv32,c=false,f=false,d=false,h=false,sstc=false"
DTB_ARGS=""
if [ $SRST = 1 ]; then
	# shellcheck disable=SC2086
	qemu-system-riscv32 $MACHINE -bios "$SHIM/rv32-sbi.elf" \
		-machine dumpdtb="$PROOF/virt-srst.dtb" -display none >/dev/null 2>&1
	fdtput -r "$PROOF/virt-srst.dtb" /poweroff /reboot
	DTB_ARGS="-dtb $PROOF/virt-srst.dtb"
fi

# shellcheck disable=SC2086  # the lists are words
exec timeout "${TIMEOUT:-120}" qemu-system-riscv32 $MACHINE $DTB_ARGS \
	-bios "$SHIM/rv32-sbi.elf" -kernel "$IMAGE" -initrd "$PROOF/initramfs.cpio" \
	-append "console=ttyS0 earlycon=sbi rdinit=/init$APPEND" \
	-nographic -display none -no-reboot "$@"
