# The board's hardware description, generated from the spec (included by the
# emulator's Makefile and by runtime/, tests/baremetal/, bench/, fuzz/):
#
#   $(HWDIR)/hwdesc.h        memory map, device bases and registers, PTE bits,
#                            MMU fault codes, CP0/CP2 register numbers (C + asm)
#   $(HWDIR)/hwdesc_dtb.c    the built-in platform's DTB (tsar-emu without -dtb)
#   $(HWDIR)/<platform>.dts  its source
#
# made by `generate.py $(HW_SPEC) --hwdesc $(HWDIR)` (generator/hwdesc.py).
# HW_SPEC is emulator/platform.yaml: arch-spec.yaml with one CPU. Needs
# BUILD (absolute) set before inclusion.
HWDESC_MK  := $(lastword $(MAKEFILE_LIST))
PORTKIT    := $(abspath $(dir $(HWDESC_MK))..)
PYTHON     ?= /usr/bin/python3
HW_SPEC    ?= $(PORTKIT)/emulator/platform.yaml
HWDIR      := $(BUILD)/hwdesc
HWDESC_H   := $(HWDIR)/hwdesc.h
HWDESC_DTB := $(HWDIR)/hwdesc_dtb.c
# what the description is made from: the specs, the generator, the layers'
# data and the device-tree templates (whose file names have spaces: make
# depends on their directories, so `touch` the directory after editing one)
HWDESC_DEPS := $(HW_SPEC) $(PORTKIT)/arch-spec.yaml $(PORTKIT)/generate.py \
	$(wildcard $(PORTKIT)/generator/*.py $(PORTKIT)/generator/*.yaml \
	$(PORTKIT)/overrides/*/layer.yaml $(PORTKIT)/overrides/*/_registers.yaml) \
	$(PORTKIT)/templates/boot/dts $(wildcard $(PORTKIT)/overrides/*/boot/dts)

$(HWDIR)/.stamp: $(HWDESC_DEPS)
	@mkdir -p $(HWDIR)
	$(PYTHON) $(PORTKIT)/generate.py $(HW_SPEC) --hwdesc $(HWDIR) --quiet
	@touch $@
$(HWDESC_H) $(HWDESC_DTB): $(HWDIR)/.stamp ;
