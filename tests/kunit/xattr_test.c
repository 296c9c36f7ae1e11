// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the extended attribute store (src/xattr.c), which is
 * compiled into this file so that the tests reach its static functions
 * without the module exporting anything. The handlers run on a fake inode
 * whose superblock points to a fake filesystem type and per-mount state: no
 * mount, no VFS permission checks, just the store's own logic and its byte
 * accounting against the statistics and max_xattr_bytes. The per-mount
 * counters come from src/super.c, which tests/kunit/super_test.c compiles
 * into the same module.
 */
#include <kunit/test.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/rbtree.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/xattr.h>

#include "ipat.h"

/*
 * An LSM that keeps a label on every inode, as SELinux or Smack do, which
 * neither Debian kernel can show here (SELinux lists its name only with a
 * policy loaded; Smack is not built). While xt_lsm_name is set, it stands
 * in for security_inode_listsecurity() in src/xattr.c, with the same
 * contract (7.2's): its names appended at *buf when it is not NULL, their
 * length taken from *remaining. The headers xattr.c needs are in above, so
 * the #define reaches only its own code; on a kernel before 7.2 it replaces
 * include/ipat_compat.h's, which the stand-in calls.
 */
static const char *xt_lsm_name;

static int xt_listsecurity(struct inode *inode, char **buf,
			   ssize_t *remaining)
{
	size_t len;

	if (!xt_lsm_name)
		return security_inode_listsecurity(inode, buf, remaining);
	len = strlen(xt_lsm_name) + 1;
	if (*buf) {
		if (*remaining < (ssize_t)len)
			return -ERANGE;
		memcpy(*buf, xt_lsm_name, len);
		*buf += len;
	}
	*remaining -= len;
	return 0;
}

/* The same LSM's answer to "is this name your label?". */
static int xt_ismaclabel(const char *name)
{
	if (!xt_lsm_name)
		return security_ismaclabel(name);
	return !strcmp(name, xt_lsm_name + XATTR_SECURITY_PREFIX_LEN);
}

/*
 * The labels an LSM gives a new inode: while xt_init_label is set, the
 * stand-in for security_inode_init_security() hands it to the store's
 * callback as the LSM infrastructure would (name without "security.");
 * xt_init_err, when not 0, is returned without calling it: an LSM's error
 * as the infrastructure passes it on, which is never -EOPNOTSUPP (that one
 * it turns into 0).
 */
static const char *xt_init_label;
static int xt_init_err;

static int xt_init_security(struct inode *inode, struct inode *dir,
			    const struct qstr *qstr, initxattrs store,
			    void *fs_data)
{
	struct xattr xattrs[2] = {};

	if (xt_init_err)
		return xt_init_err;
	if (!xt_init_label)
		return security_inode_init_security(inode, dir, qstr, store,
						    fs_data);
	xattrs[0].name = "test";
	xattrs[0].value = (void *)xt_init_label;
	xattrs[0].value_len = strlen(xt_init_label);
	return store(inode, xattrs, fs_data);
}

#undef security_inode_listsecurity
#define security_inode_listsecurity xt_listsecurity
#define security_ismaclabel xt_ismaclabel
#define security_inode_init_security xt_init_security
#include "../../src/xattr.c"
#undef security_inode_init_security
#undef security_ismaclabel
#undef security_inode_listsecurity

/**
 * struct xt_fixture - one fake inode and what it hangs from
 * @type: the fake filesystem type, whose payload() finds @payload
 * @sb: the inode's superblock; only s_type, s_fs_info and the time
 *	fields are used
 * @sbi: the per-mount limits, with max_xattr_bytes
 * @inode: the inode the handlers are called on
 * @dentry: for ipat_listxattr(), which takes a dentry
 * @payload: the inode's private data
 */
struct xt_fixture {
	struct ipat_fs_type type;
	struct super_block sb;
	struct ipat_sb_info sbi;
	struct inode inode;
	struct dentry dentry;
	struct ipat_payload payload;
};

