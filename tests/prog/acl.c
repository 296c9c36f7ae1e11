// SPDX-License-Identifier: GPL-2.0
/*
 * acl - POSIX ACLs against tmpfs (tests/guest/52-acl.sh).
 *
 *	acl WORKDIR FSTYPE...
 *
 * Mounts tmpfs, the reference, and then each FSTYPE at WORKDIR/<fs>, and
 * checks, each by name (see tap-ref.h for how results are compared with
 * tmpfs), through system.posix_acl_access and system.posix_acl_default,
 * whose values are built here by hand (the image has no libacl):
 *
 *  access:      set and read back an ACL with a named user; the mode
 *               follows it; chmod rewrites its mask entry; one that says
 *               no more than the mode is not kept; removal; listxattr;
 *  malformed:   a value cut short, a wrong version, a named user without a
 *               mask, a default ACL on a file: refused as tmpfs refuses;
 *  default:     a directory's default ACL is a new file's, fifo's and
 *               O_TMPFILE's access ACL, and a new directory's both, the
 *               umask ignored; without one, the umask applies;
 *  permission:  a named user's entry lets that user (a child, setresuid)
 *               read and not write, another user nothing, and a chmod that
 *               narrows the mask takes the read away; only the owner may
 *               set an ACL;
 *  idmapped:    through an idmapped copy of the mount (ids 0-999 seen as
 *               10000-10999), a named user's id is stored unmapped, read
 *               back mapped, and enforced for the unmapped id. Skipped
 *               where tmpfs refuses idmapped mounts (before 6.3), once
 *               ours are shown to refuse them too.
 *
 * On a kernel whose tmpfs has no ACLs (no CONFIG_TMPFS_POSIX_ACL), ours
 * must refuse them as tmpfs does, and the rest is skipped.
 *
 * Exit status: 0, 1 if a check failed, 2 if the test could not go on, 4
 * if every check was skipped.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdint.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "idmapped.h"
#include "tap-ref.h"

/* <linux/posix_acl_xattr.h> and <linux/posix_acl.h>, as the kernel reads them. */
#define ACL_XATTR_VERSION	2
#define A_USER_OBJ		0x01
#define A_USER			0x02
#define A_GROUP_OBJ		0x04
#define A_GROUP			0x08
#define A_MASK			0x10
#define A_OTHER			0x20
#define A_UNDEFINED_ID		0xffffffffu

#define ACCESS	"system.posix_acl_access"
#define DEFAULT	"system.posix_acl_default"

struct acl_entry {
	uint16_t tag;
	uint16_t perm;
	uint32_t id;
};

static const char *workdir;
static char mp[PATH_MAX], idmp[PATH_MAX];

/*
 * The xattr value of an ACL written as getfacl's short form, entries in
 * the kernel's order: "u::rw-,u:1001:r--,g::r--,m::r--,o::---".
 * Return: its size.
 */
static size_t acl_encode(const char *text, char *buf, size_t len)
{
	char copy[256], *tok, *save = NULL;
	uint32_t version = ACL_XATTR_VERSION;
	size_t n = sizeof(version);

	memcpy(buf, &version, sizeof(version));
	snprintf(copy, sizeof(copy), "%s", text);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		struct acl_entry e = { .id = A_UNDEFINED_ID };
		char *id = strchr(tok, ':') + 1, *perm = strchr(id, ':') + 1;
		bool named = perm - id > 1;

		switch (tok[0]) {
		case 'u':
			e.tag = named ? A_USER : A_USER_OBJ;
			break;
		case 'g':
			e.tag = named ? A_GROUP : A_GROUP_OBJ;
			break;
		case 'm':
			e.tag = A_MASK;
			break;
		default:
			e.tag = A_OTHER;
			break;
		}
		if (named)
			e.id = strtoul(id, NULL, 10);
		e.perm = (perm[0] == 'r') << 2 | (perm[1] == 'w') << 1 |
			 (perm[2] == 'x');
		if (n + sizeof(e) > len)
			fatal("acl_encode: too long");
		memcpy(buf + n, &e, sizeof(e));
		n += sizeof(e);
	}
	return n;
}

