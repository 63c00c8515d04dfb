# portkit: generate arch/<name> from a spec, build Linux (6.12 or 6.1) with it, boot it
# in the TSAR emulator. Every target installs what it needs first.
#
#   make run            the main job (generate, build kernel + emulator, boot);
#                       NET=none: no network (docs/network.md)
#   make test           every test
#   make bench          emulator benchmark and guest figures (not pass/fail)
#   make bench-tracing  what ftrace (off and on) and perf counting cost (in make bench)
#   make bench-sister   qmips on QEMU mipssim next to stock arch/mips on Malta
#   make bench-net      TCP throughput and latency, TSAR next to stock MIPS on Malta
#   make disk           ext4 root file system image for the block device
#   make bench-disk     block-device throughput (sequential write+fsync, read)
#   make test-stress    power cuts at many random points (POWERCUT_COUNT=N)
#   make test-coverage  kcov and gcov on the coverage kernel variant
#   make test-ftrace-startup  the kernel's ftrace startup tests at boot
#   make test-series-debug  the debug variant's tests on the 6.1 kernel
#   make perf-tool      the kernel tree's perf tool for the guest
#   make test-perf-tool perf list, stat, record and report in the guest
#   make features       the arch's Documentation/features table next to peer arches
#   SPEC=path.yaml      use another spec (default arch-spec.yaml)
#   VARIANT=name        apply the config fragment variants/<name>.config
#                       (build output in build/<spec>-<name>/)

SPEC      ?= arch-spec.yaml
PYTHON    ?= /usr/bin/python3
JOBS      ?= $(shell nproc)
TOP       := $(abspath .)
BUILD     := $(TOP)/build

# The Debian kernel source of the spec's series (arch.kernel_series),
# unpacked once per series; each spec builds in its own hard-linked copy,
# build/ktree/<series>/<spec stem>/ (cp -al: seconds, no extra space), whose
# arch/<name> points at that spec's generated tree, so two specs with the
# same arch name, or of two series, can configure, build and test at the same
# time.
KSRC_TAR   = /usr/src/linux-source-$(KERNEL_SERIES).tar.xz
KSRC0      = $(BUILD)/linux-source-$(KERNEL_SERIES)

# What the spec is called and where its output goes: the default spec
# generates into generated/ (committed), any other one under build/gen/.
SPEC_STEM := $(basename $(notdir $(SPEC)))