static struct ipat_payload *xt_payload(struct inode *inode)
{
	return &container_of(inode, struct xt_fixture, inode)->payload;
}

static int xt_init(struct kunit *test)
{
	struct xt_fixture *fx;

	fx = kunit_kzalloc(test, sizeof(*fx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fx);
	fx->type.fs_type.name = "xattr_test";
	fx->type.payload = xt_payload;
	fx->sb.s_type = &fx->type.fs_type;
	fx->sb.s_fs_info = &fx->sbi;
	spin_lock_init(&fx->sbi.lock);
	fx->sbi.max_xattr_bytes = ULONG_MAX - 1;
	/* current_time() truncates to these. */
	fx->sb.s_time_gran = 1;
	fx->sb.s_time_min = TIME64_MIN;
	fx->sb.s_time_max = TIME64_MAX;
	fx->inode.i_sb = &fx->sb;
	fx->dentry.d_inode = &fx->inode;
	fx->dentry.d_sb = &fx->sb;
	ipat_xattrs_init(&fx->payload.xattrs);
	/* No LSM names or labels unless a test asks for them. */
	xt_lsm_name = NULL;
	xt_init_label = NULL;
	xt_init_err = 0;
	test->priv = fx;
	return 0;
}

static void xt_exit(struct kunit *test)
{
	struct xt_fixture *fx = test->priv;

	ipat_xattrs_free(&fx->sb, &fx->payload.xattrs);
}

/* The handler for a full name, as the VFS would pick it. */
static const struct xattr_handler *xt_handler(const char *name)
{
	if (!strncmp(name, XATTR_TRUSTED_PREFIX, XATTR_TRUSTED_PREFIX_LEN))
		return &ipat_trusted_xattr_handler;
	if (!strncmp(name, XATTR_SECURITY_PREFIX, XATTR_SECURITY_PREFIX_LEN))
		return &ipat_security_xattr_handler;
	return &ipat_user_xattr_handler;
}

/* Handlers get the suffix, a pointer into the full name, as from the VFS. */
static int xt_set(struct kunit *test, const char *name, const void *value,
		  size_t size, int flags)
{
	struct xt_fixture *fx = test->priv;
	const struct xattr_handler *h = xt_handler(name);

	return ipat_xattr_set(h, &nop_mnt_idmap, &fx->dentry, &fx->inode,
			      name + strlen(h->prefix), value, size, flags);
}

static int xt_get(struct kunit *test, const char *name, void *buf,
		  size_t size)
{
	struct xt_fixture *fx = test->priv;
	const struct xattr_handler *h = xt_handler(name);

	return ipat_xattr_get(h, &fx->dentry, &fx->inode,
			      name + strlen(h->prefix), buf, size);
}

/* xattr_bytes of the statistics, after checking the mount counts the same. */
static long xt_bytes(struct kunit *test)
{
	struct xt_fixture *fx = test->priv;
	long bytes = atomic_long_read(&fx->type.stats.xattr_bytes);

	KUNIT_EXPECT_EQ(test, fx->sbi.used_xattr_bytes, bytes);
	return bytes;
}

/* What one attribute costs: entry, value and NUL-terminated name. */
static long xt_cost(const char *name, size_t size)
{
	return sizeof(struct ipat_xattr) + size + strlen(name) + 1;
}

static void xt_set_get(struct kunit *test)
{
	char buf[16];

	KUNIT_EXPECT_EQ(test, xt_set(test, "user.a", "hello", 5, 0), 0);
	/* A NULL buffer asks for the size. */
	KUNIT_EXPECT_EQ(test, xt_get(test, "user.a", NULL, 0), 5);
	KUNIT_EXPECT_EQ(test, xt_get(test, "user.a", buf, sizeof(buf)), 5);
	KUNIT_EXPECT_EQ(test, memcmp(buf, "hello", 5), 0);
	KUNIT_EXPECT_EQ(test, xt_bytes(test), xt_cost("user.a", 5));
}

static void xt_missing(struct kunit *test)
{
	char buf[4];

	KUNIT_EXPECT_EQ(test, xt_get(test, "user.a", buf, sizeof(buf)),
			-ENODATA);
	KUNIT_EXPECT_EQ(test, xt_set(test, "user.a", "x", 1, 0), 0);
	/* Names are compared whole: neither a prefix nor an extension. */
	KUNIT_EXPECT_EQ(test, xt_get(test, "user.ab", NULL, 0), -ENODATA);
	KUNIT_EXPECT_EQ(test, xt_get(test, "user.", NULL, 0), -ENODATA);
	/* The same suffix in the other namespace is another attribute. */
	KUNIT_EXPECT_EQ(test, xt_get(test, "trusted.a", NULL, 0), -ENODATA);
}

static void xt_erange(struct kunit *test)
{
	char buf[5];

	KUNIT_EXPECT_EQ(test, xt_set(test, "user.a", "hello", 5, 0), 0);
	KUNIT_EXPECT_EQ(test, xt_get(test, "user.a", buf, 4), -ERANGE);
	KUNIT_EXPECT_EQ(test, xt_get(test, "user.a", buf, 5), 5);
}

/* An empty value is an attribute, not a removal. */
static void xt_empty_value(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, xt_set(test, "user.e", "", 0, 0), 0);
	KUNIT_EXPECT_EQ(test, xt_get(test, "user.e", NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, xt_bytes(test), xt_cost("user.e", 0));
}

static void xt_create_flag(struct kunit *test)
{
	char buf[8];

	KUNIT_EXPECT_EQ(test, xt_set(test, "user.a", "old", 3, XATTR_CREATE),
			0);
	KUNIT_EXPECT_EQ(test, xt_set(test, "user.a", "newer", 5, XATTR_CREATE),
			-EEXIST);
	/* The refused value changed nothing, its bytes included. */
	KUNIT_EXPECT_EQ(test, xt_get(test, "user.a", buf, sizeof(buf)), 3);
	KUNIT_EXPECT_EQ(test, memcmp(buf, "old", 3), 0);
	KUNIT_EXPECT_EQ(test, xt_bytes(test), xt_cost("user.a", 3));
}

static void xt_replace_flag(struct kunit *test)
{
	char buf[8];

	KUNIT_EXPECT_EQ(test, xt_set(test, "user.a", "x", 1, XATTR_REPLACE),
			-ENODATA);
	KUNIT_EXPECT_EQ(test, xt_get(test, "user.a", NULL, 0), -ENODATA);
	KUNIT_EXPECT_EQ(test, xt_bytes(test), 0);

	KUNIT_EXPECT_EQ(test, xt_set(test, "user.a", "old", 3, 0), 0);
	KUNIT_EXPECT_EQ(test, xt_set(test, "user.a", "newer", 5,
				     XATTR_REPLACE), 0);
	KUNIT_EXPECT_EQ(test, xt_get(test, "user.a", buf, sizeof(buf)), 5);
	KUNIT_EXPECT_EQ(test, memcmp(buf, "newer", 5), 0);
	/* The old value's bytes went with it. */
	KUNIT_EXPECT_EQ(test, xt_bytes(test), xt_cost("user.a", 5));
}

/* removexattr() arrives as a NULL value with XATTR_REPLACE. */
static void xt_remove(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, xt_set(test, "user.a", "v", 1, 0), 0);
	KUNIT_EXPECT_EQ(test, xt_set(test, "user.a", NULL, 0, XATTR_REPLACE),
			0);
	KUNIT_EXPECT_EQ(test, xt_get(test, "user.a", NULL, 0), -ENODATA);
	KUNIT_EXPECT_EQ(test, xt_bytes(test), 0);
	KUNIT_EXPECT_EQ(test, xt_set(test, "user.a", NULL, 0, XATTR_REPLACE),
			-ENODATA);
}

