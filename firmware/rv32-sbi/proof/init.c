/* The proof's /init (nolibc, static): one line, then power off. The
 * kernel's power-off goes to the SBI (SRST) or the syscon power-off, and
 * QEMU exits with status 0. */
#include <linux/reboot.h>

int main(void)
{
	static const char msg[] = "rv32-sbi proof: /init running, powering off\n";

	write(1, msg, sizeof(msg) - 1);
	reboot(LINUX_REBOOT_CMD_POWER_OFF);
	write(1, "rv32-sbi proof: reboot() returned\n", 34);
	return 1;
}
