// SPDX-License-Identifier: GPL-2.0
/*
 * overlay - overlayfs with its upper and work directories on each of ours,
 * tmpfs's upper the control (tests/guest/46-overlayfs.sh).
 *
 *	overlay WORKDIR FSTYPE...
 *
 * For tmpfs first, then each FSTYPE: a fresh tmpfs lower layer at
 * WORKDIR/lower-<fs> holding a file, a directory with a file in it and a
 * file labelled security.ipat; the upper layer at WORKDIR/<fs> (upper/ and
 * work/ in one mount of FSTYPE); the overlay, with redirect_dir=on, at
 * WORKDIR/ovl-<fs>. Checked, each by name (tap-ref.h compares with what the
 * tmpfs upper gave):
 *  - the overlay mounts, and the kernel log gets no overlayfs line, from
 *    the mount to the unmount, that the tmpfs upper did not get (such as
 *    "upper fs does not support RENAME_WHITEOUT");
 *  - a file created through the overlay lands in the upper layer;
 *  - deleting a lower file leaves a whiteout (a 0/0 character device) in
 *    the upper layer;
 *  - renaming a lower directory succeeds, and its upper copy carries
 *    trusted.overlay.redirect;
 *  - writing to the labelled lower file copies it up, label and all.
 *
 * Exit status: 0, 1 if a check failed, 4 (KSFT_SKIP) if this kernel has no
 * overlayfs (the reason goes to $IPAT_SKIP_FILE), 2 if the test could not
 * go on.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "tap-ref.h"

#define LABEL	"ovl-label"

static const char *workdir;
static char lower[PATH_MAX], upper[PATH_MAX], up[PATH_MAX], ovl[PATH_MAX];

/* The overlayfs lines of the tmpfs upper's run, with "FS" for its name. */
static char ref_log[32][256];
static int nref_log;

static void make_dir(const char *path)
{
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		fatal(path);
}

static void make_file(const char *path, const char *text)
{
	int fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644);
	ssize_t len = strlen(text);

	if (fd < 0 || write(fd, text, len) != len)
		fatal(path);
	close(fd);
}

/* 1 if @path is a whiteout, a 0/0 character device; else 0 or -errno. */
static long is_whiteout(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return -errno;
	return S_ISCHR(st.st_mode) && st.st_rdev == makedev(0, 0);
}

static long open_close(const char *path, int flags)
{
	int fd = open(path, flags, 0644);

	return fd < 0 ? -errno : close(fd);
}

static long file_type(const char *path)
{
	struct stat st;

	return lstat(path, &st) < 0 ? -errno : (long)(st.st_mode & S_IFMT);
}

/* ---- the kernel log ---- */

/* /dev/kmsg, read from its end: only what comes after this call. */
static int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (fd < 0 || lseek(fd, 0, SEEK_END) < 0)
		fatal("/dev/kmsg");
	return fd;
}

/* Replace every @from in @s by @to, in place (@to is not longer). */
static void replace_all(char *s, const char *from, const char *to)
{
	size_t fl = strlen(from), tl = strlen(to);
	char *p;

	while ((p = strstr(s, from))) {
		memcpy(p, to, tl);
		memmove(p + tl, p + fl, strlen(p + fl) + 1);
	}
}

/*
 * The overlayfs lines logged since kmsg_open(), the filesystem's name made
 * "FS": recorded on tmpfs; on ours, each must be one tmpfs got too.
 * Returns how many are new, printing them.
 */
static long kmsg_new_lines(int fd)
{
	char rec[2048], *msg, *nl;
	long extra = 0;
	ssize_t n;

	for (;;) {
		bool known = false;

		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records: read on */
		if (n <= 0)
			break;
		rec[n] = 0;
		msg = strchr(rec, ';');
		if (!msg || !strstr(msg, "overlayfs"))
			continue;
		msg++;
		nl = strchr(msg, '\n');
		if (nl)
			*nl = 0;
		replace_all(msg, cur_fs, "FS");
		printf("# kernel log: %s\n", msg);
		if (is_tmpfs) {
			if (nref_log < (int)ARRAY_SIZE(ref_log))
				snprintf(ref_log[nref_log++], sizeof(ref_log[0]),
					 "%s", msg);
			continue;
		}
		for (int i = 0; i < nref_log; i++)
			known |= !strncmp(ref_log[i], msg, sizeof(ref_log[0]) - 1);
		if (!known) {
			printf("# ... which the tmpfs upper did not get\n");
			extra++;
		}
	}
	if (n < 0 && errno != EAGAIN)
		fatal("read /dev/kmsg");
	return extra;
}

/* ---- one upper filesystem ---- */