static void xt_ctime(struct kunit *test)
{
	struct xt_fixture *fx = test->priv;

	KUNIT_EXPECT_EQ(test, xt_set(test, "user.a", "v", 1, 0), 0);
	KUNIT_EXPECT_NE(test, inode_get_ctime(&fx->inode).tv_sec, 0);
	/* A refused change is no change. */
	inode_set_ctime(&fx->inode, 0, 0);
	KUNIT_EXPECT_EQ(test, xt_set(test, "user.a", "w", 1, XATTR_CREATE),
			-EEXIST);
	KUNIT_EXPECT_EQ(test, inode_get_ctime(&fx->inode).tv_sec, 0);
}

/* The largest value the VFS lets through, which kvmalloc() may vmalloc. */
static void xt_large_value(struct kunit *test)
{
	u8 *in, *out;
	size_t i;

	in = kunit_kmalloc(test, XATTR_SIZE_MAX, GFP_KERNEL);
	out = kunit_kzalloc(test, XATTR_SIZE_MAX, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, in);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, out);
	for (i = 0; i < XATTR_SIZE_MAX; i++)
		in[i] = i * 7;
	KUNIT_EXPECT_EQ(test, xt_set(test, "user.big", in, XATTR_SIZE_MAX, 0),
			0);
	KUNIT_EXPECT_EQ(test, xt_get(test, "user.big", out, XATTR_SIZE_MAX),
			XATTR_SIZE_MAX);
	KUNIT_EXPECT_EQ(test, memcmp(in, out, XATTR_SIZE_MAX), 0);
	KUNIT_EXPECT_EQ(test, xt_bytes(test),
			xt_cost("user.big", XATTR_SIZE_MAX));
}

