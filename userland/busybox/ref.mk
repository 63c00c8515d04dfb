# SPDX-License-Identifier: GPL-2.0
#
# The reference BusyBox for the BusyBox testsuite comparison: the same
# source (Debian 12's 1.35.0) and the same .config as TSAR's (made by the
# same apply-config.sh from the same config.changes), built static for
# stock MIPS with Debian's mipsel-linux-gnu-gcc and glibc
# (libc6-dev-mipsel-cross), to run under qemu-mipsel, with the same
# patches/. Built out of tree in $(OUT), again only when the source, the
# patches or the configuration change.
#
#   make -C userland/busybox -f ref.mk SRC=build/src/busybox OUT=<dir>

SRC	?= ../../build/src/busybox
OUT	?= ../../build/busybox-mipsel
JOBS	?= 2

OUT	:= $(abspath $(OUT))
HERE	:= $(abspath .)
TREE	:= $(OUT)-src
BBMAKE	= $(MAKE) -C $(TREE) O=$(OUT) CC=mipsel-linux-gnu-gcc \
	  HOSTCC=gcc CROSS_COMPILE=mipsel-linux-gnu- SKIP_STRIP=n

all: $(OUT)/busybox

include $(HERE)/patched-tree.mk

$(OUT)/.config: $(TREE)/.portkit-patched config.changes apply-config.sh ref.mk
	$(HERE)/apply-config.sh $(TREE) $(OUT) $(HERE)/config.changes

$(OUT)/busybox: $(OUT)/.config
	@echo "  BUSYBOX $(OUT)/busybox for stock MIPS (glibc, static; about 10 minutes from scratch on 2 cores)"
	+$(BBMAKE) -j$(JOBS) busybox busybox.links
	touch $@

clean:
	rm -rf $(OUT) $(TREE)

.PHONY: all clean