/* The ACL @name of @path in the short form, or an errno's name. */
static const char *acl_get(const char *path, const char *name, char *out,
			   size_t len)
{
	static const char tags[] = { [A_USER_OBJ] = 'u', [A_USER] = 'u',
				     [A_GROUP_OBJ] = 'g', [A_GROUP] = 'g',
				     [A_MASK] = 'm', [A_OTHER] = 'o' };
	char buf[512];
	ssize_t n = getxattr(path, name, buf, sizeof(buf));
	size_t at = 0;
	uint32_t version;

	if (n < 0) {
		snprintf(out, len, "%s", strerrorname_np(errno));
		return out;
	}
	memcpy(&version, buf, sizeof(version));
	if (version != ACL_XATTR_VERSION || (n - 4) % 8) {
		snprintf(out, len, "bad value of %zd bytes", n);
		return out;
	}
	out[0] = 0;
	for (ssize_t i = 4; i < n; i += 8) {
		struct acl_entry e;
		char id[16] = "";

		memcpy(&e, buf + i, sizeof(e));
		if (e.tag == A_USER || e.tag == A_GROUP)
			snprintf(id, sizeof(id), "%u", e.id);
		at += snprintf(out + at, len - at, "%s%c:%s:%c%c%c",
			       at ? "," : "", e.tag < sizeof(tags) &&
			       tags[e.tag] ? tags[e.tag] : '?', id,
			       e.perm & 4 ? 'r' : '-', e.perm & 2 ? 'w' : '-',
			       e.perm & 1 ? 'x' : '-');
		if (at >= len)
			break;
	}
	return out;
}

static long acl_set(const char *path, const char *name, const char *text)
{
	char buf[512];
	size_t n = acl_encode(text, buf, sizeof(buf));

	return sys(setxattr(path, name, buf, n, 0));
}

static long mode_of(const char *path)
{
	struct stat st;

	return lstat(path, &st) < 0 ? -errno : (long)(st.st_mode & 07777);
}

/* The names listxattr() gives, joined by commas. */
static const char *names_of(const char *path, char *out, size_t len)
{
	char buf[1024];
	ssize_t n = listxattr(path, buf, sizeof(buf));
	size_t at = 0;

	if (n < 0) {
		snprintf(out, len, "%s", strerrorname_np(errno));
		return out;
	}
	out[0] = 0;
	for (char *p = buf; p < buf + n; p += strlen(p) + 1)
		at += snprintf(out + at, len - at, "%s%s", at ? "," : "", p);
	return out;
}

static void new_file(const char *path, mode_t mode)
{
	int fd = open(path, O_CREAT | O_EXCL | O_WRONLY, mode);

	if (fd < 0 || write(fd, "x", 1) != 1)
		fatal(path);
	close(fd);
}

/* The mode a new file, directory, fifo or O_TMPFILE gets in @dir. */
static long created_mode(const char *dir, const char *name, char kind)
{
	const char *path = at(dir, name);
	struct stat st;
	long r;
	int fd;

	switch (kind) {
	case 'f':
		fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0666);
		break;
	case 'd':
		fd = mkdir(path, 0777);
		break;
	case 'p':
		fd = mknod(path, S_IFIFO | 0666, 0);
		break;
	default:
		fd = open(dir, O_TMPFILE | O_RDWR, 0666);
		if (fd >= 0) {
			r = fstat(fd, &st) < 0 ? -errno :
			    (long)(st.st_mode & 07777);
			close(fd);
			return r;
		}
		break;
	}
	if (fd < 0)
		return -errno;
	if (kind == 'f')
		close(fd);
	return mode_of(path);
}