static const char xt_names[] = "trusted.b\0user.a\0user.c";

static void xt_fill(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, xt_set(test, "user.a", "1", 1, 0), 0);
	KUNIT_ASSERT_EQ(test, xt_set(test, "trusted.b", "2", 1, 0), 0);
	KUNIT_ASSERT_EQ(test, xt_set(test, "user.c", "3", 1, 0), 0);
}

static void xt_list(struct kunit *test)
{
	struct xt_fixture *fx = test->priv;
	char buf[64];

	KUNIT_EXPECT_EQ(test, ipat_listxattr(&fx->dentry, NULL, 0), 0);
	xt_fill(test);
	/* Every name with its NUL, sorted, whatever order they were set in. */
	KUNIT_EXPECT_EQ(test, ipat_listxattr(&fx->dentry, NULL, 0),
			sizeof(xt_names));
	KUNIT_EXPECT_EQ(test, ipat_listxattr(&fx->dentry, buf, sizeof(buf)),
			sizeof(xt_names));
	KUNIT_EXPECT_EQ(test, memcmp(buf, xt_names, sizeof(xt_names)), 0);
	/* One byte short of the whole list is too short. */
	KUNIT_EXPECT_EQ(test, ipat_listxattr(&fx->dentry, buf,
					     sizeof(xt_names) - 1), -ERANGE);
	KUNIT_EXPECT_EQ(test, ipat_listxattr(&fx->dentry, buf,
					     sizeof(xt_names)),
			sizeof(xt_names));
}

/* trusted.* names are listed only to CAP_SYS_ADMIN. */
static void xt_list_unprivileged(struct kunit *test)
{
	struct xt_fixture *fx = test->priv;
	static const char user_names[] = "user.a\0user.c";
	const struct cred *old;
	struct cred *cred;
	char buf[64];
	ssize_t len, size;

	xt_fill(test);
	cred = prepare_creds();
	KUNIT_ASSERT_NOT_NULL(test, cred);
	cap_lower(cred->cap_effective, CAP_SYS_ADMIN);
	old = override_creds(cred);
	size = ipat_listxattr(&fx->dentry, NULL, 0);
	len = ipat_listxattr(&fx->dentry, buf, sizeof(buf));
	revert_creds(old);
	put_cred(cred);

	KUNIT_EXPECT_EQ(test, size, sizeof(user_names));
	KUNIT_EXPECT_EQ(test, len, sizeof(user_names));
	KUNIT_EXPECT_EQ(test, memcmp(buf, user_names, sizeof(user_names)), 0);
}

