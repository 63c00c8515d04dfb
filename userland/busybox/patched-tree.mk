# SPDX-License-Identifier: GPL-2.0
#
# BusyBox's source with portkit's patches (patches/*.patch, in name order)
# applied: a copy of $(SRC) in $(TREE), made again when the source or a
# patch changes (Makefile and ref.mk include this). The unpacked source in
# build/src stays as Debian ships it.

PATCHES	:= $(sort $(wildcard $(HERE)/patches/*.patch))

$(TREE)/.portkit-patched: $(SRC)/.portkit-unpacked $(PATCHES) $(HERE)/patched-tree.mk
	@echo "  PATCH   $(TREE): $(notdir $(PATCHES))"
	rm -rf $(TREE).new && mkdir -p $(dir $(TREE)) && cp -a $(SRC) $(TREE).new
	@for p in $(PATCHES); do \
		patch -d $(TREE).new -p1 --quiet --forward --no-backup-if-mismatch < $$p || \
			{ echo "busybox: $$p does not apply to $(SRC)" >&2; exit 1; }; \
	done
	rm -rf $(TREE) && mv $(TREE).new $(TREE)
	touch $@
