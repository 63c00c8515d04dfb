# SPDX-License-Identifier: GPL-2.0
#
# The kernel tree's own selftests that build against nolibc, compiled
# from the kernel source (tools/testing/selftests) with the compat layer in
# kselftest-compat/ and installed as /bin/kst-<name>. Included by
# userland/Makefile; tests/boot/test_selftests.py runs them in the guest.
# kst-tests.mk lists them; the ones that start threads are musl-tests/'s.
# SELFTESTS.md lists the ones tried that cannot build yet, and why.

KST_SRC		:= $(NOLIBC)/../../testing/selftests
KST_OUT		:= $(OUT)/kst

include kst-tests.mk

KST_BINS	:= $(addprefix $(KST_OUT)/kst-,$(KST_UNTHREADED))

# Only gcc's freestanding headers, the kernel's UAPI, nolibc and the
# compat headers: the cross glibc's headers must not leak in.
KST_CPPFLAGS	:= -nostdinc -isystem $(shell $(CC) -print-file-name=include) \
		   -Ikselftest-compat/include -Ikselftest-compat -I$(KST_OUT) \
		   -I$(OUT)/include -I$(SYSROOT)/include -Iinclude \
		   -I$(KST_SRC)/futex/include -I$(KST_SRC) \
		   $(if $(filter negative_v0,$(SYSCALL_ERRORS)),-DPORTKIT_SYSCALL_NEGATIVE_V0)
# -s: the binaries go into the gzipped initramfs that every boot unpacks
# (about 35 boot instructions per byte).
KST_CFLAGS	:= $(filter-out -Wextra,$(CFLAGS)) -s -Wno-unused-function \
		   -Wno-unused-variable -Wno-sign-compare -Wno-format \
		   -Wno-pointer-to-int-cast
KST_HEADERS	:= $(wildcard kselftest-compat/*.h kselftest-compat/include/*.h \
		   kselftest-compat/include/sys/*.h)

# SYS_<name> for every __NR_<name> of the port's UAPI. Rewritten only when
# its text changes: headers_install refreshes the headers' time stamps on
# every build, which would otherwise rebuild every kst program and relink
# vmlinux each time.
$(KST_OUT)/kst_syscall_names.h: $(OUT)/include/nolibc.h $(SYSROOT)/include/asm/unistd.h selftests.mk
	@mkdir -p $(KST_OUT)
	@cat $(SYSROOT)/include/asm/unistd.h $(SYSROOT)/include/asm-generic/unistd.h | \
		sed -n 's/^#define __NR_\([a-z0-9_]*\) .*/#if !defined(SYS_\1) \&\& defined(__NR_\1)\n#define SYS_\1 __NR_\1\n#endif/p' > $@.new
	@if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; echo "  GEN     $@"; fi

$(KST_OUT)/kst-%: $(OUT)/include/nolibc.h $(KST_OUT)/kst_syscall_names.h $(KST_HEADERS) $(HEADERS) selftests.mk kst-tests.mk Makefile
	$(CC) $(KST_CFLAGS) $(KST_CPPFLAGS) -o $@ $(call kst_src,$*) $(LDLIBS)

KST_INITRAMFS	= $(foreach t,$(KST_UNTHREADED),'file /bin/kst-$(t) $(abspath $(KST_OUT))/kst-$(t) 0755 0 0')