/*
 * The names an LSM keeps come first in the listing and count in its size,
 * as simple_xattr_list() puts them on ramfs and tmpfs: a copy made from
 * the listing keeps the file's label.
 */
static void xt_list_lsm(struct kunit *test)
{
	static const char names[] = "security.test\0trusted.b\0user.a\0user.c";
	struct xt_fixture *fx = test->priv;
	char buf[64];

	xt_lsm_name = "security.test";
	KUNIT_EXPECT_EQ(test, ipat_listxattr(&fx->dentry, NULL, 0),
			sizeof("security.test"));
	xt_fill(test);
	KUNIT_EXPECT_EQ(test, ipat_listxattr(&fx->dentry, NULL, 0),
			sizeof(names));
	KUNIT_EXPECT_EQ(test, ipat_listxattr(&fx->dentry, buf, sizeof(buf)),
			sizeof(names));
	KUNIT_EXPECT_EQ(test, memcmp(buf, names, sizeof(names)), 0);
	/* Too short for all, or for the LSM's names alone. */
	KUNIT_EXPECT_EQ(test, ipat_listxattr(&fx->dentry, buf,
					     sizeof(names) - 1), -ERANGE);
	KUNIT_EXPECT_EQ(test, ipat_listxattr(&fx->dentry, buf, 4), -ERANGE);
}

/*
 * However many names are set, the listing, the LSM's names included, fits
 * in XATTR_LIST_MAX: a name that would push it past gets ENOSPC, so that
 * listxattr() never fails with E2BIG.
 */
static void xt_list_bound(struct kunit *test)
{
	struct xt_fixture *fx = test->priv;
	char name[XATTR_NAME_MAX + 1];
	unsigned int i;
	int err = 0;

	xt_lsm_name = "security.test";
	/* 255-byte names: the bound is reached after 256 of them. */
	memset(name, 'x', XATTR_NAME_MAX);
	name[XATTR_NAME_MAX] = '\0';
	memcpy(name, "user.", 5);
	for (i = 0; i < 1000 && !err; i++) {
		snprintf(name + 5, 5, "%04u", i % 10000);
		name[9] = 'x';
		err = xt_set(test, name, "", 0, 0);
	}
	KUNIT_EXPECT_EQ(test, err, -ENOSPC);
	KUNIT_EXPECT_LE(test, ipat_listxattr(&fx->dentry, NULL, 0),
			XATTR_LIST_MAX);
	KUNIT_EXPECT_GT(test, ipat_listxattr(&fx->dentry, NULL, 0),
			XATTR_LIST_MAX - XATTR_NAME_MAX - 1);
}

/*
 * A stored MAC label counts once toward XATTR_LIST_MAX, as the LSM's name
 * it is listed under: the names reach the bound exactly.
 */
static void xt_list_bound_maclabel(struct kunit *test)
{
	struct xt_fixture *fx = test->priv;
	char name[XATTR_NAME_MAX + 1];
	size_t left;
	int i;

	xt_lsm_name = "security.test";
	KUNIT_EXPECT_EQ(test, xt_set(test, "security.test", "l", 1, 0), 0);
	/* 255 names of 255 bytes, then one that fills what is left. */
	memset(name, 'x', XATTR_NAME_MAX);
	name[XATTR_NAME_MAX] = '\0';
	memcpy(name, "user.", 5);
	for (i = 0; i < 255; i++) {
		snprintf(name + 5, 5, "%04d", i);
		name[9] = 'x';
		KUNIT_ASSERT_EQ(test, xt_set(test, name, "", 0, 0), 0);
	}
	left = XATTR_LIST_MAX - sizeof("security.test") - 255 * sizeof(name);
	memcpy(name, "user.last", 9);
	name[left - 1] = '\0';
	KUNIT_EXPECT_EQ(test, xt_set(test, name, "", 0, 0), 0);
	KUNIT_EXPECT_EQ(test, ipat_listxattr(&fx->dentry, NULL, 0),
			XATTR_LIST_MAX);
	KUNIT_EXPECT_EQ(test, xt_set(test, "user.y", "", 0, 0), -ENOSPC);
}

