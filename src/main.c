// SPDX-License-Identifier: GPL-2.0
/*
 * inode-patterns: three in-memory filesystems that behave identically and
 * differ only in how each extends struct inode with private data.
 *
 *   unionfs_demo  private data in a union of a common inode object (2.4)
 *   embedfs_demo  struct inode embedded in the private struct (2.5 onwards)
 *   voidfs_demo   private struct linked through inode->i_private
 */
#include <linux/init.h>
#include <linux/module.h>
#include <linux/rcupdate.h>

#include "ipat.h"
#include "inode_union.h"

static struct ipat_fs_type *const ipat_fs_types[] = {
	&unionfs_type,
	&embedfs_type,
	&voidfs_type,
};

/* Undo the set-up of the first @count types, in reverse order. */
static void ipat_teardown(unsigned int count)
{
	unsigned int i;

	for (i = count; i-- > 0; )
		unregister_filesystem(&ipat_fs_types[i]->fs_type);
	/* Let every pending ->free_inode run before its cache goes. */
	rcu_barrier();
	for (i = count; i-- > 0; )
		if (ipat_fs_types[i]->exit)
			ipat_fs_types[i]->exit();
	union_inode_cache_exit();
	ipat_stats_exit();
}

static int ipat_setup(struct ipat_fs_type *type)
{
	int err;

	if (type->init) {
		err = type->init();
		if (err)
			return err;
	}
	err = ipat_stats_add(type);
	if (!err)
		err = register_filesystem(&type->fs_type);
	if (err && type->exit)
		type->exit();
	return err;
}

static int __init ipat_init(void)
{
	unsigned int i;
	int err;

	err = ipat_stats_init();
	if (err)
		return err;
	err = union_inode_cache_init();
	if (err) {
		ipat_stats_exit();
		return err;
	}
	for (i = 0; i < ARRAY_SIZE(ipat_fs_types); i++) {
		err = ipat_setup(ipat_fs_types[i]);
		if (err) {
			ipat_teardown(i);
			return err;
		}
	}
	return 0;
}

static void __exit ipat_exit(void)
{
	ipat_teardown(ARRAY_SIZE(ipat_fs_types));
}

module_init(ipat_init);
module_exit(ipat_exit);

MODULE_DESCRIPTION("Three filesystems extending struct inode three ways");
MODULE_LICENSE("GPL");
