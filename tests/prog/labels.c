// SPDX-License-Identifier: GPL-2.0
/*
 * labels - the labels an LSM that labels (SELinux, with the policy of
 * tests/selinux/policy.conf loaded) gives new inodes, and how they count
 * against the mount's limits (tests/guest/56-labels.sh).
 *
 *	labels WORKDIR FSTYPE...
 *
 * Mounts tmpfs, the reference, and then each FSTYPE at WORKDIR/<fs>, and
 * checks, each by name (see tap-ref.h for how results are compared with
 * tmpfs):
 *
 *  label:   a new file, directory, symlink, fifo, O_TMPFILE file and
 *           RENAME_WHITEOUT whiteout has the policy's security.selinux
 *           label (directories made in the root have a type_transition of
 *           their own), which listxattr() lists exactly once;
 *  relabel: setxattr(security.selinux) relabels, removexattr() is refused;
 *  limit 0, tiny limit (ours only, R_NOREF: tmpfs has no max_xattr_bytes;
 *           its label takes space each inode brings): creation still
 *           works under max_xattr_bytes=0 and a full limit, each label
 *           counted in the statistics file's xattr_bytes even past the
 *           limit, not in statfs()'s f_ffree; user.* and user-set
 *           security.* get ENOSPC, a relabel to a label no longer fits
 *           and a longer one does not; xattr_bytes goes back to 0 once
 *           everything is removed.
 *
 * Exit status: 0, 1 if a check failed, 2 if the test could not go on.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "ipat-stats.h"
#include "tap-files.h"

#define NINODES		1000
#define LABEL		"security.selinux"
/* The policy's labels (tests/selinux/policy.conf). */
#define FILE_LABEL	"system_u:object_r:ipat_file_t"
#define DIR_LABEL	"system_u:object_r:ipat_dir_t"
#define SAME_LEN_LABEL	"system_u:object_r:ipat_mark_t"
#define LONGER_LABEL	"system_u:object_r:ipat_relabelled_t"

static const char *workdir;
static char mp[PATH_MAX];

static void do_mount(const char *extra)
{
	char opts[128];

	snprintf(mp, sizeof(mp), "%s/%s", workdir, cur_fs);
	if (mkdir(mp, 0755) < 0 && errno != EEXIST)
		fatal(mp);
	/* tmpfs has no max_xattr_bytes: it gets the inode limit only. */
	snprintf(opts, sizeof(opts), "%s=%d%s%s",
		 is_tmpfs ? "nr_inodes" : "max_inodes", NINODES,
		 extra && !is_tmpfs ? "," : "",
		 extra && !is_tmpfs ? extra : "");
	if (mount("none", mp, cur_fs, 0, opts) < 0)
		fatal(mp);
}

/* The type-wide figure @key of cur_fs's statistics file; 0 on tmpfs. */
static long fs_stat(const char *key)
{
	long v;

	if (is_tmpfs)
		return 0;
	v = ipat_stat(cur_fs, key);
	if (v < 0)
		fatal(key);
	return v;
}

/* A path in the mount that stays put: at() reuses its buffers. */
static const char *path_of(const char *name)
{
	char *path = strdup(at(mp, name));

	if (!path)
		fatal("strdup");
	return path;
}

static long xattr_bytes(void)
{
	return fs_stat("xattr_bytes");
}

static long ffree(void)
{
	struct statfs s;

	if (statfs(mp, &s) < 0)
		fatal("statfs");
	return (long)s.f_ffree;
}

/* The label of @path (or of @fd when @path is NULL), or "-ERRNO". */
static const char *label_of(const char *path, int fd)
{
	static char buf[256];
	ssize_t n;

	memset(buf, 0, sizeof(buf));
	n = path ? lgetxattr(path, LABEL, buf, sizeof(buf) - 1) :
		   fgetxattr(fd, LABEL, buf, sizeof(buf) - 1);
	if (n < 0)
		snprintf(buf, sizeof(buf), "-%s", strerrorname_np(errno));
	return buf;
}

