// SPDX-License-Identifier: GPL-2.0
/*
 * A multi-process file-system workload for the power-cut test
 * (tests/boot/test_powercut.py): the host stops the emulator at a random
 * instruction and then checks the ext4 image against what this program
 * reported on the console as synced.
 *
 * It mounts powercut_dev (default /dev/ioc0, a fresh ext4 file system) on
 * /pc, creates the files below, sync()s, prints "powercut: ready", then
 * forks one process per role (powercut_roles, default "abcdefg"), all at
 * once on the 4 CPUs:
 *
 *   a  appends batches of records to /pc/log-a, fsync() after each batch:
 *      "powercut: a synced N" (N records on disk)
 *   b  the same on /pc/log-b with fdatasync(): "powercut: b synced N"
 *   c  the same on /pc/log-c, never synced: "powercut: c wrote N", and a
 *      pause
 *   d  atomic replace: version V of /pc/cfg-d.tmp, fsync(), rename() over
 *      /pc/cfg-d, fsync() of /pc: "powercut: d replaced V"
 *   e  the same on /pc/cfg-e without any fsync: "powercut: e renamed V",
 *      and a pause (ext4's auto_da_alloc starts the writeback at the
 *      rename; a cut leaves a whole version, or the new one's size with
 *      blocks not yet written, which read as zeros)
 *   f  step K on /pc/trunc-f: ftruncate() down, ftruncate() up (a hole),
 *      pwrite() after the hole, fsync(): "powercut: f step K"
 *   g  directory churn in /pc/g: iteration I makes /pc/g/new with 1 + I % 5
 *      small files and renames it to d<I>, then empties and removes
 *      d<I-6>; every 4th iteration also writes k<I>, fsync()s it and /pc/g:
 *      "powercut: g kept I"
 *
 * Each line is printed once what it names is durable, before the role
 * moves on. The contents are functions of the role and the numbers
 * (below; tests/boot/powercut_model.py computes the same): records of 64
 * bytes and the replaced files carry an FNV-1a checksum.
 *
 * powercut_scale=S (default 1) multiplies the rounds of every role; with
 * S = 0 the program stops after "ready". At the end: "powercut: X done N"
 * per role, then umount and "powercut: done, F failed".
 */
#include "settings.h"

#define MNT		"/pc"
#define RECORD		64
#define CFG_MAX		(64 + 12000)
#define TRUNC_MAX	9000
#define CHURN_LAG	6	/* iteration I removes d<I - CHURN_LAG> */
#define KEEP_EVERY	4
/*
 * Roles c and e pause between rounds (guest time) so that their rounds,
 * much cheaper than the synced ones, last as long as the others.
 */
#define PAUSE_US	40000

static char buf[CFG_MAX + RECORD * 8];

static unsigned int lcg(unsigned int x)
{
	return x * 1103515245u + 12345;
}

static unsigned int fnv1a(const char *p, unsigned int len)
{
	unsigned int h = 2166136261u;

	while (len--) {
		h ^= (unsigned char)*p++;
		h *= 16777619u;
	}
	return h;
}

static void put_dec(char *out, unsigned int v, int width)
{
	while (width--) {
		out[width] = '0' + v % 10;
		v /= 10;
	}
}

static void put_hex(char *out, unsigned int v)
{
	int i;

	for (i = 7; i >= 0; i--, v >>= 4)
		out[i] = "0123456789abcdef"[v & 15];
}

/* One console line, in one write() so that the roles' lines never mix. */
static void say(char role, const char *what, unsigned long n)
{
	char line[96];
	int len;

	strcpy(line, "powercut: ");
	line[10] = role;
	line[11] = ' ';
	strcpy(line + 12, what);
	len = strlen(line);
	line[len++] = ' ';
	len += utoa_r(n, line + len);
	line[len++] = '\n';
	write(1, line, len);
}

static void __attribute__((noreturn)) fail(char role, const char *what)
{
	char w[64];

	strcpy(w, "error ");
	strncat(w, what, 40);
	strncat(w, ", errno", 8);
	say(role, w, errno);
	exit(1);
}

static void write_all(char role, int fd, const char *p, unsigned int len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n <= 0)
			fail(role, "write");
		p += n;
		len -= n;
	}
}

static void fsync_path(char role, const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY);

	if (fd < 0 || fsync(fd) < 0 || close(fd) < 0)
		fail(role, "fsync of a directory");
}

/*
 * Record seq of a log: role letter, space, seq in 8 digits, space, 43
 * letters, space, the FNV-1a of the 54 bytes before it in 8 hex digits,
 * newline.
 */
static void record(char *out, char role, unsigned int seq)
{
	unsigned int i, x = seq * 2654435761u + role;

	out[0] = role;
	out[1] = ' ';
	put_dec(out + 2, seq, 8);
	out[10] = ' ';
	for (i = 11; i < 54; i++) {
		x = lcg(x);
		out[i] = 'a' + (x >> 16) % 26;
	}
	out[54] = ' ';
	put_hex(out + 55, fnv1a(out, 54));
	out[63] = '\n';
}

