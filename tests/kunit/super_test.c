// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of src/super.c: mount option parsing, the max_inodes,
 * max_xattr_bytes and size= accounting and what statfs() and /proc/mounts
 * report from it. super.c is compiled into this file for its static
 * functions, with limits.c, whose accounting the tests drive; inode.c,
 * file.c and export.c come along only because ipat_fill_super() needs
 * ipat_new_inode() and ipat_export_ops, and iflags.c and acl.c because
 * the inode operations name them; no test here mounts anything: the guest
 * tests do that (tests/prog/blocks.c for the pages).
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/seq_file.h>

#include "../../src/super.c"
#include "../../src/limits.c"
#include "../../src/inode.c"
#include "../../src/file.c"
#include "../../src/export.c"
#include "../../src/iflags.c"
#ifdef CONFIG_TMPFS_POSIX_ACL
#include "../../src/acl.c"
#endif

/*
 * A filesystem type with the shared code's mount context and nothing else:
 * enough for fs_context_for_mount() and the option parser behind it.
 */
static struct ipat_fs_type st_type = {
	.fs_type = {
		.name		 = "ipat_kunit",
		.init_fs_context = ipat_init_fs_context,
	},
};

/**
 * struct st_fixture - a fake mounted filesystem
 * @sb: its superblock, pointing to @type and @sbi
 * @sbi: the per-mount counters
 * @root: the root directory's inode, for show_options()
 * @dentry: the root dentry
 * @type: a filesystem type of its own, for a statistics block of its own
 */
struct st_fixture {
	struct super_block sb;
	struct ipat_sb_info sbi;
	struct inode root;
	struct dentry dentry;
	struct ipat_fs_type type;
};

static int st_init(struct kunit *test)
{
	struct st_fixture *fx;

	fx = kunit_kzalloc(test, sizeof(*fx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fx);
	fx->type.fs_type.name = "ipat_kunit";
	fx->type.magic = 0x6b756e74;
	fx->sb.s_type = &fx->type.fs_type;
	fx->sb.s_magic = fx->type.magic;
	fx->sb.s_fs_info = &fx->sbi;
	spin_lock_init(&fx->sbi.lock);
	fx->root.i_sb = &fx->sb;
	fx->root.i_mode = S_IFDIR | IPAT_DEFAULT_MODE;
	fx->sbi.mode = IPAT_DEFAULT_MODE;
	fx->sbi.default_xattr_bytes = ipat_default_max_xattr_bytes();
	fx->sbi.max_xattr_bytes = fx->sbi.default_xattr_bytes;
	fx->sbi.max_blocks = ipat_default_max_blocks();
	fx->dentry.d_sb = &fx->sb;
	fx->dentry.d_inode = &fx->root;
	test->priv = fx;
	return 0;
}

/* Parse "key=value" (or a bare "key" for a NULL value) into a new context. */
static int st_parse(struct kunit *test, struct fs_context *fc,
		    const char *key, const char *value)
{
	return vfs_parse_fs_string(fc, key, value);
}

static struct fs_context *st_context(struct kunit *test)
{
	struct fs_context *fc = fs_context_for_mount(&st_type.fs_type, 0);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fc);
	return fc;
}

static struct ipat_options *st_opts(struct fs_context *fc)
{
	return fc->fs_private;
}

static void st_defaults(struct kunit *test)
{
	struct fs_context *fc = st_context(test);

	KUNIT_EXPECT_EQ(test, st_opts(fc)->mode, IPAT_DEFAULT_MODE);
	KUNIT_EXPECT_TRUE(test, uid_eq(st_opts(fc)->uid, current_fsuid()));
	KUNIT_EXPECT_TRUE(test, gid_eq(st_opts(fc)->gid, current_fsgid()));
	KUNIT_EXPECT_EQ(test, st_opts(fc)->max.inodes, totalram_pages() / 2);
	/* An eighth of RAM, as tmpfs's default inode space. */
	KUNIT_EXPECT_EQ(test, st_opts(fc)->max.xattr_bytes,
			(totalram_pages() << PAGE_SHIFT) / 8);
	/* Half of RAM's pages, as tmpfs's default size. */
	KUNIT_EXPECT_EQ(test, st_opts(fc)->max.blocks, totalram_pages() / 2);
	KUNIT_EXPECT_EQ(test, st_opts(fc)->seen, 0);
	put_fs_context(fc);
}

