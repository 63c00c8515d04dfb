# SPDX-License-Identifier: GPL-2.0
#
# The kernel tree's own selftests that build against nolibc, compiled
# from the kernel source (tools/testing/selftests) with the compat layer in
# kselftest-compat/ and installed as /bin/kst-<name>. Included by
# userland/Makefile; tests/boot/test_selftests.py runs them in the guest.
# SELFTESTS.md lists the ones tried that cannot build yet, and why.

KST_SRC		:= $(NOLIBC)/../../testing/selftests
KST_OUT		:= $(OUT)/kst

# name:path under tools/testing/selftests
KST_TESTS	:= \
	peeksiginfo:ptrace/peeksiginfo.c \
	get_syscall_info:ptrace/get_syscall_info.c \
	futex_wait_wouldblock:futex/functional/futex_wait_wouldblock.c \
	posix_timers:timers/posix_timers.c \
	nanosleep:timers/nanosleep.c \
	nsleep-lat:timers/nsleep-lat.c \
	set-timer-lat:timers/set-timer-lat.c \
	mincore:mincore/mincore_selftest.c \
	map_fixed_noreplace:vm/map_fixed_noreplace.c \
	proc-self-map-files-001:proc/proc-self-map-files-001.c \
	proc-self-map-files-002:proc/proc-self-map-files-002.c \
	proc-self-wchan:proc/proc-self-wchan.c \
	clone3_clear_sighand:clone3/clone3_clear_sighand.c \
	membarrier:membarrier/membarrier_test_single_thread.c \
	sas:sigaltstack/sas.c

KST_NAMES	:= $(foreach t,$(KST_TESTS),$(firstword $(subst :, ,$(t))))
KST_BINS	:= $(addprefix $(KST_OUT)/kst-,$(KST_NAMES))
kst_src		= $(KST_SRC)/$(lastword $(subst :, ,$(filter $(1):%,$(KST_TESTS))))

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

$(KST_OUT)/kst-%: $(OUT)/include/nolibc.h $(KST_OUT)/kst_syscall_names.h $(KST_HEADERS) $(HEADERS) selftests.mk Makefile
	$(CC) $(KST_CFLAGS) $(KST_CPPFLAGS) -o $@ $(call kst_src,$*) $(LDLIBS)

KST_INITRAMFS	= $(foreach t,$(KST_NAMES),'file /bin/kst-$(t) $(abspath $(KST_OUT))/kst-$(t) 0755 0 0')
