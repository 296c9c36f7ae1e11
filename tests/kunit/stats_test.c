// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the statistics accounting: the ipat_count_*() counters of
 * ipat.h and what /proc/fs/inode_patterns/<fs type> derives from them
 * (src/stats.c, compiled into this file for its static show function).
 * The filesystem types are fakes, so the numbers are known exactly.
 */
#include <kunit/test.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "ipat.h"

/*
 * A writer racing the statistics file. While st_racing_type is set, every
 * counter read in src/stats.c is followed by one whole object lifetime on
 * that type, counted as the module counts it (ipat_count_alloc() before
 * ipat_count_free()): the worst a concurrent writer can do between two loads, made
 * deterministic. The headers stats.c needs are in above, so the #define
 * reaches only its own code.
 */
static struct ipat_fs_type *st_racing_type;

static long st_racing_read(const atomic_long_t *counter)
{
	long value = atomic_long_read(counter);
	struct ipat_fs_type *type = st_racing_type;

	if (type) {
		ipat_count_alloc(type, true);
		ipat_count_free(type, true);
	}
	return value;
}

#define atomic_long_read st_racing_read
#include "../../src/stats.c"
#undef atomic_long_read

#include "../../src/union_inode.c"

#define STATS_BUF_SIZE	2048

/* Runs the show function of the statistics file into a buffer. */
static char *st_stats(struct kunit *test, struct ipat_fs_type *type)
{
	struct seq_file m = {};

	m.size = STATS_BUF_SIZE;
	m.buf = kunit_kzalloc(test, m.size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, m.buf);
	m.private = type;
	KUNIT_EXPECT_EQ(test, ipat_stats_show(&m, NULL), 0);
	/* No overflow: the whole file fits, with room for a NUL. */
	KUNIT_ASSERT_LT(test, m.count, m.size);
	return m.buf;
}

/* Fails the test unless the file holds the whole line "key: value". */
static void st_expect_line(struct kunit *test, const char *text,
			   const char *key, long value)
{
	char line[64];
	const char *at;

	snprintf(line, sizeof(line), "%s: %ld\n", key, value);
	at = strstr(text, line);
	/* At the start of a line, not the end of a longer key. */
	while (at && at != text && at[-1] != '\n')
		at = strstr(at + 1, line);
	KUNIT_EXPECT_TRUE_MSG(test, at, "no line \"%s: %ld\" in:\n%s", key,
			      value, text);
}

static struct ipat_fs_type *st_new_type(struct kunit *test,
					size_t inode_size,
					size_t private_size)
{
	struct ipat_fs_type *type;

	type = kunit_kzalloc(test, sizeof(*type), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, type);
	type->fs_type.name = "stats_test";
	type->pattern = "test";
	type->inode_object = "test_cache";
	type->inode_object_size = inode_size;
	type->private_object_size = private_size;
	return type;
}

static void st_fresh(struct kunit *test)
{
	char *text = st_stats(test, st_new_type(test, 700, 0));

	KUNIT_EXPECT_NOT_NULL(test, strstr(text, "fs_type: stats_test\n"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, "pattern: test\n"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, "inode_object: test_cache\n"));
	st_expect_line(test, text, "vfs_inode_size", sizeof(struct inode));
	st_expect_line(test, text, "payload_size", sizeof(struct ipat_payload));
	st_expect_line(test, text, "inode_object_size", 700);
	st_expect_line(test, text, "private_object_size", 0);
	st_expect_line(test, text, "private_alloc_size", 0);
	st_expect_line(test, text, "inodes_live", 0);
	st_expect_line(test, text, "inode_objects_live", 0);
	st_expect_line(test, text, "bytes_in_use", 0);
	st_expect_line(test, text, "xattr_bytes", 0);
	/* Without a show_layout hook, no pattern's own lines. */
	KUNIT_EXPECT_NULL(test, strstr(text, "union_"));
}

/* One object per inode: bytes follow the live objects, not the inodes. */
static void st_one_object(struct kunit *test)
{
	struct ipat_fs_type *type = st_new_type(test, 700, 0);
	char *text;
	int i;

	for (i = 0; i < 5; i++)
		ipat_count_alloc(type, false);
	for (i = 0; i < 2; i++)
		ipat_count_free(type, false);
	/* Evicted but awaiting RCU: an object without an inode. */
	atomic_long_set(&type->stats.inodes, 2);
	text = st_stats(test, type);
	st_expect_line(test, text, "inodes_live", 2);
	st_expect_line(test, text, "inode_objects_live", 3);
	st_expect_line(test, text, "inode_objects_allocated", 5);
	st_expect_line(test, text, "inode_objects_freed", 2);
	st_expect_line(test, text, "private_objects_allocated", 0);
	st_expect_line(test, text, "bytes_in_use", 3 * 700);
}

