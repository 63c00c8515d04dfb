#!/bin/sh
# A stock arch/mips kernel for QEMU Malta, for the benches that put a port
# next to stock MIPS: malta_defconfig, little endian MIPS32r2 (24Kc), trimmed
# to the feature set of portkit's own kernels (the list below, the one place
# it is kept), built out of tree from the pristine source.
#
# usage: scripts/malta-kernel.sh OUT KSRC JOBS [--net] [--initramfs LIST]
#   OUT        build directory (build/malta, build/malta-net)
#   KSRC       the pristine kernel tree (build/linux-source-6.12; never modified)
#   --net      IPv4/IPv6 and Malta's on-board NIC (AMD PCnet, pcnet32):
#              make bench-net
#   --initramfs LIST  a gen_init_cpio list linked into vmlinux (bench-sister);
#              without it the initramfs comes at boot (QEMU -initrd)
set -eu

[ $# -ge 3 ] || { echo "usage: $0 OUT KSRC JOBS [--net] [--initramfs LIST]" >&2; exit 2; }
mkdir -p "$1"
# Absolute paths: make -C changes directory before reading O=.
OUT=$(cd "$1" && pwd) KSRC=$(cd "$2" && pwd) JOBS=$3
shift 3
NET=0 INITRAMFS=
while [ $# -gt 0 ]; do
	case $1 in
	--net) NET=1 ;;
	--initramfs) INITRAMFS=$2; shift ;;
	*) echo "$0: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
CROSS=mipsel-linux-gnu-
kmake() { make -s -C "$KSRC" O="$OUT" ARCH=mips CROSS_COMPILE=$CROSS "$@"; }

# qmips' defconfig's feature set: no modules (nor what malta_defconfig
# builds as modules, which Kconfig would build in without MODULES), the
# NET core without INET (so no IPv6, netfilter, NFS), no block-device
# drivers, filesystems beyond tmpfs/devtmpfs, input, VT, framebuffer,
# USB or sound, debugfs on. What Malta itself needs stays (PCI, the
# southbridge's UART and power-off). Without this the stock kernel
# compares malta_defconfig's ~1,200 built-in options with qmips' few,
# and takes over an hour to build on this shared 2-core machine.
QMIPS="-e CPU_LITTLE_ENDIAN -d CPU_BIG_ENDIAN -e CPU_MIPS32_R2
	-e BLK_DEV_INITRD -e DEVTMPFS -e DEVTMPFS_MOUNT -e TMPFS -e PRINTK_TIME -e HZ_100
	-e NO_HZ_IDLE -e HIGH_RES_TIMERS -e CC_OPTIMIZE_FOR_SIZE -d MODULES
	-e EXPERT -d INET -d NETDEVICES -d WIRELESS -d WLAN
	-d ATA -d SCSI -d BLK_DEV_SD -d MD -d MTD -d BLK_DEV_LOOP
	-d EXT2_FS -d EXT3_FS -d EXT4_FS -d XFS_FS -d REISERFS_FS -d JFS_FS
	-d BTRFS_FS -d ISO9660_FS -d UDF_FS -d MSDOS_FS -d VFAT_FS -d CRAMFS
	-d NFS_FS -d NFSD -d CIFS -d FUSE_FS -d QUOTA -d AUTOFS_FS
	-d INPUT -d VT -d FB -d DRM -d USB_SUPPORT -d SOUND -d HID
	-d HW_RANDOM -d RTC_CLASS -d MAGIC_SYSRQ
	-e DEBUG_FS"
# --net: the network of TSAR's defconfig (packet and Unix sockets, IPv4
# with Kconfig's defaults, IPv6 without SIT) and the on-board NIC; what
# malta_defconfig adds beyond that goes (netfilter, IPsec, policy and
# multicast routing, kernel IP autoconfiguration, SYN cookies, TCP MD5,
# traffic control), so that both kernels run the same protocol code.
NETWORK="-e INET -e IPV6 -d IPV6_SIT -e NETDEVICES -e ETHERNET -e NET_VENDOR_AMD -e PCNET32
	-d NETFILTER -d NET_KEY -d XFRM_USER -d IP_ADVANCED_ROUTER -d IP_MULTICAST
	-d IP_MROUTE -d IPV6_MROUTE -d IP_PNP -d SYN_COOKIES -d TCP_MD5SIG -d NET_SCHED
	-d NETWORK_SECMARK -d IPV6_ROUTER_PREF -d IPV6_OPTIMISTIC_DAD"

# STAMP: change it when the lists change, to reconfigure.
STAMP=qmips-options-3 OPTIONS=$QMIPS WHAT=malta_defconfig
if [ $NET = 1 ]; then
	STAMP=$STAMP+net-1 OPTIONS="$QMIPS $NETWORK" WHAT="malta_defconfig, network"
fi
if [ "$(cat "$OUT/.config-stamp" 2>/dev/null)" != "$STAMP" ]; then
	kmake malta_defconfig
	MODS=$(sed -n 's/^CONFIG_\(.*\)=m$/-d \1/p' "$KSRC/arch/mips/configs/malta_defconfig")
	# shellcheck disable=SC2086  # the lists are words
	"$KSRC/scripts/config" --file "$OUT/.config" $MODS $OPTIONS \
		--set-str INITRAMFS_SOURCE "$INITRAMFS"
	kmake olddefconfig
	echo "$STAMP" > "$OUT/.config-stamp"
fi
echo "  KBUILD  stock arch/mips ($WHAT) in $OUT"
kmake -j"$JOBS" vmlinux