/* A label checked on ours alone (tmpfs has no max_xattr_bytes). */
static void check_ours_str(const char *what, const char *got, const char *want)
{
	if (tap_line(!strcmp(got, want), what))
		printf("\n");
	else
		printf(": got '%s', want '%s'\n", got, want);
}

/* How often listxattr() lists security.selinux; -errno on failure. */
static long label_listed(const char *path, int fd)
{
	char list[4096];
	ssize_t n;
	long count = 0;

	n = path ? llistxattr(path, list, sizeof(list)) :
		   flistxattr(fd, list, sizeof(list));
	if (n < 0)
		return -errno;
	for (char *p = list; p < list + n; p += strlen(p) + 1)
		count += !strcmp(p, LABEL);
	return count;
}

/* The inodes each part makes, by each creating path. */
enum { K_FILE, K_DIR, K_SYMLINK, K_FIFO, K_TMPFILE, K_WHITEOUT, NKINDS };
static const char *const kind_name[NKINDS] = {
	"file", "dir", "symlink", "fifo", "O_TMPFILE file", "whiteout",
};

/*
 * Make one inode of each kind in the mount's root, names prefixed with
 * @pfx, and check each creation (@part prefixes the check's name) and its
 * label. The whiteout is what renaming "<pfx>w" leaves: two inodes. The
 * O_TMPFILE file's descriptor goes to *@tmpfd. Return: how many inodes
 * were made.
 */
static int make_all(const char *part, const char *pfx, int *tmpfd)
{
	char what[112], name[64], name2[64];
	const char *path[NKINDS];
	int made = 0;

	snprintf(name, sizeof(name), "%sf", pfx);
	path[K_FILE] = at(mp, name);
	snprintf(name, sizeof(name), "%sd", pfx);
	path[K_DIR] = at(mp, name);
	snprintf(name, sizeof(name), "%sl", pfx);
	path[K_SYMLINK] = at(mp, name);
	snprintf(name, sizeof(name), "%sp", pfx);
	path[K_FIFO] = at(mp, name);
	path[K_TMPFILE] = NULL;
	snprintf(name, sizeof(name), "%sw", pfx);
	snprintf(name2, sizeof(name2), "%sw2", pfx);
	path[K_WHITEOUT] = at(mp, name);

	*tmpfd = -1;
	for (int k = 0; k < NKINDS; k++) {
		long r;

		switch (k) {
		case K_FILE:
			r = new_file(path[k], NULL);
			break;
		case K_DIR:
			r = sys(mkdir(path[k], 0755));
			break;
		case K_SYMLINK:
			r = sys(symlink("target", path[k]));
			break;
		case K_FIFO:
			r = sys(mknod(path[k], S_IFIFO | 0644, 0));
			break;
		case K_TMPFILE:
			r = sys(open(mp, O_TMPFILE | O_RDWR, 0600));
			if (r >= 0) {
				*tmpfd = (int)r;
				r = 0;
			}
			break;
		default:
			r = new_file(path[k], NULL);
			if (!r)
				made++;
			if (!r)
				r = sys(renameat2(AT_FDCWD, path[k], AT_FDCWD,
						  at(mp, name2),
						  RENAME_WHITEOUT));
			break;
		}
		snprintf(what, sizeof(what), "%s: a new %s is made", part,
			 kind_name[k]);
		check(what, r, 0, 0);
		if (r)
			continue;
		made++;
		snprintf(what, sizeof(what), "%s: a new %s has the policy's label",
			 part, kind_name[k]);
		check_str(what, label_of(path[k], *tmpfd),
			  k == K_DIR ? DIR_LABEL : FILE_LABEL);
		snprintf(what, sizeof(what),
			 "%s: listxattr lists a new %s's label once", part,
			 kind_name[k]);
		check(what, label_listed(path[k], *tmpfd), 1, R_NUM);
	}
	return made;
}

