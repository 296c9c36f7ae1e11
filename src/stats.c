// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/fs/inode_patterns/<fs type>: what each pattern costs, read off live
 * counters, so that tests and the benchmark can see allocations per inode
 * and bytes per inode from userspace.
 */
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "ipat.h"

static struct proc_dir_entry *ipat_proc_dir;

static int ipat_stats_show(struct seq_file *m, void *v)
{
	struct ipat_fs_type *type = m->private;
	struct ipat_stats *stats = &type->stats;
	long inode_allocs, inode_frees, private_allocs, private_frees;
	size_t private_alloc_size = 0;

	/*
	 * Frees first: an object is counted allocated before it can be
	 * counted freed, so allocations read after its free include it and
	 * a live count never goes below zero while inodes come and go.
	 */
	inode_frees = atomic_long_read(&stats->inode_frees);
	private_frees = atomic_long_read(&stats->private_frees);
	/*
	 * Keeps the reads above before those below; the writers' order
	 * comes from the RCU grace period between allocation and free.
	 */
	smp_rmb();
	inode_allocs = atomic_long_read(&stats->inode_allocs);
	private_allocs = atomic_long_read(&stats->private_allocs);

	/* kmalloc() rounds a request up to its size class. */
	if (type->private_object_size)
		private_alloc_size = kmalloc_size_roundup(type->private_object_size);

	seq_printf(m, "fs_type: %s\n", type->fs_type.name);
	seq_printf(m, "pattern: %s\n", type->pattern);
	seq_printf(m, "vfs_inode_size: %zu\n", sizeof(struct inode));
	seq_printf(m, "payload_size: %zu\n", sizeof(struct ipat_payload));
	seq_printf(m, "inode_object: %s\n", type->inode_object);
	seq_printf(m, "inode_object_size: %zu\n", type->inode_object_size);
	seq_printf(m, "private_object_size: %zu\n", type->private_object_size);
	seq_printf(m, "private_alloc_size: %zu\n", private_alloc_size);
	if (type->show_layout)
		type->show_layout(m);
	seq_printf(m, "inodes_live: %ld\n", atomic_long_read(&stats->inodes));
	seq_printf(m, "inode_objects_live: %ld\n", inode_allocs - inode_frees);
	seq_printf(m, "inode_objects_allocated: %ld\n", inode_allocs);
	seq_printf(m, "inode_objects_freed: %ld\n", inode_frees);
	seq_printf(m, "private_objects_allocated: %ld\n", private_allocs);
	seq_printf(m, "private_objects_freed: %ld\n", private_frees);
	seq_printf(m, "bytes_in_use: %ld\n",
		   (inode_allocs - inode_frees) * (long)type->inode_object_size +
		   (private_allocs - private_frees) * (long)private_alloc_size);
	seq_printf(m, "xattr_bytes: %ld\n",
		   atomic_long_read(&stats->xattr_bytes));
	return 0;
}

int ipat_stats_init(void)
{
	ipat_proc_dir = proc_mkdir("fs/inode_patterns", NULL);
	return ipat_proc_dir ? 0 : -ENOMEM;
}

/*
 * Root only, like /proc/slabinfo (0400 since 2.6.37): live allocation
 * counts of a slab cache tell an attacker when a freed object's memory is
 * about to be reused, which is what heap exploits time themselves by.
 */
int ipat_stats_add(struct ipat_fs_type *type)
{
	if (!proc_create_single_data(type->fs_type.name, 0400, ipat_proc_dir,
				     ipat_stats_show, type))
		return -ENOMEM;
	return 0;
}

void ipat_stats_exit(void)
{
	proc_remove(ipat_proc_dir);
}
