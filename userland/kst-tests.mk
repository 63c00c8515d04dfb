# SPDX-License-Identifier: GPL-2.0
#
# The kernel tree's selftests portkit builds (tools/testing/selftests of the
# spec's series, KST_SRC), for two Makefiles: selftests.mk builds with
# nolibc those whose source starts no threads, musl-tests/Makefile builds
# the others with musl (6.12's timers/posix_timers.c checks per-thread
# timer signals with pthreads; 6.1's does not). Each is /bin/kst-<name>.

comma		:= ,

# name:path[,path...] under tools/testing/selftests; the first path that
# exists counts (vm/ of 6.1 is mm/ in 6.12).
KST_TESTS	:= \
	peeksiginfo:ptrace/peeksiginfo.c \
	get_syscall_info:ptrace/get_syscall_info.c \
	futex_wait_wouldblock:futex/functional/futex_wait_wouldblock.c \
	posix_timers:timers/posix_timers.c \
	nanosleep:timers/nanosleep.c \
	nsleep-lat:timers/nsleep-lat.c \
	set-timer-lat:timers/set-timer-lat.c \
	mincore:mincore/mincore_selftest.c \
	map_fixed_noreplace:mm/map_fixed_noreplace.c,vm/map_fixed_noreplace.c \
	proc-self-map-files-001:proc/proc-self-map-files-001.c \
	proc-self-map-files-002:proc/proc-self-map-files-002.c \
	proc-self-wchan:proc/proc-self-wchan.c \
	clone3_clear_sighand:clone3/clone3_clear_sighand.c \
	membarrier:membarrier/membarrier_test_single_thread.c \
	sas:sigaltstack/sas.c

KST_NAMES	:= $(foreach t,$(KST_TESTS),$(firstword $(subst :, ,$(t))))
kst_paths	= $(subst $(comma), ,$(lastword $(subst :, ,$(filter $(1):%,$(KST_TESTS)))))
# The source of selftest $(1) in this tree (the first path when none is
# there: the compiler then names it).
kst_src		= $(KST_SRC)/$(firstword $(patsubst $(KST_SRC)/%,%,$(wildcard \
		  $(addprefix $(KST_SRC)/,$(call kst_paths,$(1))))) $(call kst_paths,$(1)))
# Non-empty when the source of selftest $(1) creates threads.
kst_threaded	= $(shell grep -l 'pthread_create' $(call kst_src,$(1)) 2>/dev/null)

KST_THREADED	:= $(foreach n,$(KST_NAMES),$(if $(call kst_threaded,$(n)),$(n)))
KST_UNTHREADED	:= $(filter-out $(KST_THREADED),$(KST_NAMES))