static void st_mode(struct kunit *test)
{
	struct fs_context *fc = st_context(test);

	KUNIT_EXPECT_EQ(test, st_parse(test, fc, "mode", "700"), 0);
	KUNIT_EXPECT_EQ(test, st_opts(fc)->mode, 0700);
	/* Octal, even without a leading 0; the last one given wins. */
	KUNIT_EXPECT_EQ(test, st_parse(test, fc, "mode", "0750"), 0);
	KUNIT_EXPECT_EQ(test, st_opts(fc)->mode, 0750);
	/* setuid, setgid and sticky bits are permission bits too. */
	KUNIT_EXPECT_EQ(test, st_parse(test, fc, "mode", "7777"), 0);
	KUNIT_EXPECT_EQ(test, st_opts(fc)->mode, 07777);
	/* A file type bit is not, and a refused value changes nothing. */
	KUNIT_EXPECT_EQ(test, st_parse(test, fc, "mode", "10000"), -EINVAL);
	KUNIT_EXPECT_EQ(test, st_parse(test, fc, "mode", "40755"), -EINVAL);
	KUNIT_EXPECT_EQ(test, st_parse(test, fc, "mode", "8"), -EINVAL);
	KUNIT_EXPECT_EQ(test, st_parse(test, fc, "mode", ""), -EINVAL);
	KUNIT_EXPECT_EQ(test, st_parse(test, fc, "mode", NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, st_opts(fc)->mode, 07777);
	put_fs_context(fc);
}

static void st_uid_gid(struct kunit *test)
{
	struct fs_context *fc = st_context(test);

	KUNIT_EXPECT_EQ(test, st_parse(test, fc, "uid", "1000"), 0);
	KUNIT_EXPECT_EQ(test, st_parse(test, fc, "gid", "100"), 0);
	KUNIT_EXPECT_TRUE(test, uid_eq(st_opts(fc)->uid, KUIDT_INIT(1000)));
	KUNIT_EXPECT_TRUE(test, gid_eq(st_opts(fc)->gid, KGIDT_INIT(100)));
	/* (u32)-1 is the invalid id, not a user. */
	KUNIT_EXPECT_EQ(test, st_parse(test, fc, "uid", "4294967295"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, st_parse(test, fc, "gid", "4294967295"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, st_parse(test, fc, "uid", "4294967296"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, st_parse(test, fc, "uid", "-1"), -EINVAL);
	KUNIT_EXPECT_EQ(test, st_parse(test, fc, "gid", "root"), -EINVAL);
	KUNIT_EXPECT_TRUE(test, uid_eq(st_opts(fc)->uid, KUIDT_INIT(1000)));
	KUNIT_EXPECT_TRUE(test, gid_eq(st_opts(fc)->gid, KGIDT_INIT(100)));
	put_fs_context(fc);
}

/*
 * The top of a limit's range: ULONG_MAX and beyond are refused and change
 * nothing; one below ULONG_MAX is the largest limit. @limit is the field
 * of the context's options that @key sets.
 */
static void st_limit_top(struct kunit *test, struct fs_context *fc,
			 const char *key, const unsigned long *limit)
{
	unsigned long before = *limit;

	KUNIT_EXPECT_EQ(test, st_parse(test, fc, key, "18446744073709551615"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, st_parse(test, fc, key, "18446744073709551616"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, *limit, before);
	KUNIT_EXPECT_EQ(test, st_parse(test, fc, key, "18446744073709551614"),
			0);
	KUNIT_EXPECT_EQ(test, *limit, ULONG_MAX - 1);
}

static void st_max_inodes(struct kunit *test)
{
	struct fs_context *fc = st_context(test);

	/* The root directory alone needs one inode. */
	KUNIT_EXPECT_EQ(test, st_parse(test, fc, "max_inodes", "1"), 0);
	KUNIT_EXPECT_EQ(test, st_opts(fc)->max.inodes, 1);
	KUNIT_EXPECT_EQ(test, st_parse(test, fc, "max_inodes", "0"), -EINVAL);
	KUNIT_EXPECT_EQ(test, st_opts(fc)->max.inodes, 1);
	st_limit_top(test, fc, "max_inodes", &st_opts(fc)->max.inodes);
	put_fs_context(fc);
}

static void st_max_xattr_bytes(struct kunit *test)
{
	static const char *const bad[] = { "1m", "-1", "", "0x", NULL };
	struct fs_context *fc = st_context(test);
	size_t i;

	KUNIT_EXPECT_EQ(test, st_parse(test, fc, "max_xattr_bytes", "65536"),
			0);
	KUNIT_EXPECT_EQ(test, st_opts(fc)->max.xattr_bytes, 65536);
	KUNIT_EXPECT_EQ(test, st_opts(fc)->seen, IPAT_LIMIT_XATTR_BYTES);
	/* 0: no xattrs at all, a limit like any other. */
	KUNIT_EXPECT_EQ(test, st_parse(test, fc, "max_xattr_bytes", "0"), 0);
	KUNIT_EXPECT_EQ(test, st_opts(fc)->max.xattr_bytes, 0);
	/* Bytes, as a plain number; a refused value changes nothing. */
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, st_parse(test, fc, "max_xattr_bytes",
						   bad[i]), -EINVAL,
				    "max_xattr_bytes=%s", bad[i] ?: "(none)");
	KUNIT_EXPECT_EQ(test, st_opts(fc)->max.xattr_bytes, 0);
	st_limit_top(test, fc, "max_xattr_bytes",
		     &st_opts(fc)->max.xattr_bytes);
	put_fs_context(fc);
}

/* size=: bytes, k/m/g suffixes or % of RAM, rounded up to pages. */
static void st_size(struct kunit *test)
{
	static const struct {
		const char *value;
		unsigned long pages;
	} good[] = {
		{ "1m", 256 }, { "4097", 2 }, { "1k", 1 }, { "0", 0 },
		{ "2G", 2UL << (30 - PAGE_SHIFT) },
	};
	static const char *const bad[] = {
		"1x", "", "%", "-1", "1%k", "99999999999999%", NULL,
	};
	struct fs_context *fc = st_context(test);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		KUNIT_EXPECT_EQ_MSG(test, st_parse(test, fc, "size",
						   good[i].value), 0,
				    "size=%s", good[i].value);
		KUNIT_EXPECT_EQ_MSG(test, st_opts(fc)->max.blocks,
				    good[i].pages, "size=%s", good[i].value);
	}
	KUNIT_EXPECT_EQ(test, st_opts(fc)->seen, IPAT_LIMIT_BLOCKS);
	/* A percentage of RAM, worked out as tmpfs does. */
	KUNIT_EXPECT_EQ(test, st_parse(test, fc, "size", "100%"), 0);
	KUNIT_EXPECT_EQ(test, st_opts(fc)->max.blocks, totalram_pages());
	/* A refused value changes nothing. */
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, st_parse(test, fc, "size", bad[i]),
				    -EINVAL, "size=%s", bad[i] ?: "(none)");
	KUNIT_EXPECT_EQ(test, st_opts(fc)->max.blocks, totalram_pages());
	put_fs_context(fc);
}

/* nr_blocks=: the same limit in pages; up to what /proc/mounts can show. */
static void st_nr_blocks(struct kunit *test)
{
	struct fs_context *fc = st_context(test);
	char top[24];

	KUNIT_EXPECT_EQ(test, st_parse(test, fc, "nr_blocks", "300"), 0);
	KUNIT_EXPECT_EQ(test, st_opts(fc)->max.blocks, 300);
	KUNIT_EXPECT_EQ(test, st_parse(test, fc, "nr_blocks", "1k"), 0);
	KUNIT_EXPECT_EQ(test, st_opts(fc)->max.blocks, 1024);
	KUNIT_EXPECT_EQ(test, st_opts(fc)->seen, IPAT_LIMIT_BLOCKS);
	snprintf(top, sizeof(top), "%lu", IPAT_MAX_BLOCKS_LIMIT);
	KUNIT_EXPECT_EQ(test, st_parse(test, fc, "nr_blocks", top), 0);
	KUNIT_EXPECT_EQ(test, st_opts(fc)->max.blocks, IPAT_MAX_BLOCKS_LIMIT);
	snprintf(top, sizeof(top), "%lu", IPAT_MAX_BLOCKS_LIMIT + 1);
	KUNIT_EXPECT_EQ(test, st_parse(test, fc, "nr_blocks", top), -EINVAL);
	KUNIT_EXPECT_EQ(test, st_parse(test, fc, "nr_blocks", "12x"), -EINVAL);
	KUNIT_EXPECT_EQ(test, st_opts(fc)->max.blocks, IPAT_MAX_BLOCKS_LIMIT);
	put_fs_context(fc);
}

static void st_unknown(struct kunit *test)
{
	struct fs_context *fc = st_context(test);

	/* tmpfs's name for max_inodes is not ours. */
	KUNIT_EXPECT_EQ(test, st_parse(test, fc, "nr_inodes", "100"), -EINVAL);
	KUNIT_EXPECT_EQ(test, st_parse(test, fc, "Mode", "700"), -EINVAL);
	KUNIT_EXPECT_EQ(test, st_opts(fc)->mode, IPAT_DEFAULT_MODE);
	put_fs_context(fc);
}

/*
 * A remount's context carries nothing of the mount: only what the caller
 * names is applied (the mounted limit may change after the context is made).
 */
static void st_reconfigure_defaults(struct kunit *test)
{
	struct st_fixture *fx = test->priv;
	struct fs_context fc = {
		.purpose = FS_CONTEXT_FOR_RECONFIGURE,
		.root = &fx->dentry,
	};

	fx->sbi.max_inodes = 42;
	KUNIT_ASSERT_EQ(test, ipat_init_fs_context(&fc), 0);
	KUNIT_EXPECT_EQ(test, st_opts(&fc)->seen, 0);
	KUNIT_EXPECT_PTR_EQ(test, fc.ops, &ipat_context_ops);
	/* Naming nothing changes nothing. */
	KUNIT_EXPECT_EQ(test, ipat_reconfigure(&fc), 0);
	KUNIT_EXPECT_EQ(test, fx->sbi.max_inodes, 42);
	ipat_free_fc(&fc);
}

static void st_reconfigure(struct kunit *test)
{
	struct st_fixture *fx = test->priv;
	struct ipat_options opts = { .seen = IPAT_LIMIT_INODES };
	struct fs_context fc = {
		.root = &fx->dentry,
		.fs_private = &opts,
	};

	fx->sbi.max_inodes = 10;
	fx->sbi.used_inodes = 5;
	/* Below the inodes in use: refused, limit unchanged. */
	opts.max.inodes = 4;
	KUNIT_EXPECT_EQ(test, ipat_reconfigure(&fc), -EINVAL);
	KUNIT_EXPECT_EQ(test, fx->sbi.max_inodes, 10);
	/* Exactly the inodes in use is a full filesystem, not an error. */
	opts.max.inodes = 5;
	KUNIT_EXPECT_EQ(test, ipat_reconfigure(&fc), 0);
	KUNIT_EXPECT_EQ(test, fx->sbi.max_inodes, 5);
	opts.max.inodes = 1000;
	KUNIT_EXPECT_EQ(test, ipat_reconfigure(&fc), 0);
	KUNIT_EXPECT_EQ(test, fx->sbi.max_inodes, 1000);
	KUNIT_EXPECT_EQ(test, fx->sbi.used_inodes, 5);
	/* A limit not named is left alone, even a stale one below use. */
	opts.seen = 0;
	opts.max.inodes = 4;
	KUNIT_EXPECT_EQ(test, ipat_reconfigure(&fc), 0);
	KUNIT_EXPECT_EQ(test, fx->sbi.max_inodes, 1000);
}

/* max_xattr_bytes, alone and beside max_inodes: all or nothing. */
static void st_reconfigure_xattr_bytes(struct kunit *test)
{
	const unsigned int x = IPAT_LIMIT_XATTR_BYTES;
	const unsigned int both = x | IPAT_LIMIT_INODES;
	/* Each step: options given, result, both limits after it. */
	static const struct {
		unsigned int seen;
		unsigned long inodes, bytes;
		int err;
		unsigned long max_inodes, max_bytes;
	} steps[] = {
		{ x, 0, 499, -EINVAL, 10, 1000 },	/* below the 500 used */
		{ x, 0, 500, 0, 10, 500 },		/* exactly full */
		{ x, 7, 4000, 0, 10, 4000 },		/* inodes not named */
		{ both, 4, 8000, -EINVAL, 10, 4000 },	/* inodes below use */
		{ both, 20, 100, -EINVAL, 10, 4000 },	/* bytes below use */
		{ both, 20, 8000, 0, 20, 8000 },
	};
	struct st_fixture *fx = test->priv;
	struct ipat_options opts = {};
	struct fs_context fc = {
		.root = &fx->dentry,
		.fs_private = &opts,
	};
	size_t i;

	fx->sbi.max_inodes = 10;
	fx->sbi.used_inodes = 5;
	fx->sbi.max_xattr_bytes = 1000;
	fx->sbi.used_xattr_bytes = 500;
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		opts.seen = steps[i].seen;
		opts.max.inodes = steps[i].inodes;
		opts.max.xattr_bytes = steps[i].bytes;
		KUNIT_EXPECT_EQ_MSG(test, ipat_reconfigure(&fc), steps[i].err,
				    "step %zu", i);
		KUNIT_EXPECT_EQ_MSG(test, fx->sbi.max_inodes,
				    steps[i].max_inodes, "step %zu", i);
		KUNIT_EXPECT_EQ_MSG(test, fx->sbi.max_xattr_bytes,
				    steps[i].max_bytes, "step %zu", i);
	}
}

/* size=: refused below the pages in use; 0 (no limit) always fits. */
static void st_reconfigure_blocks(struct kunit *test)
{
	/* Each step: the size given in pages, result, the limit after it. */
	static const struct {
		unsigned long blocks;
		int err;
		unsigned long max_blocks;
	} steps[] = {
		{ 9, -EINVAL, 20 },	/* below the 10 used */
		{ 10, 0, 10 },		/* exactly full */
		{ 0, 0, 0 },		/* no limit */
		{ 5, -EINVAL, 0 },	/* pages are counted without one */
		{ 64, 0, 64 },		/* a limit again (tmpfs: EINVAL) */
	};
	struct st_fixture *fx = test->priv;
	struct ipat_options opts = { .seen = IPAT_LIMIT_BLOCKS };
	struct fs_context fc = {
		.root = &fx->dentry,
		.fs_private = &opts,
	};
	size_t i;

	fx->sbi.max_inodes = 10;
	fx->sbi.max_blocks = 20;
	fx->sbi.used_blocks = 10;
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		opts.max.blocks = steps[i].blocks;
		KUNIT_EXPECT_EQ_MSG(test, ipat_reconfigure(&fc), steps[i].err,
				    "step %zu", i);
		KUNIT_EXPECT_EQ_MSG(test, fx->sbi.max_blocks,
				    steps[i].max_blocks, "step %zu", i);
		KUNIT_EXPECT_EQ_MSG(test, fx->sbi.max_inodes, 10,
				    "step %zu", i);
	}
}

static void st_reserve(struct kunit *test)
{
	struct st_fixture *fx = test->priv;
	atomic_long_t *live = &fx->type.stats.inodes;

	fx->sbi.max_inodes = 3;
	KUNIT_EXPECT_TRUE(test, ipat_reserve_inode(&fx->sb));
	KUNIT_EXPECT_TRUE(test, ipat_reserve_inode(&fx->sb));
	KUNIT_EXPECT_TRUE(test, ipat_reserve_inode(&fx->sb));
	KUNIT_EXPECT_EQ(test, fx->sbi.used_inodes, 3);
	KUNIT_EXPECT_EQ(test, atomic_long_read(live), 3);
	/* At the limit: refused, and counted nowhere. */
	KUNIT_EXPECT_FALSE(test, ipat_reserve_inode(&fx->sb));
	KUNIT_EXPECT_EQ(test, fx->sbi.used_inodes, 3);
	KUNIT_EXPECT_EQ(test, atomic_long_read(live), 3);
	ipat_release_inode(&fx->sb);
	KUNIT_EXPECT_EQ(test, fx->sbi.used_inodes, 2);
	KUNIT_EXPECT_EQ(test, atomic_long_read(live), 2);
	KUNIT_EXPECT_TRUE(test, ipat_reserve_inode(&fx->sb));
	while (fx->sbi.used_inodes)
		ipat_release_inode(&fx->sb);
	KUNIT_EXPECT_EQ(test, atomic_long_read(live), 0);
}

/* The type's live count adds up over all its mounts. */
static void st_reserve_two_mounts(struct kunit *test)
{
	struct st_fixture *fx = test->priv;
	struct ipat_sb_info sbi2 = { .max_inodes = 1 };
	struct super_block *sb2;

	sb2 = kunit_kzalloc(test, sizeof(*sb2), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sb2);
	spin_lock_init(&sbi2.lock);
	sb2->s_type = &fx->type.fs_type;
	sb2->s_fs_info = &sbi2;
	fx->sbi.max_inodes = 1;
	KUNIT_EXPECT_TRUE(test, ipat_reserve_inode(&fx->sb));
	/* One full mount does not stop another. */
	KUNIT_EXPECT_TRUE(test, ipat_reserve_inode(sb2));
	KUNIT_EXPECT_FALSE(test, ipat_reserve_inode(sb2));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fx->type.stats.inodes), 2);
	ipat_release_inode(sb2);
	ipat_release_inode(&fx->sb);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fx->type.stats.inodes), 0);
}