# The spec's values the build uses (ARCH_NAME, DEFCONFIG, PLATFORM,
# CROSS_LIST, SYSCALL_ERRORS, MMU_WALKER, UTS_MACHINE, BOOTARGS,
# QEMU_MACHINE, QEMU_CMD), read once: the generator writes them into a make
# fragment, again when the spec, a spec it extends (SPEC_FILES, listed in the
# fragment) or the generator changes, and make then reads itself again. A
# broken spec stops make with the generator's message (file, line, key).
SPEC_MK   := $(BUILD)/spec/$(SPEC_STEM).mk
ifneq ($(filter-out help deps distclean,$(or $(MAKECMDGOALS),all)),)
include $(SPEC_MK)
endif
# A fragment written for another spec of the same file name (SPEC_FILES
# does not list this one) is made again, once: make sets MAKE_RESTARTS
# when it reads itself again.
SPEC_MK_OTHER = $(if $(MAKE_RESTARTS),,$(if $(filter $(abspath $(SPEC)),$(SPEC_FILES)),,FORCE))
$(SPEC_MK): $(SPEC) $(wildcard $(SPEC_FILES)) $(wildcard $(TOP)/generator/*.py) $(SPEC_MK_OTHER)
	$(PYTHON) generate.py $(SPEC) --make-fragment $@

.PHONY: FORCE
FORCE:

ifeq ($(abspath $(SPEC)),$(TOP)/arch-spec.yaml)
GEN_OUT   := $(TOP)/generated
KOUT       = $(BUILD)/$(ARCH_NAME)
else
GEN_OUT   := $(BUILD)/gen/$(SPEC_STEM)
KOUT       = $(BUILD)/$(SPEC_STEM)
endif
KSRC      := $(BUILD)/ktree/$(KERNEL_SERIES)/$(SPEC_STEM)

# A kernel variant: the spec's defconfig plus a config fragment (debug
# options, test suites), built in a directory of its own.
VARIANT   ?=
ifneq ($(VARIANT),)
FRAGMENT  := $(TOP)/variants/$(VARIANT).config
ifeq ($(wildcard $(FRAGMENT)),)
$(error VARIANT=$(VARIANT): no such fragment $(FRAGMENT))
endif
KOUT_BASE := $(KOUT)
KOUT       = $(KOUT_BASE)-$(VARIANT)
endif
# The userland depends on the spec, not on the kernel configuration: the
# variants of a spec share the spec's (built once per spec).
UOUT       = $(if $(VARIANT),$(KOUT_BASE),$(KOUT))

# ccache, when installed (install-deps does), lets a spec's variants reuse
# the objects another O= directory compiled from the same sources (a KUnit
# variant built after the default kernel: 21% of its compilations).  CCACHE=
# turns it off.
CCACHE    ?= $(shell command -v ccache 2>/dev/null)
export CCACHE_DIR ?= $(BUILD)/ccache
KCC        = $(if $(CCACHE),CC="$(CCACHE) $(CROSS_COMPILE)gcc")
KMAKE      = $(MAKE) -C $(KSRC) O=$(KOUT) ARCH=$(ARCH_NAME) -j$(JOBS) $(KCC)
EMU        = $(BUILD)/bin/tsar-emu

.PHONY: all setup deps generate check-generated kernel-tree kconfig userland \
	rootfs rootfs-build kernel emulator disk run test bench bench-real bench-tracing bench-sister bench-disk bench-net busybox-ref test-busybox rv32-sbi-proof \
	test-stress test-coverage test-ftrace-startup test-series-debug perf-tool test-perf-tool features \
	clean distclean help

all: run

help:
	@sed -n '2,22p' Makefile

deps:
	@scripts/install-deps.sh

setup: deps kernel-tree

generate:
	@KERNEL_SERIES=$(KERNEL_SERIES) scripts/install-deps.sh kernel
	$(PYTHON) generate.py $(SPEC) -o $(GEN_OUT)

# The arch's feature table: each feature of the kernel's
# Documentation/features, the arch's status from its Kconfig as the spec
# renders it, next to peer arches (generator/features.py; PEERS=a,b,...).
PEERS ?=
features: $(KSRC0)/Makefile
	@$(PYTHON) generate.py $(SPEC) --features --kernel-src $(KSRC0)$(if $(PEERS), --peers $(PEERS))

check-generated:
	$(PYTHON) generate.py arch-spec.yaml --check

# Unpack the kernel once (into a private directory, renamed when complete).
$(KSRC0)/Makefile:
	@KERNEL_SERIES=$(KERNEL_SERIES) scripts/install-deps.sh kernel
	@mkdir -p $(BUILD)
	@echo "  UNPACK  $(KSRC_TAR) -> $(KSRC0) (about 10 s, one dot per 5000 files)"
	@tmp=$$(mktemp -d $(BUILD)/.unpack.XXXXXX) && \
	tar -C $$tmp -xf $(KSRC_TAR) --checkpoint=5000 --checkpoint-action=dot && echo && \
	{ mv -T $$tmp/linux-source-$(KERNEL_SERIES) $(KSRC0) 2>/dev/null || true; } && rm -rf $$tmp

# This spec's kernel tree: a hard-linked copy of the pristine one, made
# privately and renamed into place (concurrent makes cannot see half a copy),
# with arch/<name> pointing at this spec's generated directory.
$(KSRC)/Makefile: $(KSRC0)/Makefile
	@mkdir -p $(dir $(KSRC))
	@echo "  TREE    $(KSRC) (hard links to $(KSRC0))"
	@tmp=$$(mktemp -d $(dir $(KSRC)).copy.XXXXXX) && cp -al $(KSRC0) $$tmp/tree && \
	{ mv -T $$tmp/tree $(KSRC) 2>/dev/null || true; } && rm -rf $$tmp

kernel-tree: $(KSRC)/Makefile generate
	@ln -sfn $(GEN_OUT)/arch/$(ARCH_NAME) $(KSRC)/arch/$(ARCH_NAME)
	@echo "  LINK    $(KSRC)/arch/$(ARCH_NAME) -> $(GEN_OUT)/arch/$(ARCH_NAME)"

# Configure from the generated defconfig (again whenever it changes), in
# output directories emptied first if another series built them.
kconfig: kernel-tree
	@scripts/drop-other-series.sh $(KERNEL_SERIES) $(KOUT) $(UOUT)
	@mkdir -p $(KOUT)
	@if [ ! -f $(KOUT)/.config ] || \
	    [ $(GEN_OUT)/arch/$(ARCH_NAME)/configs/$(DEFCONFIG) -nt $(KOUT)/.config ] || \
	    { [ -n "$(FRAGMENT)" ] && [ $(FRAGMENT) -nt $(KOUT)/.config ]; }; then \
		$(KMAKE) $(DEFCONFIG) && \
		if [ -n "$(FRAGMENT)" ]; then \
			scripts/fragment-for-series.sh $(FRAGMENT) $(KERNEL_SERIES) \
				> $(KOUT)/variant.config && \
			$(KSRC)/scripts/kconfig/merge_config.sh -m -O $(KOUT) \
				$(KOUT)/.config $(KOUT)/variant.config >/dev/null && \
			$(KMAKE) olddefconfig && \
			scripts/check-fragment.sh $(FRAGMENT) $(KOUT)/variant.config \
				$(KOUT)/.config; \
		fi; \
	else \
		$(KMAKE) olddefconfig; \
	fi

CROSS_COMPILE ?= $(firstword $(foreach p,$(CROSS_LIST),$(if $(shell command -v $(p)gcc 2>/dev/null),$(p))))

# UAPI headers and the userland (nolibc) built against them: the initramfs.
userland: kconfig
	$(KMAKE) headers_install INSTALL_HDR_PATH=$(UOUT)/sysroot
	$(MAKE) -C userland OUT=$(UOUT)/userland SYSROOT=$(UOUT)/sysroot \
		NOLIBC=$(KSRC0)/tools/include/nolibc CROSS_COMPILE=$(CROSS_COMPILE) \
		ARCH_NAME=$(ARCH_NAME) UTS_MACHINE=$(UTS_MACHINE) SYSCALL_ERRORS=$(SYSCALL_ERRORS) MMU_WALKER=$(MMU_WALKER)

# musl, BusyBox and dropbear from Debian 12's sources and the root file
# system staged from them, build/<name>/rootfs/ (BusyBox and its links,
# /etc, the musl-built test programs of userland/musl-tests/, dropbear with
# its keys from userland/dropbear/), whose list
# joins the initramfs of the default spec's kernels. ROOTFS_INITRAMFS=0
# leaves it out (other specs default to 0: their test kernels build faster).
# Each step is cached: musl and BusyBox are built again only when their
# sources, the port or the generated syscall files change.
# The default spec on the other kernel series (ROOTFS_SPECS) gets the same
# root file system: the tests run the same programs on both series.
ROOTFS_SPECS := arch-spec.yaml specs/tsar-6.1.yaml
ROOTFS_INITRAMFS ?= $(if $(filter $(addprefix $(TOP)/,$(ROOTFS_SPECS)),$(abspath $(SPEC))),1,0)
ROOTFS_LIST = $(if $(filter 0,$(ROOTFS_INITRAMFS)),,$(UOUT)/rootfs.list)

MUSL_MAKE  = -C userland/musl SRC=$(BUILD)/src OUT=$(UOUT)/musl \
	SYSROOT=$(UOUT)/sysroot SPEC=$(abspath $(SPEC)) CROSS_COMPILE=$(CROSS_COMPILE) \
	PYTHON=$(PYTHON) JOBS=$(JOBS)

rootfs: userland
	@$(MAKE) --no-print-directory rootfs-build

rootfs-build:
	@scripts/install-deps.sh sources keys
	@scripts/get-sources.sh $(BUILD)/src musl busybox gcc-12 dropbear
	@$(MAKE) --no-print-directory $(MUSL_MAKE)
	@$(MAKE) --no-print-directory -C userland/busybox SRC=$(BUILD)/src/busybox \
		OUT=$(UOUT)/busybox MUSL=$(UOUT)/musl JOBS=$(JOBS)
	@$(MAKE) --no-print-directory -C userland/dropbear SRC=$(BUILD)/src/dropbear \
		OUT=$(UOUT)/dropbear MUSL=$(UOUT)/musl CROSS_COMPILE=$(CROSS_COMPILE) JOBS=$(JOBS)
	@$(MAKE) --no-print-directory -C userland/musl-tests OUT=$(UOUT)/musl-tests MUSL=$(UOUT)/musl \
		ARCH_INCLUDE=$(UOUT)/userland/arch-include KST_SRC=$(KSRC0)/tools/testing/selftests
	@$(MAKE) --no-print-directory -C userland/rootfs ROOTFS=$(UOUT)/rootfs \
		BUSYBOX=$(UOUT)/busybox PROGRAMS=$(UOUT)/musl-tests/bin \
		LIST=$(UOUT)/rootfs.list SKIP=$(UOUT)/userland/initramfs.list \
		OVERLAY=$(UOUT)/dropbear/tree OVERLAY_STAMP=$(UOUT)/dropbear/tree.stamp

# vmlinux with the initramfs linked in, and the DTB, in build/<name>/.
#
# The test modules (userland/modules/) are built out of tree against that
# vmlinux and, with the kernel's own modules (a variant's =m self-tests),
# go into the initramfs through a second list, modules.list. vmlinux was
# linked before the modules were (re)built, so it is linked again when that
# list changes or a module is newer than it: after a config change the
# initramfs would otherwise carry modules built for the old config.
MODSRC    := $(TOP)/userland/modules

kernel: userland
ifneq ($(ROOTFS_LIST),)
	@$(MAKE) --no-print-directory rootfs-build
endif
	@test -f $(KOUT)/modules.list || echo 'dir /lib 0755 0 0' > $(KOUT)/modules.list
	@$(KSRC)/scripts/config --file $(KOUT)/.config \
		--set-str INITRAMFS_SOURCE "$(UOUT)/userland/initramfs.list $(KOUT)/modules.list$(if $(ROOTFS_LIST), $(ROOTFS_LIST))"
	@$(KMAKE) olddefconfig >/dev/null
	@echo "  KBUILD  vmlinux for $(ARCH_NAME) in $(KOUT) (about 3 minutes from scratch on 2 cores)"
	@# The log lets ./generate.py --status map undefined symbols to responsibilities.
	@{ $(KMAKE) vmlinux dtbs 2>&1; echo $$? > $(KOUT)/.kbuild-status; } | tee $(KOUT)/build.log
	@exit $$(cat $(KOUT)/.kbuild-status)
	@if grep -q '^CONFIG_MODULES=y' $(KOUT)/.config; then \
		mkdir -p $(KOUT)/extmod && cp -u $(MODSRC)/Kbuild $(MODSRC)/*.c $(KOUT)/extmod/ && \
		$(KMAKE) modules && \
		$(KMAKE) M=$(KOUT)/extmod modules && \
		scripts/modules-list.sh $(KOUT)/extmod $(KOUT) > $(KOUT)/modules.list.new && \
		if cmp -s $(KOUT)/modules.list.new $(KOUT)/modules.list; then \
			rm $(KOUT)/modules.list.new; \
		else \
			mv $(KOUT)/modules.list.new $(KOUT)/modules.list; \
		fi && \
		if [ $(KOUT)/modules.list -nt $(KOUT)/vmlinux ] || \
		   [ -n "$$(find $(KOUT) -name '*.ko' -newer $(KOUT)/vmlinux | head -n 1)" ]; then \
			echo "  RELINK  vmlinux with the modules in the initramfs" && \
			$(KMAKE) vmlinux; \
		fi; \
	fi
	@cp $(KOUT)/arch/$(ARCH_NAME)/boot/dts/$(PLATFORM).dtb $(KOUT)/$(PLATFORM).dtb
	@$(CROSS_COMPILE)size $(KOUT)/vmlinux
	@echo "  KERNEL  $(KOUT)/vmlinux"
	@echo "  DTB     $(KOUT)/$(PLATFORM).dtb"

emulator:
	@scripts/install-deps.sh emulator
	$(MAKE) -C emulator BUILD=$(BUILD)

# The root file system image for the block device: an ext4
# image of ROOTFS_DIR made with mke2fs -d (scripts/make-disk.sh, no root
# needed), rebuilt only when its inputs change. By default ROOTFS_DIR is
# staged (scripts/stage-rootfs.sh, again only when its lists or their files
# change) from the initramfs lists: for the default spec the BusyBox root
# file system (build/<name>/rootfs, its list) with the nolibc /init and test
# programs for the smoke checks, in build/<name>/rootfs-disk; for specs
# without the BusyBox root (ROOTFS_INITRAMFS=0) the nolibc userland alone,
# in build/<name>/rootfs-nolibc.
# PERF_TOOL=1 (make disk, make run) stages the perf tool as well.
DISK        = $(KOUT)/disk.img
DISK_SIZE  ?= 32M
DISK_ROOTFS = $(if $(ROOTFS_LIST),$(UOUT)/rootfs-disk,$(UOUT)/rootfs-nolibc)
ROOTFS_DIR ?= $(DISK_ROOTFS)
PERF_TOOL  ?=
PERF_LIST   = $(if $(filter 1,$(PERF_TOOL)),$(UOUT)/perf-tool/perf-tool.list)

disk: userland
	@scripts/install-deps.sh disk
ifneq ($(ROOTFS_LIST),)
	@$(MAKE) --no-print-directory rootfs-build
endif
ifneq ($(PERF_LIST),)
	@$(MAKE) --no-print-directory perf-tool
endif
	@if [ "$(ROOTFS_DIR)" = "$(DISK_ROOTFS)" ]; then \
		scripts/stage-rootfs.sh $(UOUT)/userland/initramfs.list $(ROOTFS_LIST) \
			$(PERF_LIST) $(ROOTFS_DIR); fi
	@scripts/make-disk.sh $(ROOTFS_DIR) $(DISK) $(DISK_SIZE)

# The reference BusyBox for the BusyBox testsuite comparison and shell
# bench: the same source and .config as TSAR's, static for stock MIPS with
# Debian's mipsel-linux-gnu-gcc and glibc, run under qemu-mipsel
# (userland/busybox/ref.mk, scripts/bbsuite.py); cached in build/busybox-mipsel.
BBREF      := $(BUILD)/busybox-mipsel

busybox-ref:
	@scripts/install-deps.sh sources mipsref
	@scripts/get-sources.sh $(BUILD)/src busybox
	@$(MAKE) --no-print-directory -C userland/busybox -f ref.mk SRC=$(BUILD)/src/busybox \
		OUT=$(BBREF) JOBS=$(JOBS)

BOOT_TIMEOUT ?= 300

# The main job: boot the kernel to /init in the emulator, or in QEMU when
# the spec names a QEMU machine (platform.qemu; APPEND="..." sets the
# kernel command line there); the guest's power-off status is the exit status.
# (QEMU_CMD, from the spec: the QEMU command up to -kernel; see scripts/qemu-cmd.py.)
QEMU_RUN   = $(if $(QEMU_CMD),$(QEMU_CMD) -kernel $(KOUT)/vmlinux$(if $(strip $(APPEND)), -append '$(subst ','"'"',$(strip $(APPEND)))'))
# Once `make disk` made the image, `make run` keeps it up to date and boots
# with it as the root file system (root=/dev/ioc0 rw rootfstype=ext4
# init=/init: the initramfs /init switches to the disk and executes the
# disk's /init, the same smoke checks; init falls back to the initramfs).
HAVE_DISK  = $(if $(QEMU_MACHINE),,$(wildcard $(DISK)))
ROOT_ARGS  = root=/dev/ioc0 rw rootfstype=ext4 init=/init
DISK_ARGS  = $(if $(HAVE_DISK),-disk $(DISK) -append "$(BOOTARGS) $(ROOT_ARGS)")
SHELL_ARGS = $(BOOTARGS)$(if $(HAVE_DISK), $(ROOT_ARGS)) portkit_shell=1

# The network (scripts/run-net.py), only when the spec's platform has a NIC
# (a device compatible with "soclib,vci_multi_nic"; otherwise no -net
# option at all): NET=user (default) is libslirp's user-mode network, from a
# terminal with a free port of 127.0.0.1 forwarded to the guest's ssh port
# and the ssh/scp commands printed (key: SSH_KEY, made at build time);
# NET=none boots without a network. NET_FWD="hostfwd=...,guestfwd=..." adds
# forwards, NET_DUMP=file.pcap captures the NIC's packets.
NET       ?= user
NET_FWD   ?=
NET_DUMP  ?=
SSH_KEY    = $(UOUT)/dropbear/keys/client_ed25519
RUN_NET    = $(PYTHON) scripts/run-net.py $(SPEC) --net '$(NET)'$(if $(NET_FWD), --fwd '$(NET_FWD)')$(if $(NET_DUMP), --dump '$(NET_DUMP)')

#
# From a terminal (stdin is a TTY) with the BusyBox root file system, the
# emulator boots to a BusyBox shell instead (kernel command line: the
# spec's bootargs plus portkit_shell=1; with the disk image, on the disk
# root: what is written there stays for the next boot) and runs without a
# time limit; `poweroff` ends it with status 0.
run: kernel $(if $(QEMU_MACHINE),,emulator) $(if $(HAVE_DISK),disk)
ifneq ($(QEMU_MACHINE),)
	@echo "  BOOT    $(KOUT)/vmlinux in QEMU"
	timeout $(BOOT_TIMEOUT) $(QEMU_RUN)
else
	@if [ -t 0 ] && [ -n "$(ROOTFS_LIST)" ]; then \
		net=$$($(RUN_NET) --ssh $(SSH_KEY)) || exit 1; net=$$(echo $$net); \
		echo "  BOOT    $(KOUT)/vmlinux in $(EMU): BusyBox shell on the console, poweroff to end"; \
		echo "$(EMU) -dtb $(KOUT)/$(PLATFORM).dtb -timeout inf $(if $(HAVE_DISK),-disk $(DISK)) $${net:+$$net }-append '$(SHELL_ARGS)' $(KOUT)/vmlinux"; \
		exec $(EMU) -dtb $(KOUT)/$(PLATFORM).dtb -timeout inf $(if $(HAVE_DISK),-disk $(DISK)) \
			$$net -append "$(SHELL_ARGS)" $(KOUT)/vmlinux; \
	fi; \
	net=$$($(RUN_NET)) || exit 1; net=$$(echo $$net); \
	echo "  BOOT    $(KOUT)/vmlinux in $(EMU)"; \
	echo "$(EMU) -dtb $(KOUT)/$(PLATFORM).dtb -timeout $(BOOT_TIMEOUT) -v $${net:+$$net }$(subst ",',$(DISK_ARGS)) $(KOUT)/vmlinux"; \
	exec $(EMU) -dtb $(KOUT)/$(PLATFORM).dtb -timeout $(BOOT_TIMEOUT) -v $$net $(DISK_ARGS) $(KOUT)/vmlinux
endif

# BusyBox's own testsuite on TSAR next to the reference BusyBox under
# qemu-mipsel (tests/boot/test_busybox_testsuite.py), the whole
# suite in batches, two at a time. Opt-in: TSAR's bc.tests alone pipes
# 5 million lines through bc | bc: 22 min here at load 2-4, 65 min at load
# 9-10 (the whole run: 24.5 min at load 2-4); make test runs a fixed batch
# of 17 applets on TSAR instead.
test-busybox: emulator kernel busybox-ref
	PORTKIT_BBSUITE=1 $(PYTHON) -m pytest -s tests/boot/test_busybox_testsuite.py

# Power cuts at many random points of the file-system workload
# (tests/boot/test_powercut.py; make test runs a fixed handful):
# POWERCUT_COUNT seed numbers from POWERCUT_FIRST, or the list and ranges
# POWERCUT_SEEDS=3,9,20-29 (one seed number replays a failure).
POWERCUT_COUNT ?= 50
POWERCUT_FIRST ?= 1000
POWERCUT_SEEDS ?=

test-stress: emulator kernel
	@scripts/install-deps.sh test disk
	POWERCUT_SEEDS="$(POWERCUT_SEEDS)" POWERCUT_COUNT=$(POWERCUT_COUNT) \
		POWERCUT_FIRST=$(POWERCUT_FIRST) $(PYTHON) -m pytest -s tests/boot/test_powercut.py

# Kernel code coverage (tests/boot/test_coverage.py): kcov and gcov over the
# whole kernel, on the coverage variant (variants/coverage.config), which
# only this target builds.
test-coverage: emulator
	PORTKIT_COVERAGE=1 $(PYTHON) -m pytest -s tests/boot/test_coverage.py

test-ftrace-startup: emulator
	PORTKIT_FTRACE_STARTUP=1 $(PYTHON) -m pytest -s tests/boot/test_ftrace_startup.py

# The debug variant's tests (KUnit and self-tests, the debug kernel's checks,
# kmemleak, kgdbts, the torture tests: test_kunit.py, test_debug_kernel.py,
# test_smp_kernel.py) on the 6.1 debug kernel, which make test does not
# build (it runs them on the default series, 6.12): PORTKIT_SERIES_DEBUG=1
# adds it to kbuild.DEBUG_KEYS, -k keeps only its tests.
test-series-debug: emulator
	PORTKIT_SERIES_DEBUG=1 $(PYTHON) -m pytest -s tests/boot/test_kunit.py \
		tests/boot/test_debug_kernel.py tests/boot/test_smp_kernel.py \
		tests/boot/test_network.py -k tsar-6.1-debug

# The kernel tree's own perf tool for the guest, build/<name>/perf-tool/
# (userland/perf-tool/): tools/perf of the kernel source, static with the
# musl port, libelf and zlib built from Debian 12's sources; perf is built
# once, again only when its inputs change. The disk gets it with
# PERF_TOOL=1; test-perf-tool boots it (tests/boot/test_perf_tool.py).
perf-tool: userland
	@scripts/install-deps.sh sources
	@scripts/get-sources.sh $(BUILD)/src musl gcc-12 elfutils zlib
	@$(MAKE) --no-print-directory $(MUSL_MAKE)
	@$(MAKE) --no-print-directory -C userland/perf-tool SRC=$(BUILD)/src KSRC=$(KSRC0) \
		OUT=$(UOUT)/perf-tool MUSL=$(UOUT)/musl SYSROOT=$(UOUT)/sysroot \
		CROSS_COMPILE=$(CROSS_COMPILE) JOBS=$(JOBS)

test-perf-tool: emulator
	@scripts/install-deps.sh test disk
	PORTKIT_PERF_TOOL=1 $(PYTHON) -m pytest -s tests/boot/test_perf_tool.py

# generated/ must be what the spec produces before anything uses it.
test: deps emulator
	$(PYTHON) generate.py arch-spec.yaml --check
	$(PYTHON) -m pytest tests

# Emulator speed, then the guest's: boot instructions to /init and
# instructions per syscall, switch, fork, fault (scripts/bench-guest.py),
# then the SMP figures on 1, 2, 4 and 8 CPUs, for which the bench
# also builds the 8-CPU kernel (specs/tsar-smp8.yaml, build/tsar-smp8/),
# then the userland's: boot to the BusyBox shell prompt and a shell workload on
# TSAR next to the reference BusyBox under qemu-mipsel (busybox-ref), then
# what tracing and perf counting cost (bench-tracing), then the network's
# figures next to stock MIPS (bench-net; with the BusyBox root file system).
SMP8_SPEC := specs/tsar-smp8.yaml

bench: emulator kernel
	@scripts/install-deps.sh test
	$(MAKE) --no-print-directory kernel SPEC=$(SMP8_SPEC) VARIANT= JOBS=$(JOBS) ROOTFS_INITRAMFS=0
	$(MAKE) -C emulator BUILD=$(BUILD) bench
	$(PYTHON) scripts/bench-guest.py --emu $(EMU) --dtb $(KOUT)/$(PLATFORM).dtb \
		--vmlinux $(KOUT)/vmlinux --vmlinux8 $(BUILD)/$(basename $(notdir $(SMP8_SPEC)))/vmlinux
	$(MAKE) --no-print-directory bench-real
ifneq ($(ROOTFS_LIST),)
	@$(MAKE) --no-print-directory busybox-ref
	$(PYTHON) scripts/shell-boot-figures.py $(EMU) $(KOUT)/$(PLATFORM).dtb $(KOUT)/vmlinux "$(BOOTARGS)"
	$(PYTHON) scripts/bench-shell.py --emu $(EMU) --dtb $(KOUT)/$(PLATFORM).dtb \
		--vmlinux $(KOUT)/vmlinux --lists $(UOUT)/userland/initramfs.list,$(ROOTFS_LIST) \
		--busybox $(UOUT)/busybox/busybox --config $(UOUT)/busybox/.config \
		--busybox-build $(BBREF) --bootargs "$(BOOTARGS)"
endif
	$(MAKE) --no-print-directory bench-tracing
ifneq ($(ROOTFS_LIST),)
	$(MAKE) --no-print-directory bench-net
endif

# Real workloads (boot to power-off, the kernel-heavy mix /bin/bench, the
# shell workload) with the emulator of an earlier commit (BENCH_BASE: main
# before the JIT's real-code work) next to this one, interleaved, MIPS and
# ratio each (scripts/bench-real.py). The base emulator is built once from
# `git archive` into build/bench-base/. Figures, not a test.
BENCH_BASE ?= 4f46309
BASE_DIR   := $(BUILD)/bench-base
BENCH_LISTS = $(UOUT)/userland/initramfs.list,$(ROOTFS_LIST)
bench-real: emulator kernel
	@if [ "$$(cat $(BASE_DIR)/commit 2>/dev/null)" != "$$(git rev-parse $(BENCH_BASE))" ]; then \
		rm -rf $(BASE_DIR) && mkdir -p $(BASE_DIR)/src && \
		git archive $(BENCH_BASE) | tar -x -C $(BASE_DIR)/src && \
		$(MAKE) --no-print-directory -C $(BASE_DIR)/src/emulator BUILD=$(BASE_DIR) && \
		git rev-parse $(BENCH_BASE) > $(BASE_DIR)/commit; fi
	$(PYTHON) scripts/bench-real.py --base-emu $(BASE_DIR)/bin/tsar-emu --emu $(EMU) \
		--dtb $(KOUT)/$(PLATFORM).dtb --vmlinux $(KOUT)/vmlinux \
		$(if $(ROOTFS_LIST),--lists $(BENCH_LISTS) \
		--busybox $(UOUT)/busybox/busybox --config $(UOUT)/busybox/.config)

# What tracing and perf counting cost, in guest instructions of a null
# syscall and of a make-like job (scripts/bench-tracing.py, /bin/trace-cost):
# the tracing variant (variants/tracing.config: function and graph tracers,
# syscall tracepoints, all off at boot; built only here, in
# $(KOUT)-tracing/) next to the default kernel, each tracer on against
# off, and a perf counting event against none. Figures, not a test.
bench-tracing: emulator kernel
	$(MAKE) --no-print-directory kernel VARIANT=tracing JOBS=$(JOBS)
	$(PYTHON) scripts/bench-tracing.py --emu $(EMU) --dtb $(KOUT)/$(PLATFORM).dtb \
		--vmlinux $(KOUT)/vmlinux --vmlinux-tracing $(KOUT)-tracing/vmlinux

# Block-device throughput through the root file system: a large
# sequential write + fsync, then a read, in guest time and guest
# instructions (scripts/bench-disk.py, /bin/disk-bench, on a copy of the image).
bench-disk: kernel emulator disk
	$(PYTHON) scripts/bench-disk.py --emu $(EMU) --dtb $(KOUT)/$(PLATFORM).dtb \
		--vmlinux $(KOUT)/vmlinux --disk $(DISK) --bootargs "$(BOOTARGS)"

# The sister architecture next to stock arch/mips: qmips on QEMU
# mipssim and a malta_defconfig kernel (built here, in build/malta) on QEMU
# Malta, both 24Kc with 128 MiB: boot time to /init, vmlinux sizes,
# nolibc-test (scripts/bench-sister.sh). Figures, not a test.
bench-sister:
	$(MAKE) --no-print-directory kernel SPEC=specs/qmips.yaml JOBS=$(JOBS)
	scripts/bench-sister.sh $(BUILD)/qmips $(BUILD)/malta $(KSRC0) $(JOBS)

# The network next to stock MIPS: TCP throughput both ways and round-trip
# latency through libslirp (restrict=off, host forwards), TSAR in tsar-emu
# (its 4-CPU board, and with one CPU) next to a stock malta_defconfig kernel
# with INET and the on-board PCnet NIC (scripts/malta-kernel.sh --net, built
# here in build/malta-net) on qemu-system-mipsel -M malta: the same
# workload from BusyBox's shell, the stock side with the reference BusyBox
# (busybox-ref; TSAR's, musl on asm-generic syscall numbers, cannot run on
# stock MIPS) (scripts/bench-net.py). Figures, not a test.
MALTA_NET := $(BUILD)/malta-net
bench-net: emulator kernel busybox-ref
	@test -n "$(ROOTFS_LIST)" || { echo "bench-net: $(SPEC) has no BusyBox root file system"; exit 1; }
	@test -n "$$($(RUN_NET))" || { echo "bench-net: $(SPEC)'s platform has no NIC"; exit 1; }
	@scripts/install-deps.sh test
	scripts/malta-kernel.sh $(MALTA_NET) $(KSRC0) $(JOBS) --net
	$(PYTHON) scripts/bench-net.py --emu $(EMU) --dtb $(KOUT)/$(PLATFORM).dtb \
		--vmlinux $(KOUT)/vmlinux --bootargs "$(BOOTARGS)" \
		--malta-vmlinux $(MALTA_NET)/vmlinux --gen-init-cpio $(MALTA_NET)/usr/gen_init_cpio \
		--busybox-ref $(BBREF)

# RISC-V groundwork: portkit's M-mode SBI shim (firmware/rv32-sbi) under a
# stock arch/riscv rv32_defconfig kernel, trimmed (built here in
# build/rv32-upstream by scripts/rv32-upstream-kernel.sh), on QEMU virt:
# to a nolibc /init and power-off (tests/boot/test_rv32_sbi.py, which
# make test skips while that kernel is not built).
RV32_KSRC := $(BUILD)/linux-source-6.12
rv32-sbi-proof:
	@scripts/install-deps.sh rv32
	@$(MAKE) --no-print-directory $(RV32_KSRC)/Makefile KERNEL_SERIES=6.12
	scripts/rv32-upstream-kernel.sh $(BUILD)/rv32-upstream $(RV32_KSRC) $(JOBS)
	$(PYTHON) -m pytest -s tests/boot/test_rv32_sbi.py

clean:
	rm -rf $(BUILD)/$(ARCH_NAME) $(BUILD)/gen $(BUILD)/bin $(BUILD)/emulator $(BUILD)/ktree

distclean:
	rm -rf $(BUILD)