/* Roles a, b, c: batches of 1..8 records, synced after each by sync(). */
static unsigned int log_role(char role, const char *path, int (*sync_fn)(int),
			     unsigned int batches)
{
	unsigned int k, i, n, seq = 0;
	int fd = open(path, O_WRONLY | O_APPEND);

	if (fd < 0)
		fail(role, "open");
	for (k = 0; k < batches; k++) {
		n = 1 + (lcg(role * 977u + k) >> 16) % 8;
		for (i = 0; i < n; i++)
			record(buf + i * RECORD, role, seq + i);
		write_all(role, fd, buf, n * RECORD);
		seq += n;
		if (sync_fn && sync_fn(fd) < 0)
			fail(role, "sync");
		say(role, sync_fn ? "synced" : "wrote", seq);
		if (!sync_fn)
			usleep(PAUSE_US);
	}
	close(fd);
	return seq;
}

/*
 * Version v of a replaced file: 64..12063 bytes, a 24-byte header
 * "cfg R VVVVVVVV LLLLLLLL\n", letters, and the FNV-1a of all that in 8
 * hex digits and a newline.
 */
static unsigned int cfg_content(char *out, char role, unsigned int v)
{
	unsigned int i, len = 64 + (lcg(v * 2654435761u + role) >> 16) % 12000;

	memcpy(out, "cfg ", 4);
	out[4] = role;
	out[5] = ' ';
	put_dec(out + 6, v, 8);
	out[14] = ' ';
	put_dec(out + 15, len, 8);
	out[23] = '\n';
	for (i = 24; i < len - 9; i++)
		out[i] = 'a' + (v * 7 + i) % 26;
	put_hex(out + len - 9, fnv1a(out, len - 9));
	out[len - 1] = '\n';
	return len;
}

static void write_cfg(char role, const char *path, unsigned int v, int sync)
{
	unsigned int len = cfg_content(buf, role, v);
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);

	if (fd < 0)
		fail(role, "create");
	write_all(role, fd, buf, len);
	if (sync && fsync(fd) < 0)
		fail(role, "fsync");
	if (close(fd) < 0)
		fail(role, "close");
}

/* Roles d and e: write a temporary file, rename it over the real one. */
static unsigned int replace_role(char role, int sync, unsigned int versions)
{
	char tmp[] = MNT "/cfg-X.tmp", path[] = MNT "/cfg-X";
	unsigned int v;

	tmp[8] = role;
	path[8] = role;
	for (v = 1; v <= versions; v++) {
		write_cfg(role, tmp, v, sync);
		if (rename(tmp, path) < 0)
			fail(role, "rename");
		if (sync)
			fsync_path(role, MNT);
		say(role, sync ? "replaced" : "renamed", v);
		if (!sync)
			usleep(PAUSE_US * 2);
	}
	return versions;
}

/* The byte step k of role f writes at offset o. */
static char trunc_byte(unsigned int k, unsigned int o)
{
	return 'A' + (k * 7 + o) % 53;
}

/* Role f: shrink, grow over a hole, write after it, fsync. */
static unsigned int truncate_role(unsigned int steps)
{
	unsigned int k, i, s, g, w, lim, r, len = 0;
	struct stat st;
	int fd = open(MNT "/trunc-f", O_WRONLY);

	if (fd < 0)
		fail('f', "open");
	for (k = 1; k <= steps; k++) {
		r = lcg(k * 2654435761u + 'f');
		lim = len < 24000 ? len : 24000;
		s = (r >> 16) % (lim + 1);
		r = lcg(r);
		g = s + (r >> 16) % 6000;
		r = lcg(r);
		w = 1 + (r >> 16) % TRUNC_MAX;
		for (i = 0; i < w; i++)
			buf[i] = trunc_byte(k, g + i);
		if (ftruncate(fd, s) < 0 || ftruncate(fd, g) < 0)
			fail('f', "ftruncate");
		if (pwrite(fd, buf, w, g) != (ssize_t)w)
			fail('f', "pwrite");
		if (fsync(fd) < 0)
			fail('f', "fsync");
		len = g + w;
		if (stat(MNT "/trunc-f", &st) < 0 || st.st_size != (off_t)len)
			fail('f', "size after the step");
		say('f', "step", k);
	}
	close(fd);
	return steps;
}

/* File j of churn iteration i (j = 99: the keeper k<i>). */
static unsigned int churn_content(char *out, unsigned int i, unsigned int j)
{
	unsigned int o, len = 10 + (lcg(i * 64 + j) >> 16) % 3000;

	for (o = 0; o < len; o++)
		out[o] = '0' + (i + j * 7 + o) % 75;
	return len;
}

static void churn_path(char *out, const char *dir, unsigned int i, char kind,
		       unsigned int j)
{
	int len;

	strcpy(out, MNT "/g/");
	len = strlen(out);
	strcpy(out + len, dir);
	len += strlen(dir);
	if (i != ~0u)
		len += utoa_r(i, out + len);
	if (kind) {
		out[len++] = '/';
		out[len++] = kind;
		utoa_r(j, out + len);
	}
}