static void st_statfs(struct kunit *test)
{
	struct st_fixture *fx = test->priv;
	struct kstatfs buf = {};

	fx->sbi.max_inodes = 100;
	fx->sbi.used_inodes = 7;
	KUNIT_EXPECT_EQ(test, ipat_statfs(&fx->dentry, &buf), 0);
	KUNIT_EXPECT_EQ(test, buf.f_type, fx->type.magic);
	KUNIT_EXPECT_EQ(test, buf.f_files, 100);
	KUNIT_EXPECT_EQ(test, buf.f_ffree, 93);
	KUNIT_EXPECT_EQ(test, buf.f_namelen, NAME_MAX);
	KUNIT_EXPECT_EQ(test, buf.f_bsize, PAGE_SIZE);
	/* Without a size limit, as tmpfs: no blocks to count. */
	fx->sbi.max_blocks = 0;
	fx->sbi.used_blocks = 30;
	memset(&buf, 0, sizeof(buf));
	KUNIT_EXPECT_EQ(test, ipat_statfs(&fx->dentry, &buf), 0);
	KUNIT_EXPECT_EQ(test, buf.f_blocks, 0);
	KUNIT_EXPECT_EQ(test, buf.f_bfree, 0);
	KUNIT_EXPECT_EQ(test, buf.f_bavail, 0);
	/* With one: the limit, and what is left under it. */
	fx->sbi.max_blocks = 256;
	KUNIT_EXPECT_EQ(test, ipat_statfs(&fx->dentry, &buf), 0);
	KUNIT_EXPECT_EQ(test, buf.f_blocks, 256);
	KUNIT_EXPECT_EQ(test, buf.f_bfree, 226);
	KUNIT_EXPECT_EQ(test, buf.f_bavail, 226);
	/* Pages charged by force past the limit: none free, no wrap. */
	fx->sbi.used_blocks = 300;
	memset(&buf, 0, sizeof(buf));
	KUNIT_EXPECT_EQ(test, ipat_statfs(&fx->dentry, &buf), 0);
	KUNIT_EXPECT_EQ(test, buf.f_bfree, 0);
	KUNIT_EXPECT_EQ(test, buf.f_bavail, 0);
}