static long open_read(const char *path, int unused __attribute__((unused)))
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static long open_write(const char *path, int unused __attribute__((unused)))
{
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static long set_named_acl(const char *path, int unused __attribute__((unused)))
{
	return acl_set(path, ACCESS, "u::rw-,u:1001:rw-,g::r--,m::rw-,o::---");
}

/* ---- the checks ---- */

static void check_access(void)
{
	const char *f = at(mp, "f");
	char got[256];

	new_file(f, 0644);
	check("a new file has no access ACL",
	      sys(getxattr(f, ACCESS, NULL, 0)), -ENODATA, 0);
	check("set an access ACL with a named user",
	      acl_set(f, ACCESS, "u::rw-,u:1001:rw-,g::r--,m::rw-,o::---"), 0,
	      0);
	check("the mode follows the ACL (group bits from the mask)",
	      mode_of(f), 0660, R_OCT);
	check_str("the access ACL reads back", acl_get(f, ACCESS, got, 256),
		  "u::rw-,u:1001:rw-,g::r--,m::rw-,o::---");
	check("chmod 0640", sys(chmod(f, 0640)), 0, 0);
	check_str("chmod sets the ACL's mask entry, not the group entry",
		  acl_get(f, ACCESS, got, 256),
		  "u::rw-,u:1001:rw-,g::r--,m::r--,o::---");
	check("trusted.a beside the ACL (6.1's tmpfs has no user.*)",
	      sys(setxattr(f, "trusted.a", "1", 1, 0)),
	      0, 0);
	check_str("listxattr lists the ACL first",
		  names_of(f, got, sizeof(got)), ACCESS ",trusted.a");
	check("remove the access ACL", sys(removexattr(f, ACCESS)), 0, 0);
	check("... it is gone", sys(getxattr(f, ACCESS, NULL, 0)), -ENODATA,
	      0);
	check("... and the mode stays", mode_of(f), 0640, R_OCT);
	check_str("... and listxattr no longer lists it",
		  names_of(f, got, sizeof(got)), "trusted.a");
	check("an ACL that says no more than a mode sets it",
	      acl_set(f, ACCESS, "u::rwx,g::r-x,o::r--"), 0, 0);
	check("... the mode is 0754", mode_of(f), 0754, R_OCT);
	check("... and is not kept as an ACL",
	      sys(getxattr(f, ACCESS, NULL, 0)), -ENODATA, 0);
}

static void check_malformed(void)
{
	const char *f = at(mp, "m");
	char buf[512];
	size_t n;

	new_file(f, 0644);
	n = acl_encode("u::rw-,g::r--,o::---", buf, sizeof(buf));
	check("a value not a whole number of entries is EINVAL",
	      sys(setxattr(f, ACCESS, buf, n - 1, 0)), -EINVAL, 0);
	buf[0] = 1;
	check("a value of version 1 is refused",
	      sys(setxattr(f, ACCESS, buf, n, 0)), -EOPNOTSUPP, 0);
	check("a named user without a mask entry is EINVAL",
	      acl_set(f, ACCESS, "u::rw-,u:1001:r--,g::r--,o::---"), -EINVAL,
	      0);
	check("a default ACL on a file is EACCES",
	      acl_set(f, DEFAULT, "u::rw-,g::r--,o::---"), -EACCES, 0);
	check("... and nothing was set",
	      sys(getxattr(f, ACCESS, NULL, 0)), -ENODATA, 0);
	check("... the mode unchanged", mode_of(f), 0644, R_OCT);
}

static void check_default(void)
{
	char d[PATH_MAX], plain[PATH_MAX], got[256];

	/* Copies: at() would otherwise be handed its own buffers. */
	snprintf(d, sizeof(d), "%s", at(mp, "d"));
	snprintf(plain, sizeof(plain), "%s", at(mp, "plain"));

	if (mkdir(d, 0755) < 0 || mkdir(plain, 0755) < 0)
		fatal("mkdir");
	check("set a default ACL on a directory",
	      acl_set(d, DEFAULT, "u::rwx,u:1001:r-x,g::r-x,m::r-x,o::---"), 0,
	      0);
	check_str("listxattr lists it", names_of(d, got, sizeof(got)),
		  DEFAULT);
	check("... the directory's own mode unchanged", mode_of(d), 0755,
	      R_OCT);
	umask(077);
	check("a new file takes the default ACL's mode, umask 077 ignored",
	      created_mode(d, "f", 'f'), 0640, R_OCT);
	check_str("... and it as its access ACL, mask from the mode",
		  acl_get(at(d, "f"), ACCESS, got, 256),
		  "u::rw-,u:1001:r-x,g::r-x,m::r--,o::---");
	check("... but no default ACL",
	      sys(getxattr(at(d, "f"), DEFAULT, NULL, 0)), -ENODATA, 0);
	check("a new directory: mode 0750, umask ignored",
	      created_mode(d, "sub", 'd'), 0750, R_OCT);
	check_str("... its access ACL",
		  acl_get(at(d, "sub"), ACCESS, got, 256),
		  "u::rwx,u:1001:r-x,g::r-x,m::r-x,o::---");
	check_str("... and the default ACL, inherited",
		  acl_get(at(d, "sub"), DEFAULT, got, 256),
		  "u::rwx,u:1001:r-x,g::r-x,m::r-x,o::---");
	check("a new fifo: mode 0640", created_mode(d, "p", 'p'), 0640, R_OCT);
	check("an O_TMPFILE: mode 0640", created_mode(d, "t", 't'), 0640,
	      R_OCT);
	check("without a default ACL the umask applies to a file",
	      created_mode(plain, "f", 'f'), 0600, R_OCT);
	check("... to a directory", created_mode(plain, "sub", 'd'), 0700,
	      R_OCT);
	check("... to an O_TMPFILE", created_mode(plain, "t", 't'), 0600,
	      R_OCT);
	check("remove the default ACL", sys(removexattr(d, DEFAULT)), 0, 0);
	check("... then the umask applies", created_mode(d, "g", 'f'), 0600,
	      R_OCT);
	umask(0);
}

static void check_permission(void)
{
	const char *f = at(mp, "secret");

	new_file(f, 0600);
	check("owner rw, uid 1001 read through a named entry",
	      acl_set(f, ACCESS, "u::rw-,u:1001:r--,g::---,m::r--,o::---"), 0,
	      0);
	check("uid 1001 may read", tap_as_user(1001, open_read, f, 0), 0, 0);
	check("uid 1001 may not write", tap_as_user(1001, open_write, f, 0), -EACCES,
	      0);
	check("uid 1002 may not read", tap_as_user(1002, open_read, f, 0), -EACCES,
	      0);
	check("uid 1001 may not set an ACL on root's file",
	      tap_as_user(1001, set_named_acl, f, 0), -EPERM, 0);
	check("chmod 0600 narrows the mask", sys(chmod(f, 0600)), 0, 0);
	check("... and uid 1001 may no longer read",
	      tap_as_user(1001, open_read, f, 0), -EACCES, 0);
}

/*
 * An idmapped copy of the mount at idmp (ids 0-999 seen as 10000-10999):
 * 0, or mount_setattr()'s -errno.
 */
static long mount_idmapped(void)
{
	int userns = idmapped_userns(10000, 1000), r;

	if (userns < 0)
		fatal(idmapped_failed);
	r = idmapped_copy(mp, idmp, userns);
	if (r < 0)
		fatal(idmapped_failed);
	close(userns);
	return -r;
}

static void check_idmapped(void)
{
	const char *f = at(mp, "idm"), *g;
	static long tmpfs_refused = 1;
	char got[256];
	long r;

	snprintf(idmp, sizeof(idmp), "%s/%s-idmapped", workdir, cur_fs);
	if (mkdir(idmp, 0755) < 0 && errno != EEXIST)
		fatal(idmp);
	new_file(f, 0644);
	/* Before 6.3 tmpfs refuses them, and so must ours. */
	r = mount_idmapped();
	if (is_tmpfs)
		tmpfs_refused = r;
	if (tmpfs_refused) {
		check("idmapped: refused where tmpfs refuses it", r,
		      tmpfs_refused, 0);
		if (!r && umount(idmp) < 0)
			fatal(idmp);
		skip_check("idmapped: ACLs through an idmapped mount",
			   "tmpfs refuses idmapped mounts on this kernel");
		return;
	}
	if (!check("idmapped: an idmapped copy of the mount", r, 0, 0))
		return;
	g = at(idmp, "idm");
	check("idmapped: set an ACL naming uid 10005",
	      acl_set(g, ACCESS, "u::rw-,u:10005:r--,g::r--,m::r--,o::---"), 0,
	      0);
	check_str("idmapped: it reads back as 10005",
		  acl_get(g, ACCESS, got, 256),
		  "u::rw-,u:10005:r--,g::r--,m::r--,o::---");
	check_str("idmapped: stored as uid 5",
		  acl_get(f, ACCESS, got, 256),
		  "u::rw-,u:5:r--,g::r--,m::r--,o::---");
	check("idmapped: uid 5 may read through the plain mount",
	      tap_as_user(5, open_read, f, 0), 0, 0);
	check("idmapped: uid 6 may not", tap_as_user(6, open_read, f, 0), -EACCES, 0);
	if (umount(idmp) < 0)
		fatal(idmp);
}

/* A kernel whose tmpfs has no ACLs: ours must refuse them as it does. */
static bool tmpfs_has_acls(void)
{
	static int has = -1;
	const char *f = at(mp, "probe");
	long r;

	new_file(f, 0644);
	r = acl_set(f, ACCESS, "u::rw-,u:1001:r--,g::r--,m::r--,o::---");
	if (has < 0)
		has = r != -EOPNOTSUPP;
	if (!has)
		check("without ACLs, setting one is EOPNOTSUPP", r,
		      -EOPNOTSUPP, 0);
	unlink(f);
	return has;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: acl WORKDIR FSTYPE...\n");
		return 2;
	}
	workdir = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	umask(0);
	while (tap_next_fs(argc, argv)) {
		tap_mount(mp, workdir, "", "mode=0755");
		if (tmpfs_has_acls()) {
			check_access();
			check_malformed();
			check_default();
			check_permission();
			check_idmapped();
		} else {
			skip_check("access, default ACLs, permission",
				   "tmpfs has no POSIX ACLs on this kernel (CONFIG_TMPFS_POSIX_ACL)");
		}
		if (umount(mp) < 0)
			fatal(mp);
	}
	return tap_finish("acl");
}