static void churn_file(const char *path, unsigned int i, unsigned int j, int sync)
{
	unsigned int len = churn_content(buf, i, j);
	int fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644);

	if (fd < 0)
		fail('g', "create");
	write_all('g', fd, buf, len);
	if (sync && fsync(fd) < 0)
		fail('g', "fsync");
	if (close(fd) < 0)
		fail('g', "close");
}

/* Role g: many small files and directories made, renamed, removed. */
static unsigned int churn_role(unsigned int iterations)
{
	char path[64], to[64];
	unsigned int i, j;

	for (i = 1; i <= iterations; i++) {
		churn_path(path, "new", ~0u, 0, 0);
		if (mkdir(path, 0755) < 0)
			fail('g', "mkdir");
		for (j = 0; j < 1 + i % 5; j++) {
			churn_path(path, "new", ~0u, 'f', j);
			churn_file(path, i, j, 0);
		}
		churn_path(path, "new", ~0u, 0, 0);
		churn_path(to, "d", i, 0, 0);
		if (rename(path, to) < 0)
			fail('g', "rename of a directory");
		if (i > CHURN_LAG) {
			unsigned int old = i - CHURN_LAG;

			for (j = 0; j < 1 + old % 5; j++) {
				churn_path(path, "d", old, 'f', j);
				if (unlink(path) < 0)
					fail('g', "unlink");
			}
			churn_path(path, "d", old, 0, 0);
			if (rmdir(path) < 0)
				fail('g', "rmdir");
		}
		if (i % KEEP_EVERY == 0) {
			churn_path(path, "k", i, 0, 0);
			churn_file(path, i, 99, 1);
			fsync_path('g', MNT "/g");
			say('g', "kept", i);
		}
	}
	return iterations;
}

static unsigned int run_role(char role, unsigned int scale)
{
	switch (role) {
	case 'a':
		return log_role('a', MNT "/log-a", fsync, 40 * scale);
	case 'b':
		return log_role('b', MNT "/log-b", fdatasync, 40 * scale);
	case 'c':
		return log_role('c', MNT "/log-c", NULL, 40 * scale);
	case 'd':
		return replace_role('d', 1, 16 * scale);
	case 'e':
		return replace_role('e', 0, 16 * scale);
	case 'f':
		return truncate_role(24 * scale);
	case 'g':
		return churn_role(24 * scale);
	}
	say(role, "error unknown role, errno", 0);
	exit(2);
}

/* The files every role starts from, durable before "ready". */
static int setup(const char *dev)
{
	static const char *const empty[] = {
		MNT "/log-a", MNT "/log-b", MNT "/log-c", MNT "/trunc-f",
	};
	unsigned int i;
	int fd;

	mkdir(MNT, 0755);
	if (mount(dev, MNT, "ext4", 0, NULL) < 0) {
		printf("powercut: cannot mount %s on " MNT " (errno %d)\n", dev, errno);
		return -1;
	}
	/* Background writeback every 50 ms of guest time, not every 5 s. */
	fd = open("/proc/sys/vm/dirty_writeback_centisecs", O_WRONLY);
	if (fd >= 0) {
		write(fd, "5\n", 2);
		close(fd);
	}
	fd = open("/proc/sys/vm/dirty_expire_centisecs", O_WRONLY);
	if (fd >= 0) {
		write(fd, "5\n", 2);
		close(fd);
	}
	for (i = 0; i < sizeof(empty) / sizeof(empty[0]); i++) {
		fd = open(empty[i], O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd < 0 || close(fd) < 0) {
			printf("powercut: cannot create %s (errno %d)\n", empty[i], errno);
			return -1;
		}
	}
	write_cfg('d', MNT "/cfg-d", 0, 1);
	write_cfg('e', MNT "/cfg-e", 0, 1);
	if (mkdir(MNT "/g", 0755) < 0) {
		printf("powercut: cannot create " MNT "/g (errno %d)\n", errno);
		return -1;
	}
	sync();
	printf("powercut: ready\n");
	return 0;
}

int main(int argc, char **argv, char **envp)
{
	const char *dev = env_value(envp, "powercut_dev");
	const char *roles = env_value(envp, "powercut_roles");
	unsigned int scale = env_uint(envp, "powercut_scale", 1);
	int status = 0, failed = 0;
	unsigned int i, n;
	pid_t pid;

	if (!dev || !*dev)
		dev = "/dev/ioc0";
	if (!roles || !*roles)
		roles = "abcdefg";
	if (setup(dev) < 0)
		return 1;
	n = scale ? strlen(roles) : 0;
	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid < 0) {
			printf("powercut: fork failed (errno %d)\n", errno);
			return 1;
		}
		if (pid == 0) {
			say(roles[i], "done", run_role(roles[i], scale));
			exit(0);
		}
	}
	for (i = 0; i < n; i++) {
		pid = wait(&status);
		if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			failed++;
	}
	if (umount2(MNT, 0) < 0) {
		printf("powercut: cannot unmount " MNT " (errno %d)\n", errno);
		failed++;
	}
	printf("powercut: done, %d failed\n", failed);
	return failed;
}
