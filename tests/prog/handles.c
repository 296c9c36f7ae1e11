// SPDX-License-Identifier: GPL-2.0
/*
 * handles - file handles and fanotify's, against tmpfs
 * (tests/guest/44-handles.sh).
 *
 *	handles WORKDIR FSTYPE...
 *
 * Mounts tmpfs, the reference, and then each FSTYPE at WORKDIR/<fs> (and a
 * second mount beside it), and checks, each by name (see tap-ref.h for how
 * results are compared with tmpfs):
 *
 *  handle:    name_to_handle_at() and open_by_handle_at() on a file, a
 *             directory and the root, and after a rename; ESTALE once the
 *             file is gone, and once a file or directory is removed while a
 *             Landlock rule still holds its inode (skipped without
 *             Landlock); a handle does not open on another mount;
 *  fanotify:  FAN_REPORT_FID with FAN_MARK_FILESYSTEM and an inode mark;
 *             the events carry statfs's f_fsid and a handle that opens the
 *             object.
 *
 * Exit status: 0, 1 if a check failed, 4 (KSFT_SKIP) if every check was
 * skipped (the reasons go to $IPAT_SKIP_FILE), 2 if the test could not go
 * on.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/fanotify.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tap-files.h"

static const char *workdir;
static char mp[PATH_MAX], mp2[PATH_MAX];

static struct statfs sfs(const char *path)
{
	struct statfs s;

	if (statfs(path, &s) < 0)
		fatal(path);
	return s;
}

/* ---- file handles ---- */

struct handle {
	struct file_handle fh;
	unsigned char bytes[MAX_HANDLE_SZ];
};

static long get_handle(const char *path, struct handle *h)
{
	int mnt_id;

	h->fh.handle_bytes = MAX_HANDLE_SZ;
	return sys(name_to_handle_at(AT_FDCWD, path, &h->fh, &mnt_id, 0));
}

/* Open @h through the mount of @mount_dir: its inode number, or -errno. */
static long open_handle(const char *mount_dir, struct handle *h, int flags)
{
	int mfd = open(mount_dir, O_RDONLY | O_DIRECTORY);
	struct stat st;
	long r;
	int fd;

	if (mfd < 0)
		fatal(mount_dir);
	fd = open_by_handle_at(mfd, &h->fh, flags);
	r = fd < 0 ? -errno : fstat(fd, &st) < 0 ? -errno : (long)st.st_ino;
	if (fd >= 0)
		close(fd);
	close(mfd);
	return r;
}

static void drop_caches(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	if (fd < 0 || write(fd, "2", 1) != 1)
		fatal("/proc/sys/vm/drop_caches");
	close(fd);
}

#define LANDLOCK_SKIP "Landlock is not enabled (CONFIG_SECURITY_LANDLOCK, lsm=)"

/*
 * A Landlock rule on @path, allowing @access beneath it: the rule holds the
 * inode (Landlock takes a reference to it, not to a dentry) until the
 * ruleset's file descriptor, returned, is closed. Or -errno.
 */
