// SPDX-License-Identifier: GPL-2.0
/*
 * Inode flags, as chattr and lsattr see them (FS_IOC_SETFLAGS and
 * FS_IOC_GETFLAGS, through ->fileattr_set and ->fileattr_get): the five
 * tmpfs supports, immutable, append-only, nodump, noatime and (on a mount
 * with an encoding, casefold.c) casefold. The VFS enforces the others'
 * rules through i_flags (S_IMMUTABLE, S_APPEND, S_NOATIME, S_CASEFOLD),
 * which is also where they are kept: only nodump, which asks nothing of
 * the kernel, needs a bit of its own, in the payload. A new inode inherits
 * nodump, noatime and casefold from its directory, as on tmpfs, and
 * statx() reports the three it has attributes for (ipat_iflags_stat(), in
 * ipat.h).
 */
#include <linux/fs.h>
/* After fs.h, which it needs and does not include. */
#include <linux/fileattr.h>

#include "ipat.h"

/* What FS_IOC_SETFLAGS may change: tmpfs's SHMEM_FL_USER_MODIFIABLE. */
#define IPAT_FL_USER_MODIFIABLE \
	(FS_IMMUTABLE_FL | FS_APPEND_FL | FS_NODUMP_FL | FS_NOATIME_FL | \
	 FS_CASEFOLD_FL)
/* What a new inode takes from its directory (SHMEM_FL_INHERITED). */
#define IPAT_FL_INHERITED	(FS_NODUMP_FL | FS_NOATIME_FL | FS_CASEFOLD_FL)

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
	if (i_flags & S_CASEFOLD)
		flags |= FS_CASEFOLD_FL;
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
	if (flags & FS_CASEFOLD_FL)
		i_flags |= S_CASEFOLD;
	WRITE_ONCE(ipat_payload(inode)->xattrs.fsflags, flags & FS_NODUMP_FL);
	inode_set_flags(inode, i_flags,
			S_IMMUTABLE | S_APPEND | S_NOATIME | S_CASEFOLD);
}

int ipat_fileattr_get(struct dentry *dentry, struct file_kattr *fa)
{
	fileattr_fill_flags(fa, ipat_iflags(d_inode(dentry)));
	return 0;
}

/*
 * Casefold changes how a directory's names match, so, as on tmpfs, it is
 * set only on an empty directory of a mount with an encoding, and cleared
 * only from an empty one.
 */
static int ipat_casefold_change(struct dentry *dentry, u32 flags)
{
	struct inode *inode = d_inode(dentry);
	bool set = flags & FS_CASEFOLD_FL;

	if (set == IS_CASEFOLDED(inode))
		return 0;
	if (set && !ipat_has_encoding(inode->i_sb))
		return -EOPNOTSUPP;
	if (set && !S_ISDIR(inode->i_mode))
		return -ENOTDIR;
	return simple_empty(dentry) ? 0 : -ENOTEMPTY;
}

/*
 * The VFS holds i_rwsem, has checked ownership and CAP_LINUX_IMMUTABLE for
 * immutable and append-only, and filled in the flags not asked about. As
 * tmpfs: none of the extended (FS_IOC_FSSETXATTR) attributes, no flag
 * beyond the five, and ctime is updated.
 */
int ipat_fileattr_set(struct mnt_idmap *idmap, struct dentry *dentry,
		      struct file_kattr *fa)
{
	struct inode *inode = d_inode(dentry);
	int err;

	if (fileattr_has_fsx(fa))
		return -EOPNOTSUPP;
	if (fa->flags & ~IPAT_FL_USER_MODIFIABLE)
		return -EOPNOTSUPP;
	err = ipat_casefold_change(dentry, fa->flags);
	if (err)
		return err;
	ipat_set_iflags(inode, fa->flags);
	inode_set_ctime_current(inode);
	return 0;
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