/* f_fsid is the mount's UUID folded, as tmpfs reports it. */
static void st_statfs_fsid(struct kunit *test)
{
	struct st_fixture *fx = test->priv;
	struct kstatfs buf = {};
	u8 uuid[16];
	int i;

	for (i = 0; i < sizeof(uuid); i++)
		uuid[i] = i + 1;
	super_set_uuid(&fx->sb, uuid, sizeof(uuid));
	KUNIT_EXPECT_EQ(test, ipat_statfs(&fx->dentry, &buf), 0);
	KUNIT_EXPECT_EQ(test, buf.f_fsid.val[0], uuid_to_fsid(uuid).val[0]);
	KUNIT_EXPECT_EQ(test, buf.f_fsid.val[1], uuid_to_fsid(uuid).val[1]);
	KUNIT_EXPECT_NE(test, buf.f_fsid.val[0] | buf.f_fsid.val[1], 0);
}

/* show_options() into a buffer; returns what it wrote. */
static const char *st_show(struct kunit *test, char *buf, size_t size)
{
	struct st_fixture *fx = test->priv;
	struct seq_file m = { .buf = buf, .size = size };

	KUNIT_EXPECT_EQ(test, ipat_show_options(&m, &fx->dentry), 0);
	KUNIT_EXPECT_LT(test, m.count, size);
	buf[min(m.count, size - 1)] = '\0';
	return buf;
}

