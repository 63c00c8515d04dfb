/* The proof's /init (nolibc, static): one line, then power off. The
 * kernel's power-off goes to the SBI (SRST) or the syscon power-off, and
 * QEMU exits with status 0.
 * With rv32_hotplug=1 on the kernel command line (passed to init in its
 * environment), it first takes CPU 1 off line and back (SBI HSM
 * hart_stop, then hart_start of a parked hart) and says how that went. */
#include <linux/reboot.h>

static void say(const char *s)
{
	write(1, s, strlen(s));
}

static int set_online(const char *v)
{
	int fd = open("/sys/devices/system/cpu/cpu1/online", O_WRONLY);
	int ok = fd >= 0 && write(fd, v, 1) == 1;

	if (fd >= 0)
		close(fd);
	return ok;
}

int main(int argc, char **argv, char **envp)
{
	(void)argc, (void)argv;
	for (char **e = envp; *e; e++) {
		if (strcmp(*e, "rv32_hotplug=1"))
			continue;
		mkdir("/sys", 0755);
		mount("sysfs", "/sys", "sysfs", 0, 0);
		int off = set_online("0");
		int on = set_online("1");
		say(off && on ? "rv32-sbi proof: cpu1 offline and online again\n"
			      : "rv32-sbi proof: cpu1 hotplug FAILED\n");
	}
	say("rv32-sbi proof: /init running, powering off\n");
	reboot(LINUX_REBOOT_CMD_POWER_OFF);
	say("rv32-sbi proof: reboot() returned\n");
	return 1;
}
