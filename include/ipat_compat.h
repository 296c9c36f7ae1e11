/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place where kernel versions differ.
 *
 * src/ is written against the newest VFS API, that of Linux 7.3. Each block
 * below maps one upstream change back to the kernels before it, down to
 * Linux 6.1, the oldest kernel Debian ships, and names the change it
 * covers. To support an older kernel, add a block here; to drop one,
 * delete its block. No file in src/ tests a kernel version.
 */
#ifndef _IPAT_COMPAT_H
#define _IPAT_COMPAT_H

#include <linux/fs.h>
#include <linux/dcache.h>
#include <linux/err.h>
#include <linux/fs_context.h>
#include <linux/minmax.h>
#include <linux/pagemap.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/version.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
/*
 * 6.2, "fs: pass dentry to set acl method": ->set_acl and posix_acl_chmod()
 * take the dentry where 6.1's take the inode. IPAT_SET_ACL(fn, inode_fn)
 * is what the operations tables take: before 6.2, inode_fn, which has
 * 6.1's signature; from 6.2, fn, which takes the dentry.
 */
#include <linux/posix_acl.h>
#define IPAT_SET_ACL(fn, inode_fn) inode_fn
#define posix_acl_chmod(idmap, dentry, mode) \
	posix_acl_chmod(idmap, d_inode(dentry), mode)

/*
 * 6.2, "xattr: use posix acl api": getxattr() and setxattr() of
 * system.posix_acl_access and system.posix_acl_default go to the ACL
 * operations in the VFS. Before it, through the filesystem's xattr
 * handlers, which must list the two the VFS provides, as tmpfs's do.
 */
#include <linux/posix_acl_xattr.h>
#define IPAT_ACL_XATTR_HANDLERS \
	&posix_acl_access_xattr_handler, &posix_acl_default_xattr_handler,
#else
#define IPAT_SET_ACL(fn, inode_fn) fn
#define IPAT_ACL_XATTR_HANDLERS
#endif

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

/*
 * 6.3, "filelock: move file locking definitions to separate header file":
 * generic_setlease() is declared in <linux/filelock.h>, which <linux/fs.h>
 * does not include. Before 6.3, <linux/fs.h> declares it.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
#include <linux/filelock.h>
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 3, 0)
/*
 * 6.3, "mm: return an ERR_PTR from __filemap_get_folio": a folio that is
 * not in the page cache is ERR_PTR(-ENOENT); before it, NULL.
 */
static inline struct folio *ipat_compat_get_folio(struct address_space *mapping,
						  pgoff_t index, int fgp_flags)
{
	struct folio *folio = __filemap_get_folio(mapping, index, fgp_flags, 0);

	return folio ?: ERR_PTR(-ENOENT);
}

#define filemap_get_folio(mapping, index) \
	ipat_compat_get_folio(mapping, index, 0)
#define filemap_lock_folio(mapping, index) \
	ipat_compat_get_folio(mapping, index, FGP_LOCK)
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 5, 0)
/*
 * 6.5, "splice: Remove generic_file_splice_read()" and the series that
 * added copy_splice_read(): a file whose ->read_iter fills the pipe's
 * pages itself splices through copy_splice_read(). Before it,
 * generic_file_splice_read() did the same job through ->read_iter.
 */
#define copy_splice_read generic_file_splice_read
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

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 6, 0)
/*
 * 6.6, "tmpfs: trivial support for direct IO": tmpfs takes O_DIRECT from
 * then on, and refuses it before; ours too (IPAT_FMODE_CAN_ODIRECT is what
 * ->open adds to f_mode).
 */
#define IPAT_FMODE_CAN_ODIRECT 0
#else
#define IPAT_FMODE_CAN_ODIRECT FMODE_CAN_ODIRECT
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

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0)
/*
 * 6.12, "fs: Convert aops->write_begin to take a folio" and "fs: Convert
 * aops->write_end to take a folio": before it, they hand over the folio's
 * first page. (For the struct file they take, see 6.17 below.)
 */
#define IPAT_WRITE_BEGIN_COMPAT(fn)					\
static int fn##_compat(struct file *file, struct address_space *mapping,	\
		       loff_t pos, unsigned int len, struct page **pagep,	\
		       void **fsdata)						\
{									\
	struct folio *folio;						\
	int err = fn(NULL, mapping, pos, len, &folio, fsdata);		\
									\
	if (!err)							\
		*pagep = &folio->page;					\
	return err;							\
}

#define IPAT_WRITE_END_COMPAT(fn)					\
static int fn##_compat(struct file *file, struct address_space *mapping,	\
		       loff_t pos, unsigned int len, unsigned int copied,	\
		       struct page *page, void *fsdata)			\
{									\
	return fn(NULL, mapping, pos, len, copied, page_folio(page),	\
		  fsdata);						\
}
#endif

