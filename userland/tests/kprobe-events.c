// SPDX-License-Identifier: GPL-2.0
/*
 * Kprobe events through tracefs (KPROBE_EVENTS, the debug variant):
 *
 * - an entry probe on do_sys_openat2 fetching its arguments by o32
 *   register name (%a0), by arch/mips register name (%r4), as $arg1,
 *   and through pointers (+0(%a1):ustring, the path; +0(%a2), the flags
 *   of struct open_how);
 * - an entry probe on do_mmap, whose 5th and 6th arguments are on the
 *   stack: $arg5/$arg6 and $stack4 (o32: sp + 4 * n);
 * - a return probe on do_sys_openat2 with $retval;
 *
 * then an open of /init (a file descriptor), an open of a missing path
 * (-ENOENT) and an anonymous mmap, and the trace. The host test checks
 * each value in the trace lines against what this program did, which it
 * prints: "kprobe-events: pid N", "kprobe-events: open /init fd N", ...
 *
 * Last, it defines a probe at each word of do_sys_openat2 (not enabled,
 * so never armed) and prints "kprobe-events: offset O errno E": the host
 * test reads the function's instructions from vmlinux and checks that
 * exactly the branches, jumps and their delay slots were refused.
 */
#include "libc.h"
#include "tracefs.h"

#define SCAN_WORDS	96

static const char *const probes[] = {
	"p:kpe/open do_sys_openat2 dfd=%a0:s32 r4=%r4:s32 arg1=$arg1:s32 "
	"path=+0(%a1):ustring flags=+0(%a2):x32",
	"r:kpe/openret do_sys_openat2 ret=$retval:s32",
	"p:kpe/mmap do_mmap len=$arg3:u32 prot=$arg4:x32 flags=$arg5:x32 "
	"pgoff=$arg6:u32 stack4=$stack4:x32",
};

int main(void)
{
	char def[64];
	unsigned int i;
	int err, fd, bad = 0;
	void *map;

	err = tracefs_mount();
	if (err) {
		printf("kprobe-events: mount tracefs: errno %d\n", err);
		return 1;
	}
	printf("kprobe-events: pid %d\n", getpid());
	for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		err = tracefs_put("kprobe_events", probes[i], O_APPEND);
		printf("kprobe-events: define %s: errno %d\n", probes[i], err);
		bad |= err;
	}
	err = tracefs_put("events/kpe/enable", "1", 0);
	printf("kprobe-events: enable: errno %d\n", err);
	bad |= err;

	fd = open("/init", O_RDONLY | O_NONBLOCK, 0);
	printf("kprobe-events: open /init fd %d flags 0x%x\n", fd, O_RDONLY | O_NONBLOCK);
	close(fd);
	fd = open("/kprobe-events/missing", O_RDONLY, 0);
	printf("kprobe-events: open /kprobe-events/missing fd %d errno %d\n",
	       fd, fd < 0 ? errno : 0);
	map = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);
	printf("kprobe-events: mmap len %d prot 0x%x flags 0x%x %s\n", 3 * 4096,
	       PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
	       map == MAP_FAILED ? "failed" : "ok");

	err = tracefs_put("events/kpe/enable", "0", 0);
	bad |= err;
	tracefs_print_trace("kprobe-events");

	/* One probe per word of do_sys_openat2, defined and removed. */
	for (i = 1; i < SCAN_WORDS; i++) {
		strcpy(def, "p:kpe/scan do_sys_openat2+");
		utoa_r(4 * i, def + strlen(def));
		err = tracefs_put("kprobe_events", def, O_APPEND);
		printf("kprobe-events: offset %u errno %d\n", 4 * i, err);
		if (!err)
			bad |= tracefs_put("kprobe_events", "-:kpe/scan", O_APPEND);
	}
	/* Remove every probe (none is enabled). */
	bad |= tracefs_put("kprobe_events", "", O_TRUNC);
	printf("kprobe-events: done\n");
	return bad ? 1 : 0;
}