static void st_show_options(struct kunit *test)
{
	struct st_fixture *fx = test->priv;
	char buf[128], want[64];

	/* Defaults are left out; max_inodes is always shown. */
	fx->sbi.max_inodes = 12;
	KUNIT_EXPECT_STREQ(test, st_show(test, buf, sizeof(buf)),
			   ",max_inodes=12");
	fx->sbi.mode = 01777;
	fx->sbi.uid = KUIDT_INIT(1000);
	fx->sbi.gid = KGIDT_INIT(100);
	KUNIT_EXPECT_STREQ(test, st_show(test, buf, sizeof(buf)),
			   ",mode=1777,uid=1000,gid=100,max_inodes=12");
	/* What the mount was made with, whatever chmod did to the root. */
	fx->root.i_mode = S_IFDIR | 0700;
	KUNIT_EXPECT_STREQ(test, st_show(test, buf, sizeof(buf)),
			   ",mode=1777,uid=1000,gid=100,max_inodes=12");
	/* Always three digits, so mode=0 reads as a mode. */
	fx->sbi.mode = 0;
	fx->sbi.uid = GLOBAL_ROOT_UID;
	fx->sbi.gid = GLOBAL_ROOT_GID;
	KUNIT_EXPECT_STREQ(test, st_show(test, buf, sizeof(buf)),
			   ",mode=000,max_inodes=12");
	/* max_xattr_bytes only when it is not the default. */
	fx->sbi.max_xattr_bytes = 0;
	KUNIT_EXPECT_STREQ(test, st_show(test, buf, sizeof(buf)),
			   ",mode=000,max_inodes=12,max_xattr_bytes=0");
	/* size= in KiB, as tmpfs shows it, when it is not the default. */
	fx->sbi.max_blocks = 256;
	KUNIT_EXPECT_STREQ(test, st_show(test, buf, sizeof(buf)),
			   ",mode=000,size=1024k,max_inodes=12,max_xattr_bytes=0");
	fx->sbi.max_blocks = 0;
	KUNIT_EXPECT_STREQ(test, st_show(test, buf, sizeof(buf)),
			   ",mode=000,size=0k,max_inodes=12,max_xattr_bytes=0");
	fx->sbi.max_blocks = ipat_default_max_blocks();
	/* The default the mount was made with, not today's from RAM. */
	fx->sbi.default_xattr_bytes = 4096;
	fx->sbi.max_xattr_bytes = 4096;
	KUNIT_EXPECT_STREQ(test, st_show(test, buf, sizeof(buf)),
			   ",mode=000,max_inodes=12");
	fx->sbi.max_xattr_bytes = ipat_default_max_xattr_bytes();
	snprintf(want, sizeof(want), ",mode=000,max_inodes=12,max_xattr_bytes=%lu",
		 fx->sbi.max_xattr_bytes);
	KUNIT_EXPECT_STREQ(test, st_show(test, buf, sizeof(buf)), want);
}

