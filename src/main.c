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

/* Unregister the first @count types, in reverse order. */
static void ipat_unregister(unsigned int count)
{
	unsigned int i;

	for (i = count; i-- > 0; )
		unregister_filesystem(&ipat_fs_types[i]->fs_type);
}

/* Undo the set-up of the first @count types, once none is registered. */
static void ipat_teardown(unsigned int count)
{
	unsigned int i;

	/*
	 * No superblock is left, but the ->free_inode calls of the last
	 * inodes may still wait for their RCU grace period: they run module
	 * code and free into the caches destroyed below. One wait covers the
	 * three types.
	 */
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
	if (err && type->exit)
		type->exit();
	return err;
}

/*
 * A registered type can be mounted at once, from another task: so every
 * type is set up before the first is registered, and on the way out all
 * are unregistered before anything is torn down.
 */
static int __init ipat_init(void)
{
	unsigned int set, registered;
	int err;

	err = ipat_stats_init();
	if (err)
		return err;
	err = union_inode_cache_init();
	if (err) {
		ipat_stats_exit();
		return err;
	}
	for (set = 0; set < ARRAY_SIZE(ipat_fs_types); set++) {
		err = ipat_setup(ipat_fs_types[set]);
		if (err)
			goto out_teardown;
	}
	for (registered = 0; registered < ARRAY_SIZE(ipat_fs_types);
	     registered++) {
		err = register_filesystem(&ipat_fs_types[registered]->fs_type);
		if (err)
			goto out_unregister;
	}
	return 0;

out_unregister:
	ipat_unregister(registered);
out_teardown:
	ipat_teardown(set);
	return err;
}

static void __exit ipat_exit(void)
{
	ipat_unregister(ARRAY_SIZE(ipat_fs_types));
	ipat_teardown(ARRAY_SIZE(ipat_fs_types));
}

module_init(ipat_init);
module_exit(ipat_exit);

MODULE_DESCRIPTION("Three filesystems extending struct inode three ways");
MODULE_LICENSE("GPL");
