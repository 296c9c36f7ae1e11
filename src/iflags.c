// SPDX-License-Identifier: GPL-2.0
/*
 * Inode flags, as chattr and lsattr see them (FS_IOC_SETFLAGS and
 * FS_IOC_GETFLAGS, through ->fileattr_set and ->fileattr_get): the four
 * tmpfs supports, immutable, append-only, nodump and noatime. The VFS
 * enforces the first three's rules through i_flags (S_IMMUTABLE, S_APPEND,
 * S_NOATIME), which is also where they are kept: only nodump, which asks
 * nothing of the kernel, needs a bit of its own, in the payload. A new
 * inode inherits nodump and noatime from its directory, as on tmpfs, and
 * statx() reports the three it has attributes for.
 */
#include <linux/fs.h>
/* After fs.h, which it needs and does not include. */
#include <linux/fileattr.h>

#include "ipat.h"

/*
 * What FS_IOC_SETFLAGS may change: tmpfs's SHMEM_FL_USER_MODIFIABLE but
 * for 7.x's casefold, which needs a mount with an encoding (tmpfs's
 * casefold= option), which ours do not have: refused as tmpfs refuses it
 * on such a mount, with EOPNOTSUPP, as every other flag.
 */
#define IPAT_FL_USER_MODIFIABLE \
	(FS_IMMUTABLE_FL | FS_APPEND_FL | FS_NODUMP_FL | FS_NOATIME_FL)
/* What a new inode takes from its directory (SHMEM_FL_INHERITED). */
#define IPAT_FL_INHERITED	(FS_NODUMP_FL | FS_NOATIME_FL)

/* The inode's FS_*_FL flags, from i_flags and the payload's one bit. */
static u32 ipat_iflags(struct inode *inode)
{
	unsigned int i_flags = READ_ONCE(inode->i_flags);
	u32 flags = READ_ONCE(ipat_payload(inode)->xattrs.fsflags);

	if (i_flags & S_IMMUTABLE)
		flags |= FS_IMMUTABLE_FL;
	if (i_flags & S_APPEND)
		flags |= FS_APPEND_FL;
	if (i_flags & S_NOATIME)
		flags |= FS_NOATIME_FL;
	return flags;
}

/* Sets @flags, which IPAT_FL_USER_MODIFIABLE holds, as shmem_set_inode_flags() */
static void ipat_set_iflags(struct inode *inode, u32 flags)
{
	unsigned int i_flags = 0;

	if (flags & FS_IMMUTABLE_FL)
		i_flags |= S_IMMUTABLE;
	if (flags & FS_APPEND_FL)
		i_flags |= S_APPEND;
	if (flags & FS_NOATIME_FL)
		i_flags |= S_NOATIME;
	WRITE_ONCE(ipat_payload(inode)->xattrs.fsflags, flags & FS_NODUMP_FL);
	inode_set_flags(inode, i_flags, S_IMMUTABLE | S_APPEND | S_NOATIME);
}

int ipat_fileattr_get(struct dentry *dentry, struct file_kattr *fa)
{
	fileattr_fill_flags(fa, ipat_iflags(d_inode(dentry)));
	return 0;
}

/*
 * The VFS holds i_rwsem, has checked ownership and CAP_LINUX_IMMUTABLE for
 * immutable and append-only, and filled in the flags not asked about. As
 * tmpfs: none of the extended (FS_IOC_FSSETXATTR) attributes, no flag
 * beyond the four, and ctime is updated.
 */
int ipat_fileattr_set(struct mnt_idmap *idmap, struct dentry *dentry,
		      struct file_kattr *fa)
{
	struct inode *inode = d_inode(dentry);

	if (fileattr_has_fsx(fa))
		return -EOPNOTSUPP;
	if (fa->flags & ~IPAT_FL_USER_MODIFIABLE)
		return -EOPNOTSUPP;
	ipat_set_iflags(inode, fa->flags);
	inode_set_ctime_current(inode);
	return 0;
}

/**
 * ipat_iflags_stat - the flags statx() reports, as shmem_getattr() does
 * @inode: the inode stat'ed
 * @stat: its attributes, being filled in
 *
 * Of the four, statx has attributes for three; noatime has none.
 */
void ipat_iflags_stat(struct inode *inode, struct kstat *stat)
{
	u32 flags = ipat_iflags(inode);

	if (flags & FS_APPEND_FL)
		stat->attributes |= STATX_ATTR_APPEND;
	if (flags & FS_IMMUTABLE_FL)
		stat->attributes |= STATX_ATTR_IMMUTABLE;
	if (flags & FS_NODUMP_FL)
		stat->attributes |= STATX_ATTR_NODUMP;
	stat->attributes_mask |= STATX_ATTR_APPEND | STATX_ATTR_IMMUTABLE |
				 STATX_ATTR_NODUMP;
}

/**
 * ipat_iflags_inherit - a new inode's flags, from its directory's
 * @inode: the new inode, not yet visible
 * @dir: the directory it is created in
 */
void ipat_iflags_inherit(struct inode *inode, struct inode *dir)
{
	u32 flags = ipat_iflags(dir) & IPAT_FL_INHERITED;

	if (flags)
		ipat_set_iflags(inode, flags);
}