static bool layers(void)
{
	char opts[3 * PATH_MAX + 64];

	snprintf(lower, sizeof(lower), "%s/lower-%s", workdir, cur_fs);
	snprintf(upper, sizeof(upper), "%s/%s", workdir, cur_fs);
	snprintf(ovl, sizeof(ovl), "%s/ovl-%s", workdir, cur_fs);
	snprintf(up, sizeof(up), "%s/%s/upper", workdir, cur_fs);
	make_dir(lower);
	make_dir(upper);
	make_dir(ovl);
	if (mount("none", lower, "tmpfs", 0, NULL) < 0)
		fatal(lower);
	make_file(at(lower, "gone"), "deleted through the overlay");
	make_dir(at(lower, "dir"));
	make_file(at(lower, "dir/inside"), "in a renamed directory");
	make_file(at(lower, "labelled"), "copied up");
	if (setxattr(at(lower, "labelled"), "security.ipat", LABEL,
		     strlen(LABEL), 0) < 0)
		fatal("label the lower file (security.ipat on tmpfs)");
	if (mount("none", upper, cur_fs, 0, NULL) < 0)
		fatal(upper);
	make_dir(up);
	make_dir(at(upper, "work"));
	snprintf(opts, sizeof(opts),
		 "lowerdir=%s,upperdir=%s,workdir=%s/work,redirect_dir=on",
		 lower, up, upper);
	return check("overlay: mount with upper and work on this fs",
		     sys(mount("overlay", ovl, "overlay", 0, opts)), 0, 0);
}

static void run_checks(void)
{
	char buf[64] = "";
	long r;
	int fd, kmsg = kmsg_open();

	if (!layers()) {
		if (umount(upper) < 0 || umount(lower) < 0)
			fatal("umount the layers");
		check("overlay: no overlayfs kernel log line the tmpfs upper did not get",
		      kmsg_new_lines(kmsg), 0, R_NUM);
		close(kmsg);
		return;
	}
	check("overlay: create a file through the overlay",
	      open_close(at(ovl, "new"), O_CREAT | O_WRONLY), 0, 0);
	check("overlay: ... it is a regular file in the upper layer",
	      file_type(at(up, "new")), S_IFREG, R_OCT);

	check("overlay: delete a lower file",
	      sys(unlink(at(ovl, "gone"))), 0, 0);
	check("overlay: ... it is gone from the overlay",
	      file_type(at(ovl, "gone")), -ENOENT, 0);
	check("overlay: ... the upper layer has a whiteout (0/0 char device)",
	      is_whiteout(at(up, "gone")), 1, R_NUM);

	check("overlay: rename a lower directory (redirect_dir=on)",
	      sys(rename(at(ovl, "dir"), at(ovl, "moved"))), 0, 0);
	check("overlay: ... the upper directory carries trusted.overlay.redirect",
	      sys(getxattr(at(up, "moved"), "trusted.overlay.redirect", buf,
			   sizeof(buf))) > 0, 1, R_NUM);
	check("overlay: ... the old name is a whiteout in the upper layer",
	      is_whiteout(at(up, "dir")), 1, R_NUM);
	check("overlay: ... its file opens through the new name",
	      open_close(at(ovl, "moved/inside"), O_RDONLY), 0, 0);

	fd = open(at(ovl, "labelled"), O_WRONLY | O_APPEND);
	r = fd < 0 ? -errno : sys(write(fd, "!", 1));
	if (fd >= 0)
		close(fd);
	check("overlay: write to a lower file labelled security.ipat (copy-up)",
	      r, 1, R_NUM);
	memset(buf, 0, sizeof(buf));
	r = sys(getxattr(at(up, "labelled"), "security.ipat", buf,
			 sizeof(buf) - 1));
	check("overlay: ... the upper copy carries security.ipat",
	      r, strlen(LABEL), R_NUM);
	check_str("overlay: ... with the lower file's label", buf, LABEL);

	if (umount(ovl) < 0 || umount(upper) < 0 || umount(lower) < 0)
		fatal("umount the overlay and its layers");
	check("overlay: no overlayfs kernel log line the tmpfs upper did not get",
	      kmsg_new_lines(kmsg), 0, R_NUM);
	close(kmsg);
}

static bool have_overlay(void)
{
	char line[128];
	bool found = false;
	FILE *f = fopen("/proc/filesystems", "r");

	if (!f)
		fatal("/proc/filesystems");
	while (fgets(line, sizeof(line), f))
		found |= !strcmp(line, "nodev\toverlay\n");
	fclose(f);
	return found;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: overlay WORKDIR FSTYPE...\n");
		return 2;
	}
	workdir = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	umask(022);
	while (tap_next_fs(argc, argv)) {
		if (!have_overlay())
			skip_check("overlay: every check",
				   "no overlayfs in this kernel (CONFIG_OVERLAY_FS)");
		else
			run_checks();
	}
	return tap_finish("overlay");
}