static int landlock_hold(const char *path, unsigned long long access)
{
	struct landlock_ruleset_attr ruleset = {
		.handled_access_fs = LANDLOCK_ACCESS_FS_READ_FILE |
				     LANDLOCK_ACCESS_FS_READ_DIR,
	};
	struct landlock_path_beneath_attr rule = { .allowed_access = access };
	int fd, err = 0;

	fd = syscall(SYS_landlock_create_ruleset, &ruleset, sizeof(ruleset), 0);
	if (fd < 0)
		return -errno;
	rule.parent_fd = open(path, O_PATH | O_CLOEXEC);
	if (rule.parent_fd < 0 ||
	    syscall(SYS_landlock_add_rule, fd, LANDLOCK_RULE_PATH_BENEATH,
		    &rule, 0) < 0)
		err = -errno;
	if (rule.parent_fd >= 0)
		close(rule.parent_fd);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

/*
 * The inode of @path, with a handle made first, is held by a Landlock rule
 * while @remove takes its name: the handle must not open it.
 */
static void check_handle_held(const char *path, bool dir, const char *what)
{
	int flags = dir ? O_RDONLY | O_DIRECTORY : O_RDONLY;
	struct handle h;
	long e;
	int rs;

	e = get_handle(path, &h);
	rs = landlock_hold(path, dir ? LANDLOCK_ACCESS_FS_READ_DIR :
				       LANDLOCK_ACCESS_FS_READ_FILE);
	if (rs == -EOPNOTSUPP || rs == -ENOSYS) {
		skip_check(what, LANDLOCK_SKIP);
		return;
	}
	if (rs < 0) {
		errno = -rs;
		fatal("a Landlock rule");
	}
	if (dir ? rmdir(path) : unlink(path))
		fatal("remove the held name");
	check(what, e ?: open_handle(mp, &h, flags), -ESTALE, 0);
	close(rs);
}

static void check_handles(void)
{
	const char *f = at(mp, "hd/f"), *d = at(mp, "hd");
	struct handle hf, hd, hg;
	long ef, ed, eg, ino, r;
	int fd;

	if (mkdir(d, 0755) < 0 || new_file(f, "h") || new_file(at(mp, "hd/g"), ""))
		fatal("make hd/f, hd/g");
	/* a check of a handle that could not be made gives that error */
	ef = get_handle(f, &hf);
	ed = get_handle(d, &hd);
	eg = get_handle(mp, &hg);
	check("handle: name_to_handle_at on a file", ef, 0, 0);
	check("handle: name_to_handle_at on a directory", ed, 0, 0);
	check("handle: name_to_handle_at on the root", eg, 0, 0);
	check("handle: open_by_handle_at opens the file",
	      ef ?: open_handle(mp, &hf, O_RDONLY) == ino_of(f), 1, R_NUM);
	check("handle: open_by_handle_at opens the directory",
	      ed ?: open_handle(mp, &hd, O_RDONLY | O_DIRECTORY) == ino_of(d),
	      1, R_NUM);
	check("handle: open_by_handle_at opens the root",
	      eg ?: open_handle(mp, &hg, O_RDONLY | O_DIRECTORY) == ino_of(mp),
	      1, R_NUM);
	r = sys(rename(f, at(mp, "f2")));
	f = at(mp, "f2");
	check("handle: the file's handle opens after a rename",
	      ef ?: r ?: open_handle(mp, &hf, O_RDONLY) == ino_of(f), 1, R_NUM);

	/* a second mount with the same names, so inode numbers may meet */
	tap_mount(mp2, workdir, "-2", NULL);
	if (mkdir(at(mp2, "hd"), 0755) < 0 || new_file(at(mp2, "hd/f"), "h"))
		fatal("make hd/f on the second mount");
	check("handle: the file's handle on another mount: ESTALE",
	      ef ?: open_handle(mp2, &hf, O_RDONLY), -ESTALE, 0);
	if (umount(mp2) < 0)
		fatal(mp2);

	ino = ino_of(f);
	fd = open(f, O_RDONLY);
	if (fd < 0 || unlink(f) < 0)
		fatal("open and unlink f2");
	check("handle: unlinked but open: open_by_handle_at still opens it",
	      ef ?: open_handle(mp, &hf, O_RDONLY) == ino, 1, R_NUM);
	close(fd);
	drop_caches();
	check("handle: unlinked and closed: ESTALE",
	      ef ?: open_handle(mp, &hf, O_RDONLY), -ESTALE, 0);
	check("handle: the directory's handle still opens",
	      ed ?: open_handle(mp, &hd, O_RDONLY | O_DIRECTORY) == ino_of(d),
	      1, R_NUM);

	/* held in memory by something without a dentry */
	if (new_file(at(mp, "hd/held"), "h") || mkdir(at(mp, "hd/heldd"), 0755))
		fatal("make hd/held, hd/heldd");
	check_handle_held(at(mp, "hd/held"), false,
			  "handle: unlinked and closed, held by a Landlock rule: ESTALE");
	check_handle_held(at(mp, "hd/heldd"), true,
			  "handle: a directory removed, held by a Landlock rule: ESTALE");
}

/* ---- fanotify with FAN_REPORT_FID ---- */

#define FAN_SKIP "no fanotify in this kernel (CONFIG_FANOTIFY)"

/* The first event of @mask on @fan: its fsid and the inode it opens. */
struct fan_events {
	char buf[8192] __attribute__((aligned(8)));
	ssize_t len;
};

/* What the group @fan has queued, read once. */
static void fan_read(int fan, struct fan_events *ev)
{
	ev->len = read(fan, ev->buf, sizeof(ev->buf));
	if (ev->len < 0 && errno != EAGAIN)
		fatal("read the fanotify group");
}

static void fan_event(struct fan_events *ev, unsigned long long mask,
		      const char *what, fsid_t want_fsid, long want_ino)
{
	struct fanotify_event_metadata *m = (void *)ev->buf;
	struct fanotify_event_info_fid *fid = NULL;
	ssize_t n = ev->len;
	char name[160];
	int mfd, fd;
	long r;

	for (; n > 0 && FAN_EVENT_OK(m, n); m = FAN_EVENT_NEXT(m, n))
		if ((m->mask & mask) && m->event_len >= sizeof(*m) +
		    sizeof(*fid) + sizeof(struct file_handle)) {
			fid = (void *)(m + 1);
			break;
		}
	if (fid && fid->hdr.info_type != FAN_EVENT_INFO_TYPE_FID)
		fid = NULL;
	snprintf(name, sizeof(name), "fanotify: %s: the event arrives", what);
	check(name, fid != NULL, 1, R_NUM);
	if (!fid)
		return;
	snprintf(name, sizeof(name), "fanotify: %s: its fsid is statfs's f_fsid",
		 what);
	check(name, fid->fsid.val[0] == want_fsid.__val[0] &&
	      fid->fsid.val[1] == want_fsid.__val[1], 1, R_NUM);
	mfd = open(mp, O_RDONLY | O_DIRECTORY);
	fd = open_by_handle_at(mfd, (struct file_handle *)fid->handle,
			       O_RDONLY);
	r = fd < 0 ? -errno : 0;
	snprintf(name, sizeof(name), "fanotify: %s: open_by_handle_at opens its handle",
		 what);
	check(name, r, 0, 0);
	if (fd >= 0) {
		struct stat st;

		snprintf(name, sizeof(name), "fanotify: %s: ... to its inode",
			 what);
		check(name, fstat(fd, &st) == 0 && (long)st.st_ino == want_ino,
		      1, R_NUM);
		close(fd);
	}
	close(mfd);
}

static void check_fanotify(void)
{
	const char *d = at(mp, "fan"), *f = at(mp, "fan/new");
	fsid_t fsid = sfs(mp).f_fsid;
	static struct fan_events ev;
	int fan, fan2;
	long r1, r2;

	if (mkdir(d, 0755) < 0)
		fatal("mkdir fan");
	fan = fanotify_init(FAN_CLASS_NOTIF | FAN_REPORT_FID | FAN_NONBLOCK,
			    O_RDONLY);
	fan2 = fanotify_init(FAN_CLASS_NOTIF | FAN_REPORT_FID | FAN_NONBLOCK,
			     O_RDONLY);
	if (fan < 0 && errno == ENOSYS) {
		skip_check("fanotify: FAN_REPORT_FID events", FAN_SKIP);
		return;
	}
	check("fanotify: fanotify_init(FAN_REPORT_FID)",
	      fan < 0 || fan2 < 0 ? -errno : 0, 0, 0);
	if (fan < 0 || fan2 < 0)
		return;
	r1 = sys(fanotify_mark(fan, FAN_MARK_ADD | FAN_MARK_FILESYSTEM,
			       FAN_CREATE | FAN_CLOSE_WRITE, AT_FDCWD, mp));
	check("fanotify: FAN_MARK_FILESYSTEM succeeds", r1, 0, 0);
	r2 = sys(fanotify_mark(fan2, FAN_MARK_ADD, FAN_CREATE, AT_FDCWD, d));
	check("fanotify: an inode mark on a directory succeeds", r2, 0, 0);
	if (new_file(f, "event"))
		fatal("create fan/new");
	if (!r1) {
		fan_read(fan, &ev);
		fan_event(&ev, FAN_CREATE, "filesystem mark, FAN_CREATE (the directory)",
			  fsid, ino_of(d));
		fan_event(&ev, FAN_CLOSE_WRITE, "filesystem mark, FAN_CLOSE_WRITE (the file)",
			  fsid, ino_of(f));
	}
	if (!r2) {
		fan_read(fan2, &ev);
		fan_event(&ev, FAN_CREATE, "inode mark, FAN_CREATE (the directory)",
			  fsid, ino_of(d));
	}
	close(fan);
	close(fan2);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: handles WORKDIR FSTYPE...\n");
		return 2;
	}
	workdir = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	umask(0);
	while (tap_next_fs(argc, argv)) {
		tap_mount(mp, workdir, "", NULL);
		check_handles();
		check_fanotify();
		if (umount(mp) < 0)
			fatal(mp);
	}
	return tap_finish("handles");
}
