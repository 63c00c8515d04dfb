#!/bin/sh
# A stock arch/riscv kernel (upstream rv32_defconfig) for QEMU virt, the
# reference that portkit's own RV32 port will be put next to, and the
# kernel that proves firmware/rv32-sbi (portkit's M-mode SBI shim).
# Built out of tree from the pristine source, trimmed like
# scripts/malta-kernel.sh trims malta_defconfig (the list below).
#
# usage: scripts/rv32-upstream-kernel.sh OUT KSRC JOBS
#   OUT   build directory (build/rv32-upstream)
#   KSRC  the pristine kernel tree (build/linux-source-6.12; never modified)
# Makes OUT/arch/riscv/boot/Image and OUT/usr-headers (the UAPI headers,
# for nolibc programs).
set -eu

[ $# -ge 3 ] || { echo "usage: $0 OUT KSRC JOBS" >&2; exit 2; }
mkdir -p "$1"
OUT=$(cd "$1" && pwd) KSRC=$(cd "$2" && pwd) JOBS=$3
CROSS=riscv64-linux-gnu-
kmake() { make -s -C "$KSRC" O="$OUT" ARCH=riscv CROSS_COMPILE=$CROSS "$@"; }

# rv32_defconfig is defconfig + 32-bit.config: every SoC, ~300 options,
# modules, netfilter, DRM, USB, sound, and a set of slow debug options
# (DEBUG_VM, DEBUG_PAGEALLOC, lock debugging...). Trimmed to the feature
# set of portkit's own kernels (the qmips list of malta-kernel.sh): QEMU
# virt only (ARCH_VIRT keeps the PLIC, ns16550 and syscon power-off), no
# modules (nor what the defconfig builds as modules), no ACPI, PCI, KVM,
# cgroups/BPF/security frameworks, the NET core without INET, no block,
# filesystems beyond tmpfs/devtmpfs, input, framebuffer, USB, MMC,
# sound; no debug options but DEBUG_FS. The ISA is the port's: RV32IMA,
# no compressed instructions, no FPU, no vector (FPU, RISCV_ISA_C,
# RISCV_ISA_V off; no EFI stub). SMP stays on (the shim is built
# for more harts later); SBI earlycon and the SBI console stay.
TRIM="-d ARCH_MICROCHIP -d ARCH_RENESAS -d ARCH_SIFIVE -d ARCH_SOPHGO -d SOC_STARFIVE
	-d ARCH_SUNXI -d ARCH_THEAD -d ARCH_CANAAN -e ARCH_VIRT
	-d MODULES -d ACPI -d PCI -d VIRTUALIZATION -d KVM -d CPU_FREQ -d CPU_IDLE
	-d CGROUPS -d BPF_SYSCALL -d NAMESPACES -d CHECKPOINT_RESTORE -d SECURITY
	-d IKCONFIG -d PROFILING -d PERF_EVENTS
	-e BLK_DEV_INITRD -e DEVTMPFS -e DEVTMPFS_MOUNT -e TMPFS -e PRINTK_TIME
	-e NO_HZ_IDLE -e HIGH_RES_TIMERS -e CC_OPTIMIZE_FOR_SIZE -e EXPERT
	-d INET -d NETDEVICES -d WIRELESS -d WLAN -d NET_9P -d CAN -d BRIDGE -d NETFILTER
	-d ATA -d SCSI -d BLK_DEV_SD -d BLK_DEV_SR -d MD -d MTD -d BLK_DEV_LOOP
	-d VIRTIO_BLK -d BLK_DEV_NVME -d LIBNVDIMM
	-d EXT4_FS -d BTRFS_FS -d ISO9660_FS -d MSDOS_FS -d VFAT_FS -d NFS_FS -d 9P_FS
	-d AUTOFS_FS -d OVERLAY_FS -d HUGETLBFS -d QUOTA
	-d INPUT -d VT -d FB -d DRM -d MEDIA_SUPPORT -d USB_SUPPORT -d MMC -d SOUND -d HID
	-d I2C -d SPI -d GPIO_SIFIVE -d REGULATOR -d WATCHDOG -d IIO -d PM_DEVFREQ
	-d DMADEVICES -d RPMSG_CHAR -d RPMSG_CTRL -d RPMSG_VIRTIO -d SUN50I_IOMMU
	-d MFD_AXP20X_I2C -d THERMAL -d HW_RANDOM -d RTC_CLASS -d MAGIC_SYSRQ
	-d VIRTIO_MENU -d VIRTIO_CONSOLE -d CRYPTO_DEV_VIRTIO -d SERIAL_8250_DW
	-e SERIAL_8250 -e SERIAL_8250_CONSOLE -e SERIAL_OF_PLATFORM
	-e SERIAL_EARLYCON_RISCV_SBI -e HVC_RISCV_SBI
	-d DEBUG_PAGEALLOC -d SCHED_STACK_END_CHECK -d DEBUG_VM -d DEBUG_MEMORY_INIT
	-d DEBUG_PER_CPU_MAPS -d SOFTLOCKUP_DETECTOR -d WQ_WATCHDOG -d DEBUG_RT_MUTEXES
	-d DEBUG_SPINLOCK -d DEBUG_MUTEXES -d DEBUG_RWSEMS -d DEBUG_ATOMIC_SLEEP
	-d DEBUG_LIST -d DEBUG_PLIST -d DEBUG_SG -d RCU_EQS_DEBUG -d MEMTEST
	-d DEBUG_INFO -d DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT -e DEBUG_INFO_NONE
	-d FPU -d RISCV_ISA_C -d RISCV_ISA_V -d EFI
	-e DEBUG_FS"

# STAMP: change it when the list changes, to reconfigure.
STAMP=rv32-trim-1
if [ "$(cat "$OUT/.config-stamp" 2>/dev/null)" != "$STAMP" ]; then
	kmake rv32_defconfig
	MODS=$(sed -n 's/^CONFIG_\(.*\)=m$/-d \1/p' "$KSRC/arch/riscv/configs/defconfig")
	# shellcheck disable=SC2086  # the lists are words
	"$KSRC/scripts/config" --file "$OUT/.config" $MODS $TRIM
	kmake olddefconfig
	echo "$STAMP" > "$OUT/.config-stamp"
fi
echo "  KBUILD  stock arch/riscv (rv32_defconfig, trimmed) in $OUT"
kmake -j"$JOBS" Image
kmake headers_install INSTALL_HDR_PATH="$OUT/usr-headers"