/* Remove what make_all() made. */
static void remove_all(const char *pfx, int tmpfd)
{
	static const char *const files[] = { "f", "l", "p", "w", "w2" };
	char name[64];

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(name, sizeof(name), "%s%s", pfx, files[i]);
		unlink(at(mp, name));
	}
	snprintf(name, sizeof(name), "%sd", pfx);
	rmdir(at(mp, name));
	if (tmpfd >= 0)
		close(tmpfd);
}

/* Under the default limits: labels, listing, relabel. */
static void check_labels(void)
{
	const char *f = path_of("rf");
	long base = xattr_bytes();
	int tmpfd;

	check_str("root: the mount's root has the policy's label",
		  label_of(mp, -1), FILE_LABEL);
	make_all("label", "a", &tmpfd);
	if (!is_tmpfs)
		check("label: xattr_bytes counts the labels",
		      xattr_bytes() > base, 1, R_NOREF | R_NUM);
	remove_all("a", tmpfd);

	if (new_file(f, NULL))
		fatal("create rf");
	check("relabel: setxattr security.selinux",
	      sys(setxattr(f, LABEL, LONGER_LABEL, sizeof(LONGER_LABEL), 0)),
	      0, 0);
	check_str("relabel: getxattr gives the new label", label_of(f, -1),
		  LONGER_LABEL);
	check("relabel: listxattr lists the label once", label_listed(f, -1),
	      1, R_NUM);
	check("relabel: removexattr security.selinux is refused",
	      sys(removexattr(f, LABEL)), -EACCES, 0);
	unlink(f);
	if (!is_tmpfs)
		check("label: xattr_bytes back to where it was after removal",
		      xattr_bytes() - base, 0, R_NOREF | R_NUM | R_SIGNED);
}

/*
 * max_xattr_bytes=0: no room for anything a user sets, yet every inode
 * is made and labelled, its label counted past the limit.
 */
static void check_limit0(void)
{
	const char *f = path_of("z0");
	long base = xattr_bytes(), free0 = ffree(), cost, used;
	int made, tmpfd;

	/* One label alone first: what it costs. */
	check("limit 0: a file is made", new_file(f, NULL), 0, 0);
	cost = xattr_bytes() - base;
	if (!is_tmpfs)
		check("limit 0: xattr_bytes counts its label and name",
		      cost >= (long)(sizeof(FILE_LABEL) + sizeof(LABEL)), 1,
		      R_NOREF | R_NUM);
	made = make_all("limit 0", "z", &tmpfd) + 1;
	/* The directory's label is one byte shorter than the others. */
	used = xattr_bytes() - base;
	if (!is_tmpfs) {
		check("limit 0: xattr_bytes counts every label, past the limit",
		      used, made * cost - 1, R_NOREF | R_NUM | R_SIGNED);
		check("limit 0: f_ffree counts the inodes, not the labels",
		      free0 - ffree(), made, R_NOREF | R_NUM | R_SIGNED);
		check("limit 0: user.* setxattr gives ENOSPC",
		      sys(setxattr(f, "user.a", "v", 1, 0)), -ENOSPC, R_NOREF);
		check("limit 0: a user's security.* setxattr gives ENOSPC",
		      sys(setxattr(f, "security.ipat", "v", 1, 0)), -ENOSPC,
		      R_NOREF);
		check("limit 0: relabel to a label as long",
		      sys(setxattr(f, LABEL, SAME_LEN_LABEL,
				   sizeof(SAME_LEN_LABEL), 0)), 0, R_NOREF);
		check_ours_str("limit 0: getxattr gives the label set",
			  label_of(f, -1), SAME_LEN_LABEL);
		check("limit 0: relabel to a longer label gives ENOSPC",
		      sys(setxattr(f, LABEL, LONGER_LABEL,
				   sizeof(LONGER_LABEL), 0)), -ENOSPC, R_NOREF);
		check_ours_str("limit 0: a refused relabel leaves the label",
			  label_of(f, -1), SAME_LEN_LABEL);
		check("limit 0: xattr_bytes after the relabels", xattr_bytes() - base,
		      used, R_NOREF | R_NUM | R_SIGNED);
		check("limit 0: a remount that keeps max_xattr_bytes=0",
		      sys(mount("none", mp, cur_fs, MS_REMOUNT,
				"max_xattr_bytes=0")), 0, R_NOREF);
	}
	remove_all("z", tmpfd);
	unlink(f);
	if (!is_tmpfs)
		check("limit 0: xattr_bytes back to 0 after removal",
		      xattr_bytes() - base, 0, R_NOREF | R_NUM | R_SIGNED);
}