/*
 * 6.13, "tmpfs: Add casefold lookup support", with "unicode: Export latest
 * available UTF-8 version number" and "libfs: Create the helper function
 * generic_ci_validate_strict_name()": tmpfs takes casefold[=utf8-X.Y.Z]
 * and strict_encoding, and chattr +F, from 6.13 on. Before it tmpfs knows
 * neither option, and ours refuse them as it does: IPAT_CASEFOLD is 0, and
 * every name passes.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0) && IS_ENABLED(CONFIG_UNICODE)
#define IPAT_CASEFOLD 1
#else
#define IPAT_CASEFOLD 0
#endif
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0)
static inline bool generic_ci_validate_strict_name(struct inode *dir,
						   const struct qstr *name)
{
	return true;
}
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 15, 0)
/*
 * 6.15, "Change inode_operations.mkdir to return struct dentry *": ->mkdir
 * may hand back another dentry than the one it was given, NULL for that
 * one, or an ERR_PTR(). Before it, ->mkdir returned 0 or an errno.
 * IPAT_MKDIR(fn) is what the operations table takes: before 6.15, a
 * wrapper with the old signature (IPAT_MKDIR_COMPAT(fn) defines it).
 */
#define IPAT_MKDIR_COMPAT(fn)						\
static int fn##_compat(struct mnt_idmap *idmap, struct inode *dir,	\
		       struct dentry *dentry, umode_t mode)		\
{									\
	return PTR_ERR_OR_ZERO(fn(idmap, dir, dentry, mode));		\
}

#define IPAT_MKDIR(fn) fn##_compat
#else
#define IPAT_MKDIR_COMPAT(fn)
#define IPAT_MKDIR(fn) fn
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 16, 0)
/*
 * 6.16, "mm: introduce new .mmap_prepare() file callback": a filesystem
 * describes the mapping about to be made (struct vm_area_desc) instead of
 * changing the vma once it is made (->mmap). Before it, the ->mmap that
 * IPAT_MMAP_PREPARE_COMPAT(fn) defines hands fn a description of the two
 * fields ours reads and sets, and copies vm_ops into the vma.
 * IPAT_MMAP_PREPARE(fn) is the file_operations entry, either way.
 */
struct vm_area_desc {
	struct file *file;
	const struct vm_operations_struct *vm_ops;
};

#define IPAT_MMAP_PREPARE_COMPAT(fn)					\
static int fn##_compat(struct file *file, struct vm_area_struct *vma)	\
{									\
	struct vm_area_desc desc = { .file = file, .vm_ops = vma->vm_ops }; \
	int err = fn(&desc);						\
									\
	if (!err)							\
		vma->vm_ops = desc.vm_ops;				\
	return err;							\
}

#define IPAT_MMAP_PREPARE(fn) .mmap = fn##_compat
#else
#define IPAT_MMAP_PREPARE_COMPAT(fn)
#define IPAT_MMAP_PREPARE(fn) .mmap_prepare = fn
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 17, 0)
/*
 * 6.17, "fs: change write_begin/write_end interface to take struct kiocb
 * *": ->write_begin and ->write_end take the kiocb (NULL for a write from
 * inside the kernel) where they took the struct file. Ours use neither.
 * IPAT_WRITE_BEGIN(fn) and IPAT_WRITE_END(fn) are what the operations take:
 * before 6.17, a wrapper with the old signature, which *_COMPAT(fn)
 * defines (on 6.1 that of the 6.12 block above).
 */
#ifndef IPAT_WRITE_BEGIN_COMPAT
#define IPAT_WRITE_BEGIN_COMPAT(fn)					\
static int fn##_compat(struct file *file, struct address_space *mapping,	\
		       loff_t pos, unsigned int len, struct folio **foliop,	\
		       void **fsdata)						\
{									\
	return fn(NULL, mapping, pos, len, foliop, fsdata);		\
}

#define IPAT_WRITE_END_COMPAT(fn)					\
static int fn##_compat(struct file *file, struct address_space *mapping,	\
		       loff_t pos, unsigned int len, unsigned int copied,	\
		       struct folio *folio, void *fsdata)			\
{									\
	return fn(NULL, mapping, pos, len, copied, folio, fsdata);	\
}
#endif
#define IPAT_WRITE_BEGIN(fn) fn##_compat
#define IPAT_WRITE_END(fn) fn##_compat
#else
#define IPAT_WRITE_BEGIN_COMPAT(fn)
#define IPAT_WRITE_END_COMPAT(fn)
#define IPAT_WRITE_BEGIN(fn) fn
#define IPAT_WRITE_END(fn) fn
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 17, 0)
/*
 * 6.17, "tree-wide: s/struct fileattr/struct file_kattr/g": what
 * ->fileattr_get and ->fileattr_set fill and read (FS_IOC_GETFLAGS,
 * FS_IOC_SETFLAGS) was struct fileattr. Same members.
 */
