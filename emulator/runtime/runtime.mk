# The bare-metal runtime for a Makefile that builds guest programs (included
# by runtime/Makefile, tests/baremetal/Makefile, fuzz/Makefile). Needs BUILD.
#   RT_CC RT_CFLAGS   compiler and flags (include runtime.h and hwdesc.h)
#   RT_LDFLAGS        -T link.ld and friends (add -Wl,--defsym=RT_TEXT=... to move)
#   RT_OBJS           crt0.o lib.o mmu.o, in link order (first on the link line)
RT_DIR    := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
include $(RT_DIR)/../hwdesc.mk
RT_OUT    := $(BUILD)/emulator/runtime
CROSS     ?= mipsel-linux-gnu-
RT_CC     := $(CROSS)gcc
RT_ARCH   := -EL -march=mips32r2 -msoft-float -G0 -fno-pic -mno-abicalls -fno-pie \
             -Wa,-mno-fix-loongson3-llsc
RT_CFLAGS := $(RT_ARCH) -O2 -g -Wall -Wextra -ffreestanding -fno-builtin -nostdlib \
             -fno-stack-protector -fno-asynchronous-unwind-tables -I$(RT_DIR) -I$(HWDIR)
RT_LDFLAGS := -nostdlib -no-pie -static -Wl,-T,$(RT_DIR)/link.ld -Wl,--build-id=none \
              -Wl,-z,norelro
RT_OBJS   := $(RT_OUT)/crt0.o $(RT_OUT)/lib.o $(RT_OUT)/mmu.o

$(RT_OUT)/%.o: $(RT_DIR)/%.c $(RT_DIR)/runtime.h $(RT_DIR)/mmu.h $(HWDESC_H) | $(RT_OUT)
	$(RT_CC) $(RT_CFLAGS) -c -o $@ $<
$(RT_OUT)/%.o: $(RT_DIR)/%.S $(RT_DIR)/runtime.h $(HWDESC_H) | $(RT_OUT)
	$(RT_CC) $(RT_CFLAGS) -c -o $@ $<
$(RT_OUT):
	mkdir -p $@