/*
 * A tiny limit, filled by a label and a user's value: user.* and
 * security.* get ENOSPC at the limit, creation still works.
 */
static void check_tiny(void)
{
	const char *f = path_of("tf"), *g = path_of("tg");
	static char value[4096];
	long base = xattr_bytes(), cost, room;

	if (is_tmpfs)
		return;
	check("tiny: a file is made", new_file(f, NULL), 0, R_NOREF);
	cost = xattr_bytes() - base;
	/* The limit is 512: fill what is left with one user.a. */
	room = 512 - cost - (long)sizeof("user.a");
	/* An empty value's cost: what an attribute costs beyond it. */
	check("tiny: an empty user.e fits", sys(setxattr(f, "user.e", "", 0, 0)),
	      0, R_NOREF);
	room -= xattr_bytes() - base - cost - (long)sizeof("user.e");
	removexattr(f, "user.e");
	check("tiny: a user.a that fills max_xattr_bytes",
	      sys(setxattr(f, "user.a", value, room, 0)), 0, R_NOREF);
	check("tiny: xattr_bytes is the limit", xattr_bytes() - base, 512,
	      R_NOREF | R_NUM);
	check("tiny: user.* at the limit gives ENOSPC",
	      sys(setxattr(f, "user.b", "", 0, 0)), -ENOSPC, R_NOREF);
	check("tiny: a user's security.* at the limit gives ENOSPC",
	      sys(setxattr(f, "security.ipat", "", 0, 0)), -ENOSPC, R_NOREF);
	check("tiny: a file is made at the limit", new_file(g, NULL), 0, R_NOREF);
	check_ours_str("tiny: it has the policy's label", label_of(g, -1),
		  FILE_LABEL);
	check("tiny: xattr_bytes counts its label past the limit",
	      xattr_bytes() - base, 512 + cost, R_NOREF | R_NUM);
	check("tiny: a remount that keeps max_xattr_bytes=512",
	      sys(mount("none", mp, cur_fs, MS_REMOUNT, "max_xattr_bytes=512")),
	      0, R_NOREF);
	check("tiny: a remount that lowers it below use is refused",
	      sys(mount("none", mp, cur_fs, MS_REMOUNT, "max_xattr_bytes=511")),
	      -EINVAL, R_NOREF);
	unlink(f);
	unlink(g);
	check("tiny: xattr_bytes back to 0 after removal", xattr_bytes() - base,
	      0, R_NOREF | R_NUM | R_SIGNED);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: labels WORKDIR FSTYPE...\n");
		return 2;
	}
	workdir = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	umask(0);
	while (tap_next_fs(argc, argv)) {
		do_mount(NULL);
		check_labels();
		umount(mp);
		do_mount("max_xattr_bytes=0");
		check_limit0();
		umount(mp);
		do_mount("max_xattr_bytes=512");
		check_tiny();
		if (umount(mp) < 0)
			fatal("umount");
		if (!is_tmpfs)
			check("xattr_bytes is 0 after umount", xattr_bytes(), 0,
			      R_NOREF | R_NUM | R_SIGNED);
	}
	return tap_finish("labels");
}
