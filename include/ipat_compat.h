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
#include <linux/minmax.h>
#include <linux/string.h>
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
#define IPAT_FS_ALLOW_IDMAP 0
#else
#define IPAT_FS_ALLOW_IDMAP FS_ALLOW_IDMAP
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

/*
 * 6.7, "xattr: make the xattr array itself const": before it, s_xattr
 * points to an array of handler pointers that are not themselves const.
 * The VFS never writes them: the cast drops only a qualifier.
 */
#define ipat_set_xattr_handlers(sb, handlers) \
	((sb)->s_xattr = (const struct xattr_handler **)(handlers))
#else
#define ipat_set_xattr_handlers(sb, handlers) ((sb)->s_xattr = (handlers))
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 9, 0)
/*
 * 6.9 added super_set_uuid(), which also records the UUID's length for the
 * FS_IOC_GETFSUUID ioctl that came with it. Before it, filesystems (tmpfs
 * among them) wrote s_uuid directly.
 */
static inline void super_set_uuid(struct super_block *sb, const u8 *uuid,
				  unsigned int len)
{
	memcpy(&sb->s_uuid, uuid, min_t(unsigned int, len, sizeof(sb->s_uuid)));
}
#endif

#endif /* _IPAT_COMPAT_H */