/*
 * The mount's xattr bytes: refused past the limit unless forced, given
 * back exactly.
 */
static void st_charge_xattr(struct kunit *test)
{
	struct st_fixture *fx = test->priv;

	fx->sbi.max_xattr_bytes = 100;
	KUNIT_EXPECT_TRUE(test, ipat_charge_xattr(&fx->sb, 60));
	KUNIT_EXPECT_FALSE(test, ipat_charge_xattr(&fx->sb, 41));
	KUNIT_EXPECT_EQ(test, fx->sbi.used_xattr_bytes, 60);
	KUNIT_EXPECT_TRUE(test, ipat_charge_xattr(&fx->sb, 40));
	KUNIT_EXPECT_FALSE(test, ipat_charge_xattr(&fx->sb, 1));
	/* No wrap-around for a huge request. */
	ipat_uncharge_xattr(&fx->sb, 90);
	KUNIT_EXPECT_FALSE(test, ipat_charge_xattr(&fx->sb, SIZE_MAX - 5));
	KUNIT_EXPECT_EQ(test, fx->sbi.used_xattr_bytes, 10);
	ipat_uncharge_xattr(&fx->sb, 10);
	KUNIT_EXPECT_EQ(test, fx->sbi.used_xattr_bytes, 0);
	/* A forced label goes past the limit; then nothing more fits. */
	ipat_force_xattr(&fx->sb, 150);
	KUNIT_EXPECT_EQ(test, fx->sbi.used_xattr_bytes, 150);
	KUNIT_EXPECT_FALSE(test, ipat_charge_xattr(&fx->sb, 1));
	ipat_uncharge_xattr(&fx->sb, 150);
	KUNIT_EXPECT_EQ(test, fx->sbi.used_xattr_bytes, 0);
}

