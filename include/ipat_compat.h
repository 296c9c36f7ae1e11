/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place where kernel versions differ.
 *
 * src/ is written against today's VFS API, that of Linux 6.12. Each block
 * below maps one upstream change back to Linux 6.1, the oldest kernel
 * Debian 12 ships, and names the change it covers. To support an older
 * kernel, add a block here; to drop one, delete its block. No file in src/
 * tests a kernel version.
 */
#ifndef _IPAT_COMPAT_H
#define _IPAT_COMPAT_H

#include <linux/fs.h>
#include <linux/version.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 3, 0)
/*
 * 6.3, "fs: port ->create() to pass mnt_idmap" and the rest of that series:
 * inode operations, inode_init_owner(), generic_fillattr(), simple_setattr()
 * and the xattr ->set() handler take the mount's idmapping as a struct
 * mnt_idmap, where 6.1 takes a struct user_namespace in the same argument.
 * Both play the same part, so the type is renamed, and the identity mapping
 * is 6.1's initial user namespace.
 */
#define mnt_idmap user_namespace
#define nop_mnt_idmap init_user_ns

/*
 * 6.3, "shmem: support idmapped mounts for tmpfs": before it, tmpfs refuses
 * idmapped mounts. The three refuse them where tmpfs does, so that they can
 * always be compared with it.
 */
#undef FS_ALLOW_IDMAP
#define FS_ALLOW_IDMAP 0
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 5, 0)
/* 6.5, "splice: Remove generic_file_splice_read()": renamed, same job. */
#define filemap_splice_read generic_file_splice_read
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 6, 0)
/*
 * 6.6, "fs: pass the request_mask to generic_fillattr": 6.1's fills every
 * field whatever was asked. (6.6's ctime accessors, inode_get_ctime() and
 * inode_set_ctime_current(), were backported to 6.1.y and need nothing.)
 */
#define generic_fillattr(idmap, request_mask, inode, stat) \
	generic_fillattr(idmap, inode, stat)
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 7, 0)
/*
 * 6.7, "fs: new accessor methods for atime and mtime": i_atime and i_mtime
 * are reached through accessors, as i_ctime already was.
 */
static inline struct timespec64 inode_get_mtime(const struct inode *inode)
{
	return inode->i_mtime;
}

static inline struct timespec64 inode_set_mtime_to_ts(struct inode *inode,
						      struct timespec64 ts)
{
	inode->i_mtime = ts;
	return ts;
}

static inline struct timespec64 inode_set_atime_to_ts(struct inode *inode,
						      struct timespec64 ts)
{
	inode->i_atime = ts;
	return ts;
}
#endif

#endif /* _IPAT_COMPAT_H */