/* A separate private object costs what kmalloc() rounds it up to. */
static void st_two_objects(struct kunit *test)
{
	struct ipat_fs_type *type = st_new_type(test, 600, 100);
	size_t rounded = kmalloc_size_roundup(100);
	char *text;
	int i;

	KUNIT_EXPECT_GE(test, rounded, 100);
	for (i = 0; i < 4; i++)
		ipat_count_alloc(type, true);
	ipat_count_free(type, true);
	text = st_stats(test, type);
	st_expect_line(test, text, "private_object_size", 100);
	st_expect_line(test, text, "private_alloc_size", rounded);
	st_expect_line(test, text, "private_objects_allocated", 4);
	st_expect_line(test, text, "private_objects_freed", 1);
	st_expect_line(test, text, "inode_objects_live", 3);
	st_expect_line(test, text, "bytes_in_use", 3 * (600 + rounded));
}

static void st_xattr_bytes(struct kunit *test)
{
	struct ipat_fs_type *type = st_new_type(test, 700, 0);

	atomic_long_add(1234, &type->stats.xattr_bytes);
	st_expect_line(test, st_stats(test, type), "xattr_bytes", 1234);
	/* xattr bytes are not part of bytes_in_use, which is inodes only. */
	st_expect_line(test, st_stats(test, type), "bytes_in_use", 0);
}

/*
 * The union's own lines: its size and its largest member's, each measured
 * on its own, which the benchmark sets against the object's size.
 */
static void st_union_layout(struct kunit *test)
{
	struct ipat_fs_type *type;
	char *text;

	type = st_new_type(test, sizeof(struct union_inode), 0);
	type->show_layout = union_inode_show_layout;
	text = st_stats(test, type);
	st_expect_line(test, text, "union_size",
		       sizeof_field(struct union_inode, u));
	st_expect_line(test, text, "union_largest_member_size",
		       sizeof(struct blockfs_inode_info));
}

/* The value of the line "key: value", which must be there. */
static long st_line_value(struct kunit *test, const char *text,
			  const char *key)
{
	size_t len = strlen(key);
	const char *at = text, *end;
	char number[24] = {};
	long value;

	while ((at = strstr(at, key))) {
		if ((at == text || at[-1] == '\n') && !strncmp(at + len, ": ", 2))
			break;
		at += len;
	}
	KUNIT_ASSERT_NOT_NULL_MSG(test, at, "no line \"%s\" in:\n%s", key,
				  text);
	at += len + 2;
	end = strchr(at, '\n');
	KUNIT_ASSERT_NOT_NULL(test, end);
	KUNIT_ASSERT_LT(test, end - at, (long)sizeof(number));
	memcpy(number, at, end - at);
	KUNIT_ASSERT_EQ(test, kstrtol(number, 10, &value), 0);
	return value;
}

/*
 * A reader racing writers never sees fewer objects live than there are:
 * frees are read before allocations. Read the other way round, a lifetime
 * that starts and ends between the two loads counts a free whose
 * allocation the reader missed, and an idle type shows -2 objects live.
 */
static void st_read_order(struct kunit *test)
{
	struct ipat_fs_type *type = st_new_type(test, 600, 100);
	long inodes_allocated, inodes_freed, privates_allocated, privates_freed;
	char *text;

	/* One object of each kind live before the race. */
	ipat_count_alloc(type, true);
	st_racing_type = type;
	text = st_stats(test, type);
	st_racing_type = NULL;

	inodes_allocated = st_line_value(test, text, "inode_objects_allocated");
	inodes_freed = st_line_value(test, text, "inode_objects_freed");
	privates_allocated = st_line_value(test, text,
					   "private_objects_allocated");
	privates_freed = st_line_value(test, text, "private_objects_freed");
	/* The writer ran: the race took place. */
	KUNIT_EXPECT_GT(test, atomic_long_read(&type->stats.inode_frees), 0);
	KUNIT_EXPECT_GE(test, inodes_allocated - inodes_freed, 1);
	KUNIT_EXPECT_GE(test, privates_allocated - privates_freed, 1);
	KUNIT_EXPECT_GE(test, st_line_value(test, text, "inode_objects_live"), 1);
	KUNIT_EXPECT_GE(test, st_line_value(test, text, "bytes_in_use"),
			(long)(600 + kmalloc_size_roundup(100)));
}

/* The counters are per type: one type's traffic shows in no other. */
static void st_per_type(struct kunit *test)
{
	struct ipat_fs_type *a = st_new_type(test, 700, 0);
	struct ipat_fs_type *b = st_new_type(test, 700, 0);

	ipat_count_alloc(a, false);
	st_expect_line(test, st_stats(test, a), "inode_objects_live", 1);
	st_expect_line(test, st_stats(test, b), "inode_objects_live", 0);
}

static struct kunit_case st_cases[] = {
	KUNIT_CASE(st_fresh),
	KUNIT_CASE(st_one_object),
	KUNIT_CASE(st_two_objects),
	KUNIT_CASE(st_xattr_bytes),
	KUNIT_CASE(st_union_layout),
	KUNIT_CASE(st_per_type),
	KUNIT_CASE(st_read_order),
	{}
};

/* No racing writer unless a case asks for one, even after a failed one. */
static int st_init(struct kunit *test)
{
	st_racing_type = NULL;
	return 0;
}

static struct kunit_suite st_suite = {
	.name = "inode_patterns_stats",
	.init = st_init,
	.test_cases = st_cases,
};

kunit_test_suite(st_suite);