/*
 * Pages: charged to the mount and to the inode's i_blocks (512-byte units)
 * together, refused past the limit unless forced, given back exactly.
 */
static void st_charge_blocks(struct kunit *test)
{
	struct st_fixture *fx = test->priv;
	const blkcnt_t per_page = PAGE_SIZE / 512;
	struct inode *inode = &fx->root;

	fx->sbi.max_blocks = 3;
	KUNIT_EXPECT_TRUE(test, ipat_charge_blocks(inode, 2, false));
	KUNIT_EXPECT_EQ(test, inode->i_blocks, 2 * per_page);
	KUNIT_EXPECT_FALSE(test, ipat_charge_blocks(inode, 2, false));
	KUNIT_EXPECT_EQ(test, fx->sbi.used_blocks, 2);
	KUNIT_EXPECT_TRUE(test, ipat_charge_blocks(inode, 1, false));
	KUNIT_EXPECT_FALSE(test, ipat_charge_blocks(inode, 1, false));
	/* A page already in the cache is charged even past the limit. */
	KUNIT_EXPECT_TRUE(test, ipat_charge_blocks(inode, 1, true));
	KUNIT_EXPECT_EQ(test, fx->sbi.used_blocks, 4);
	KUNIT_EXPECT_EQ(test, inode->i_blocks, 4 * per_page);
	ipat_uncharge_blocks(inode, 4);
	KUNIT_EXPECT_EQ(test, fx->sbi.used_blocks, 0);
	KUNIT_EXPECT_EQ(test, inode->i_blocks, 0);
	/* No limit: counted all the same, so that one can be set later. */
	fx->sbi.max_blocks = 0;
	KUNIT_EXPECT_TRUE(test, ipat_charge_blocks(inode, 1000, false));
	KUNIT_EXPECT_EQ(test, fx->sbi.used_blocks, 1000);
	ipat_uncharge_blocks(inode, 1000);
	KUNIT_EXPECT_EQ(test, inode->i_blocks, 0);
}

