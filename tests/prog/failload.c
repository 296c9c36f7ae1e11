// SPDX-License-Identifier: GPL-2.0
/*
 * failload: systematic allocation-failure injection into loading the
 * module, as failnth does for the filesystems' system calls.
 *
 *   failload MODULE.ko PASS      PASS names what the caller set up to fail
 *                                (slab or page), for the report only
 *
 * For N = 1, 2, ... it writes N to /proc/thread-self/fail-nth and loads the
 * module with finit_module(), so that the N-th allocation of the load fails
 * (the module loader's own, then the module's init), until a load runs
 * without reaching an injected fault. A load that hit its fault must fail
 * with ENOMEM and leave nothing behind: no module, no filesystem type
 * registered, no statistics directory, no inode cache; and the next load
 * must work, which the next N's load (or the last, fault-free one) shows.
 * A load that absorbed its fault (succeeded anyway) is counted and
 * unloaded. Leaks are the caller's to find (kmemleak).
 *
 * Which allocations can fail is the caller's business (failslab and
 * fail_page_alloc in debugfs, see tests/guest/81-fail-load.sh). Prints
 * "FAILLOAD PASS POINTS FAILED ABSORBED"; exits non-zero on the first
 * broken rule.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ipat-test.h"

/* A load needing more faults than this is stuck, not thorough. */
#define MAX_POINTS	5000

static const char *const fstypes[] = {
	"unionfs_demo", "embedfs_demo", "voidfs_demo",
};
#define NR_FSTYPES	(sizeof(fstypes) / sizeof(fstypes[0]))

/*
 * What a load makes, besides the filesystem types. The inode caches'
 * sysfs directories come last: since 7.x SLUB creates a cache even when
 * they cannot be made ("not critical to SLUB functionality"), so a load
 * that absorbed its fault there works without them.
 */
static const char *const made[] = {
	"/sys/module/inode_patterns",
	"/proc/fs/inode_patterns",
	"/sys/kernel/slab/union_inode_cache",
	"/sys/kernel/slab/embedfs_inode_cache",
};
#define NR_MADE		(sizeof(made) / sizeof(made[0]))
#define NR_MADE_ALWAYS	2	/* the entries before the caches' */

static int nth_fd;

/* Does a line of @path have @word as a whole field? */
static int file_has(const char *path, const char *word)
{
	char line[512], *field, *save;
	FILE *f = fopen(path, "r");
	int found = 0;

	CHECK_SYS(f, "open %s", path);
	while (!found && fgets(line, sizeof(line), f))
		for (field = strtok_r(line, " \t\n", &save); field && !found;
		     field = strtok_r(NULL, " \t\n", &save))
			found = !strcmp(field, word);
	fclose(f);
	return found;
}

static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* After load @n failed (or was undone): nothing of the module is left. */
static void check_unloaded(int n)
{
	size_t i;

	CHECK(!file_has("/proc/modules", "inode_patterns"),
	      "after load %d: inode_patterns is still in /proc/modules", n);
	for (i = 0; i < NR_FSTYPES; i++)
		CHECK(!file_has("/proc/filesystems", fstypes[i]),
		      "after load %d: %s is still registered", n, fstypes[i]);
	for (i = 0; i < NR_MADE; i++)
		CHECK(!exists(made[i]), "after load %d: %s is left", n, made[i]);
}

/*
 * Load @n worked: all of it is there, the caches' sysfs directories but
 * for one whose making absorbed the fault (@injected). Unload it again.
 */
static void check_loaded_and_unload(int n, int injected)
{
	size_t i;

	for (i = 0; i < NR_FSTYPES; i++)
		CHECK(file_has("/proc/filesystems", fstypes[i]),
		      "load %d succeeded without registering %s", n, fstypes[i]);
	for (i = 0; i < (injected ? NR_MADE_ALWAYS : NR_MADE); i++)
		CHECK(exists(made[i]), "load %d succeeded without %s", n, made[i]);
	CHECK_SYS(syscall(SYS_delete_module, "inode_patterns", O_NONBLOCK) == 0,
		  "after load %d: delete_module", n);
	check_unloaded(n);
}

/* Make the @n-th fault point from now on in this thread fail. */
static void arm(int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%d", n);

	CHECK_SYS(pwrite(nth_fd, buf, len, 0) == len, "arm fail-nth");
}

/* Disarm; true if the armed fault was injected. */
static int disarm(void)
{
	char buf[16] = "";

	CHECK_SYS(pread(nth_fd, buf, sizeof(buf) - 1, 0) > 0, "read fail-nth");
	CHECK_SYS(pwrite(nth_fd, "0", 1, 0) == 1, "disarm fail-nth");
	/* What is left of the count: 0 once the fault was injected. */
	return atoi(buf) == 0;
}

int main(int argc, char **argv)
{
	int fd, n, failed = 0, absorbed = 0;

	fail_who = "failload";
	if (argc != 3) {
		fprintf(stderr, "usage: failload MODULE.ko PASS\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	CHECK_SYS(fd >= 0, "open %s", argv[1]);
	nth_fd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	CHECK_SYS(nth_fd >= 0, "open /proc/thread-self/fail-nth");
	check_unloaded(0);

	for (n = 1; n <= MAX_POINTS; n++) {
		int err, injected;
		long rc;

		arm(n);
		rc = syscall(SYS_finit_module, fd, "", 0);
		err = errno;
		injected = disarm();

		if (rc == 0) {
			check_loaded_and_unload(n, injected);
			if (!injected) {
				printf("FAILLOAD %s %d %d %d\n", argv[2], n - 1,
				       failed, absorbed);
				return 0;
			}
			absorbed++;
			continue;
		}
		CHECK(injected, "load %d failed with no fault injected (errno %d: %s)",
		      n, err, strerror(err));
		CHECK(err == ENOMEM, "load %d: the fault gave errno %d (%s), not ENOMEM",
		      n, err, strerror(err));
		check_unloaded(n);
		failed++;
	}
	die(0, "the load still reached a fault after %d points", MAX_POINTS);
}