/* security.* is a namespace like the others: stored, charged, listed. */
static void xt_security(struct kunit *test)
{
	static const char names[] = "security.ipat\0user.a";
	struct xt_fixture *fx = test->priv;
	char buf[32];

	KUNIT_EXPECT_EQ(test, xt_set(test, "security.ipat", "lbl", 3, 0), 0);
	KUNIT_EXPECT_EQ(test, xt_set(test, "user.a", "x", 1, 0), 0);
	KUNIT_EXPECT_EQ(test, xt_get(test, "security.ipat", buf, sizeof(buf)),
			3);
	KUNIT_EXPECT_EQ(test, memcmp(buf, "lbl", 3), 0);
	KUNIT_EXPECT_EQ(test, ipat_listxattr(&fx->dentry, buf, sizeof(buf)),
			sizeof(names));
	KUNIT_EXPECT_EQ(test, memcmp(buf, names, sizeof(names)), 0);
	KUNIT_EXPECT_EQ(test, xt_bytes(test),
			xt_cost("security.ipat", 3) + xt_cost("user.a", 1));
	KUNIT_EXPECT_EQ(test, xt_set(test, "security.ipat", NULL, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, xt_get(test, "security.ipat", NULL, 0),
			-ENODATA);
}

/*
 * A stored MAC label is listed once, by the LSM, as 6.12's tmpfs lists
 * it; another security.* name is listed from the store.
 */
static void xt_list_maclabel(struct kunit *test)
{
	static const char names[] = "security.test\0security.x";
	struct xt_fixture *fx = test->priv;
	char buf[64];

	xt_lsm_name = "security.test";
	KUNIT_EXPECT_EQ(test, xt_set(test, "security.test", "l", 1, 0), 0);
	KUNIT_EXPECT_EQ(test, xt_set(test, "security.x", "y", 1, 0), 0);
	KUNIT_EXPECT_EQ(test, ipat_listxattr(&fx->dentry, buf, sizeof(buf)),
			sizeof(names));
	KUNIT_EXPECT_EQ(test, memcmp(buf, names, sizeof(names)), 0);
}

/*
 * The label an LSM gives a new inode is stored as security.<name> and
 * charged like any attribute; an LSM's error is passed on.
 */
static void xt_init_security_label(struct kunit *test)
{
	struct xt_fixture *fx = test->priv;
	char buf[16];

	xt_init_label = "system_u";
	KUNIT_EXPECT_EQ(test, ipat_init_security(&fx->inode, &fx->inode, NULL),
			0);
	KUNIT_EXPECT_EQ(test, xt_get(test, "security.test", buf, sizeof(buf)),
			8);
	KUNIT_EXPECT_EQ(test, memcmp(buf, "system_u", 8), 0);
	KUNIT_EXPECT_EQ(test, xt_bytes(test), xt_cost("security.test", 8));

	xt_init_err = -EACCES;
	KUNIT_EXPECT_EQ(test, ipat_init_security(&fx->inode, &fx->inode, NULL),
			-EACCES);
}

/*
 * A label beyond max_xattr_bytes is stored and counted all the same: the
 * creation must not fail for it (docs/reference.md). What a user sets
 * then finds the mount full.
 */
static void xt_init_security_budget(struct kunit *test)
{
	struct xt_fixture *fx = test->priv;

	fx->sbi.max_xattr_bytes = xt_cost("security.test", 8) - 1;
	xt_init_label = "system_u";
	KUNIT_EXPECT_EQ(test, ipat_init_security(&fx->inode, &fx->inode, NULL),
			0);
	KUNIT_EXPECT_EQ(test, xt_get(test, "security.test", NULL, 0), 8);
	KUNIT_EXPECT_EQ(test, xt_bytes(test), xt_cost("security.test", 8));
	KUNIT_EXPECT_EQ(test, xt_set(test, "user.a", "v", 1, 0), -ENOSPC);
}

/* Eviction's ipat_xattrs_free() gives every byte back. */
static void xt_free(struct kunit *test)
{
	struct xt_fixture *fx = test->priv;

	xt_fill(test);
	KUNIT_EXPECT_EQ(test, xt_bytes(test),
			xt_cost("user.a", 1) + xt_cost("trusted.b", 1) +
			xt_cost("user.c", 1));
	ipat_xattrs_free(&fx->sb, &fx->payload.xattrs);
	KUNIT_EXPECT_EQ(test, xt_bytes(test), 0);
	KUNIT_EXPECT_TRUE(test, RB_EMPTY_ROOT(&fx->payload.xattrs.tree));
	KUNIT_EXPECT_EQ(test, ipat_listxattr(&fx->dentry, NULL, 0), 0);
}

/*
 * max_xattr_bytes: a new attribute or a larger value past it is refused
 * with ENOSPC and changes nothing; a value no larger than the one it
 * replaces always fits; removal gives the bytes back.
 */
static void xt_budget(struct kunit *test)
{
	struct xt_fixture *fx = test->priv;
	char buf[8];

	fx->sbi.max_xattr_bytes = xt_cost("user.a", 4) + xt_cost("user.b", 2);
	KUNIT_EXPECT_EQ(test, xt_set(test, "user.a", "aaaa", 4, 0), 0);
	KUNIT_EXPECT_EQ(test, xt_set(test, "user.b", "bbb", 3, 0), -ENOSPC);
	KUNIT_EXPECT_EQ(test, xt_get(test, "user.b", NULL, 0), -ENODATA);
	KUNIT_EXPECT_EQ(test, xt_set(test, "user.b", "bb", 2, 0), 0);
	KUNIT_EXPECT_EQ(test, fx->sbi.used_xattr_bytes,
			fx->sbi.max_xattr_bytes);
	/* Full: growing fails, the same size and shrinking do not. */
	KUNIT_EXPECT_EQ(test, xt_set(test, "user.a", "aaaaa", 5, 0), -ENOSPC);
	KUNIT_EXPECT_EQ(test, xt_get(test, "user.a", buf, sizeof(buf)), 4);
	KUNIT_EXPECT_EQ(test, xt_set(test, "user.a", "cccc", 4, 0), 0);
	KUNIT_EXPECT_EQ(test, xt_set(test, "user.a", "d", 1, 0), 0);
	KUNIT_EXPECT_EQ(test, xt_bytes(test),
			xt_cost("user.a", 1) + xt_cost("user.b", 2));
	KUNIT_EXPECT_EQ(test, xt_set(test, "user.a", "eeee", 4, 0), 0);
	KUNIT_EXPECT_EQ(test, xt_set(test, "user.a", NULL, 0, XATTR_REPLACE),
			0);
	KUNIT_EXPECT_EQ(test, xt_bytes(test), xt_cost("user.b", 2));
	KUNIT_EXPECT_EQ(test, xt_set(test, "user.c", "ccc", 3, 0), 0);
	/* Eviction gives every byte back; a limit of 0 allows no xattr. */
	ipat_xattrs_free(&fx->sb, &fx->payload.xattrs);
	KUNIT_EXPECT_EQ(test, fx->sbi.used_xattr_bytes, 0);
	fx->sbi.max_xattr_bytes = 0;
	KUNIT_EXPECT_EQ(test, xt_set(test, "user.z", "", 0, 0), -ENOSPC);
	KUNIT_EXPECT_EQ(test, xt_bytes(test), 0);
}

/*
 * A thousand names on one inode (51-limits sets 5,000; here that took 3 s
 * on the debug kernel): each found, listed once, in order, and removed,
 * with the bytes and the listing length kept right throughout.
 */
static void xt_many(struct kunit *test)
{
	struct xt_fixture *fx = test->priv;
	enum { N = 1000 };
	char name[16], *list, *p;
	ssize_t len;
	int i;

	for (i = 0; i < N; i++) {
		/* Set in an order the tree must sort: 0, 999, 1, 998... */
		snprintf(name, sizeof(name), "user.%04d", i % 2 ? N - 1 - i / 2
							 : i / 2);
		KUNIT_ASSERT_EQ(test, xt_set(test, name, name, 9, 0), 0);
	}
	KUNIT_EXPECT_EQ(test, xt_bytes(test), N * xt_cost("user.0000", 9));
	list = kunit_kmalloc(test, XATTR_LIST_MAX, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, list);
	len = ipat_listxattr(&fx->dentry, list, XATTR_LIST_MAX);
	KUNIT_ASSERT_EQ(test, len, N * sizeof("user.0000"));
	KUNIT_EXPECT_EQ(test, fx->payload.xattrs.names_len, len);
	for (i = 0, p = list; i < N; i++, p += sizeof("user.0000")) {
		char value[9];

		snprintf(name, sizeof(name), "user.%04d", i);
		KUNIT_EXPECT_STREQ(test, p, name);
		KUNIT_EXPECT_EQ(test, xt_get(test, name, value, sizeof(value)),
				9);
		KUNIT_EXPECT_EQ(test, memcmp(value, name, 9), 0);
	}
	for (i = 0; i < N; i += 2) {
		snprintf(name, sizeof(name), "user.%04d", i);
		KUNIT_EXPECT_EQ(test, xt_set(test, name, NULL, 0,
					     XATTR_REPLACE), 0);
	}
	KUNIT_EXPECT_EQ(test, xt_bytes(test), N / 2 * xt_cost("user.0000", 9));
	KUNIT_EXPECT_EQ(test, ipat_listxattr(&fx->dentry, NULL, 0),
			N / 2 * sizeof("user.0000"));
	KUNIT_EXPECT_EQ(test, xt_get(test, "user.0002", NULL, 0), -ENODATA);
	KUNIT_EXPECT_EQ(test, xt_get(test, "user.0003", NULL, 0), 9);
}

static struct kunit_case xt_cases[] = {
	KUNIT_CASE(xt_set_get),
	KUNIT_CASE(xt_missing),
	KUNIT_CASE(xt_erange),
	KUNIT_CASE(xt_empty_value),
	KUNIT_CASE(xt_create_flag),
	KUNIT_CASE(xt_replace_flag),
	KUNIT_CASE(xt_remove),
	KUNIT_CASE(xt_ctime),
	KUNIT_CASE(xt_large_value),
	KUNIT_CASE(xt_list),
	KUNIT_CASE(xt_list_unprivileged),
	KUNIT_CASE(xt_list_lsm),
	KUNIT_CASE(xt_list_bound),
	KUNIT_CASE(xt_list_bound_maclabel),
	KUNIT_CASE(xt_security),
	KUNIT_CASE(xt_list_maclabel),
	KUNIT_CASE(xt_init_security_label),
	KUNIT_CASE(xt_init_security_budget),
	KUNIT_CASE(xt_free),
	KUNIT_CASE(xt_budget),
	KUNIT_CASE(xt_many),
	{}
};

static struct kunit_suite xt_suite = {
	.name = "inode_patterns_xattr",
	.init = xt_init,
	.exit = xt_exit,
	.test_cases = xt_cases,
};

kunit_test_suite(xt_suite);