static struct kunit_case st_option_cases[] = {
	KUNIT_CASE(st_defaults),
	KUNIT_CASE(st_mode),
	KUNIT_CASE(st_uid_gid),
	KUNIT_CASE(st_max_inodes),
	KUNIT_CASE(st_max_xattr_bytes),
	KUNIT_CASE(st_size),
	KUNIT_CASE(st_nr_blocks),
	KUNIT_CASE(st_unknown),
	KUNIT_CASE(st_reconfigure_defaults),
	KUNIT_CASE(st_reconfigure),
	KUNIT_CASE(st_reconfigure_xattr_bytes),
	KUNIT_CASE(st_reconfigure_blocks),
	KUNIT_CASE(st_show_options),
	{}
};

static struct kunit_suite st_option_suite = {
	.name = "inode_patterns_options",
	.init = st_init,
	.test_cases = st_option_cases,
};

static struct kunit_case st_accounting_cases[] = {
	KUNIT_CASE(st_reserve),
	KUNIT_CASE(st_reserve_two_mounts),
	KUNIT_CASE(st_statfs),
	KUNIT_CASE(st_statfs_fsid),
	KUNIT_CASE(st_charge_xattr),
	KUNIT_CASE(st_charge_blocks),
	{}
};

static struct kunit_suite st_accounting_suite = {
	.name = "inode_patterns_accounting",
	.init = st_init,
	.test_cases = st_accounting_cases,
};

kunit_test_suites(&st_option_suite, &st_accounting_suite);

MODULE_DESCRIPTION("KUnit tests of inode_patterns' own logic");
MODULE_LICENSE("GPL");