#define file_kattr fileattr
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 17, 0)
/*
 * 6.17, "new helper: set_default_d_op()": the dentry operations every new
 * dentry of a superblock takes were set in sb->s_d_op directly.
 */
#define set_default_d_op(sb, ops) ((sb)->s_d_op = (ops))
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 18, 0)
/*
 * 6.18, "fs: rename generic_delete_inode() and generic_drop_inode()": the
 * ->drop_inode that always evicts is now inode_just_drop(). Same job.
 */
#define inode_just_drop generic_delete_inode
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 18, 0)
/*
 * 6.18, "change the calling conventions for vfs_parse_fs_string()": it no
 * longer takes the value's length, which callers gave as its strlen() (0
 * without a value). The KUnit tests mount through it.
 */
static inline int ipat_compat_parse_fs_string(struct fs_context *fc,
					      const char *key,
					      const char *value)
{
	return vfs_parse_fs_string(fc, key, value, value ? strlen(value) : 0);
}

#define vfs_parse_fs_string ipat_compat_parse_fs_string
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 19, 0)
/*
 * 6.19, "primitives for maintaining persisitency" and "get rid of
 * kill_litter_super()": a filesystem whose names live only in the dcache
 * marks their dentries DCACHE_PERSISTENT with d_make_persistent(), which
 * instantiates, pins and hashes; simple_unlink(), simple_rmdir() and
 * simple_rename() unpin them (d_make_discardable()), and kill_anon_super()
 * drops the ones still pinned at umount. Before it, such a filesystem pinned
 * them with d_instantiate() and an extra dget(), the simple_*() helpers
 * dropped that reference with dput(), and kill_litter_super() dropped the
 * rest at umount: mixing the two schemes warns on every unlink and leaves
 * busy inodes at umount.
 */
static inline struct dentry *d_make_persistent(struct dentry *dentry,
					       struct inode *inode)
{
	d_instantiate(dentry, inode);
	dget(dentry);
	if (d_unhashed(dentry))
		d_rehash(dentry);
	return dentry;
}

#define kill_anon_super kill_litter_super
#endif

/*
 * 7.0, "slab: Introduce kmalloc_obj() and family": an allocation sized by
 * the type of what it is for. Debian's 6.12.118 has it too, so the test is
 * for the macro, not the version. Before it, kmalloc() of the object's
 * sizeof, whose void * converts to the pointer it is assigned to.
 */
#ifndef kmalloc_obj
#define kmalloc_obj(obj, gfp) kmalloc(sizeof(obj), gfp)
#define kzalloc_obj(obj, gfp) kzalloc(sizeof(obj), gfp)
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(7, 1, 0)
/*
 * 7.1: <linux/pagevec.h>, by then only struct folio_batch, was renamed
 * <linux/folio_batch.h>. src/file.c's page walks get it from here.
 */
#include <linux/pagevec.h>
#else
#include <linux/folio_batch.h>
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(7, 2, 0)
/*
 * 7.2, "security,fs,nfs,net: update security_inode_listsecurity() interface":
 * an LSM lists its names by appending them at *buffer (when it is not
 * NULL) and subtracting their length from *remaining, and returns 0 or an
 * errno, -ERANGE when they do not fit. Before it, it took the buffer and
 * its size and returned the names' length, having copied them only if
 * they fit. A NULL buffer still compiles against the new one, and means
 * "no place to write the pointer": the wrapper is the old call in the new
 * shape.
 */
static inline int ipat_compat_listsecurity(struct inode *inode, char **buffer,
					   ssize_t *remaining)
{
	int len = security_inode_listsecurity(inode, *buffer,
					      *buffer ? *remaining : 0);

	if (len < 0)
		return len;
	if (*buffer) {
		if (*remaining < len)
			return -ERANGE;
		*buffer += len;
	}
	*remaining -= len;
	return 0;
}

#define security_inode_listsecurity ipat_compat_listsecurity
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(7, 3, 0)
/*
 * 7.3, "Remove excl arg to ->create inode_operation": ->create lost its bool
 * excl, which said whether O_EXCL was asked. A filesystem without
 * ->atomic_open is only ever asked to create a name that does not exist,
 * and never needed it. IPAT_CREATE(fn) is what the operations table takes:
 * before 7.3, a wrapper with the old signature (IPAT_CREATE_COMPAT(fn)
 * defines it).
 */
#define IPAT_CREATE_COMPAT(fn)						\
static int fn##_compat(struct mnt_idmap *idmap, struct inode *dir,	\
		       struct dentry *dentry, umode_t mode, bool excl)	\
{									\
	return fn(idmap, dir, dentry, mode);				\
}

#define IPAT_CREATE(fn) fn##_compat
#else
#define IPAT_CREATE_COMPAT(fn)
#define IPAT_CREATE(fn) fn
#endif

#endif /* _IPAT_COMPAT_H */
