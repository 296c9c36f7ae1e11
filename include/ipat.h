/* SPDX-License-Identifier: GPL-2.0 */
/*
 * inode-patterns: what the three filesystems share.
 *
 * unionfs_demo, embedfs_demo and voidfs_demo behave identically; they differ
 * only in where each keeps the private data it attaches to a struct inode.
 * Everything here is pattern-agnostic: the shared code reaches an inode's
 * private data only through ipat_fs_type::payload().
 */
#ifndef _IPAT_H
#define _IPAT_H

#include <linux/bits.h>
#include <linux/fs.h>
#include <linux/rbtree.h>
#include <linux/spinlock.h>
#include <linux/time64.h>
#include <linux/types.h>

#include "ipat_compat.h"

/**
 * struct ipat_xattrs - a small in-memory extended attribute store
 * @lock: protects @tree and @names_len; nests outside &ipat_sb_info.lock
 * @fsflags: not an extended attribute: the one inode flag of
 *	FS_IOC_GETFLAGS that i_flags has no bit for, FS_NODUMP_FL, or 0
 *	(iflags.c). It sits in the hole after @lock, so that the payload
 *	stays 40 bytes. Written under i_rwsem, or before the inode is seen.
 * @tree: the attributes, &struct ipat_xattr ordered by name
 * @names_len: what listxattr() lists of them: each name and its NUL,
 *	but for a MAC label, which the LSM lists; kept within XATTR_LIST_MAX
 *	with the names listed before them (the LSM's, the ACLs'), so that
 *	listing always works
 */
struct ipat_xattrs {
	spinlock_t lock;	/* protects tree and names_len */
	u32 fsflags;
	struct rb_root tree;
	size_t names_len;
};

/**
 * struct ipat_payload - what every inode privately carries, in all three
 * @btime: creation time, reported by statx() as STATX_BTIME
 * @xattrs: the inode's user.*, trusted.* and security.* extended attributes,
 *	and in a hole of theirs its nodump flag (&ipat_xattrs.fsflags)
 *
 * The payload is identical in the three filesystems so that only the way it
 * is attached to struct inode differs between them.
 */
struct ipat_payload {
	struct timespec64 btime;
	struct ipat_xattrs xattrs;
};

/**
 * struct ipat_stats - allocation accounting of one filesystem type
 * @inodes: inodes that exist, from creation to eviction, in all mounts
 * @inode_allocs: objects that hold a struct inode, allocated
 * @inode_frees: the same, freed
 * @private_allocs: separate private objects, allocated (voidfs_demo only)
 * @private_frees: the same, freed
 * @xattr_bytes: bytes held by extended attributes
 *
 * Plain atomics: simple and exact. The object counters change on inode
 * allocation and freeing, @xattr_bytes on every change of an extended
 * attribute; a lookup or a stat touches none. An evicted inode's memory is
 * usually freed only after an RCU grace period, so for a moment the object
 * counters may still show an inode that @inodes no longer counts.
 */
struct ipat_stats {
	atomic_long_t inodes;
	atomic_long_t inode_allocs;
	atomic_long_t inode_frees;
	atomic_long_t private_allocs;
	atomic_long_t private_frees;
	atomic_long_t xattr_bytes;
};

/**
 * struct ipat_fs_type - one filesystem type, described to the shared code
 * @fs_type: what register_filesystem() takes
 * @pattern: the pattern's name, for the statistics file
 * @magic: the superblock magic number, as statfs() reports it
 * @s_op: the super_operations, the place where the patterns differ
 * @payload: maps an inode to its private data; may return NULL only for an
 *	inode whose private data could not be attached
 * @attach: optional; ipat_new_inode() calls it right after new_inode(), to
 *	give an inode the VFS allocated private data allocated apart
 * @init: optional; sets up what the type needs before it is registered
 * @exit: optional; undoes @init once the type is unregistered and every
 *	->free_inode call still pending has run (src/main.c waits for them
 *	with one rcu_barrier() for all three types)
 * @inode_object: the slab cache that holds the struct inode, for the
 *	statistics file
 * @inode_object_size: its size in bytes as allocated
 * @private_object_size: size requested for a separate private object, or 0
 * @show_layout: optional; adds what only this pattern can tell about its
 *	layout to the statistics file
 * @stats: allocation accounting
 */
struct ipat_fs_type {
	struct file_system_type fs_type;
	const char *pattern;
	unsigned long magic;
	const struct super_operations *s_op;
	struct ipat_payload *(*payload)(struct inode *inode);
	int (*attach)(struct inode *inode);
	int (*init)(void);
	void (*exit)(void);
	const char *inode_object;
	size_t inode_object_size;
	size_t private_object_size;
	void (*show_layout)(struct seq_file *m);
	struct ipat_stats stats;
};

/*
 * The file_system_type of each of the three: only the name differs.
 * IPAT_FS_ALLOW_IDMAP (FS_ALLOW_IDMAP where tmpfs has it): the shared code
 * passes the mount's idmapping on wherever the VFS hands one over, so
 * idmapped mounts work as on tmpfs.
 */
#define IPAT_FILE_SYSTEM_TYPE(fs_name) {			\
	.owner		 = THIS_MODULE,				\
	.name		 = fs_name,				\
	.fs_flags	 = IPAT_FS_ALLOW_IDMAP,			\
	.init_fs_context = ipat_init_fs_context,		\
	.kill_sb	 = ipat_kill_sb,			\
}

static inline struct ipat_fs_type *ipat_type(const struct super_block *sb)
{
	return container_of(sb->s_type, struct ipat_fs_type, fs_type);
}

/* The only way the shared code reaches an inode's private data. */
static inline struct ipat_payload *ipat_payload(struct inode *inode)
{
	return ipat_type(inode->i_sb)->payload(inode);
}

/**
 * struct ipat_sb_info - per-mount state
 * @lock: protects the limits and what is used under them, and the i_blocks
 *	of every inode of the mount
 * @max_inodes: the max_inodes= limit
 * @used_inodes: slots taken under @max_inodes: one for each inode that
 *	exists now, the root directory included, and one for each hard link
 *	beyond an inode's first name, as tmpfs counts them
 * @max_xattr_bytes: the max_xattr_bytes= limit
 * @used_xattr_bytes: what the mount's extended attributes take now, each
 *	counted as its entry, value and name (xattr_bytes in the statistics)
 * @max_blocks: the size= limit, in pages; 0 for none, as on tmpfs
 * @used_blocks: pages the mount's files and symlinks hold in the page
 *	cache, counted even without a limit (so that one can be set later)
 * @default_xattr_bytes: max_xattr_bytes's default when the filesystem was
 *	made, which ->show_options leaves out
 * @mode: the mode= option as mounted, which chmod of the root leaves alone
 * @uid: the uid= option as mounted
 * @gid: the gid= option as mounted
 *
 * @default_xattr_bytes, @mode, @uid and @gid are set when the filesystem
 * is made and never change: ->show_options reads them without the lock.
 */
struct ipat_sb_info {
	spinlock_t lock;	/* protects the limits, counters and i_blocks */
	unsigned long max_inodes;
	unsigned long used_inodes;
	unsigned long max_xattr_bytes;
	unsigned long used_xattr_bytes;
	unsigned long max_blocks;
	unsigned long used_blocks;
	unsigned long default_xattr_bytes;
	umode_t mode;
	kuid_t uid;
	kgid_t gid;
};

/**
 * struct ipat_limits - a mount's three limits, or what is in use under them
 * @inodes: max_inodes, or the slots taken
 * @xattr_bytes: max_xattr_bytes, or the bytes taken
 * @blocks: the size= limit in pages (0: none), or the pages held
 */
struct ipat_limits {
	unsigned long inodes;
	unsigned long xattr_bytes;
	unsigned long blocks;
};

/* Which of the limits a remount names, for ipat_limits_change(). */
#define IPAT_LIMIT_INODES	BIT(0)
#define IPAT_LIMIT_XATTR_BYTES	BIT(1)
#define IPAT_LIMIT_BLOCKS	BIT(2)

/* st_blocks counts 512-byte units; the mount charges whole pages. */
#define IPAT_PAGE_SECTORS_SHIFT	(PAGE_SHIFT - 9)

static inline struct ipat_sb_info *IPAT_SB(const struct super_block *sb)
{
	return sb->s_fs_info;
}

/*
 * Allocation accounting, one call per event, where each pattern allocates
 * and frees. @private: a separate private object came or went with the
 * inode (voidfs_demo, which counts the VFS's inode with it, in its own
 * hooks). The inode's object is counted first on allocation and last on
 * freeing, the order src/stats.c relies on when it reads them.
 */
static inline void ipat_count_alloc(struct ipat_fs_type *type, bool private)
{
	atomic_long_inc(&type->stats.inode_allocs);
	if (private)
		atomic_long_inc(&type->stats.private_allocs);
}

static inline void ipat_count_free(struct ipat_fs_type *type, bool private)
{
	if (private)
		atomic_long_inc(&type->stats.private_frees);
	atomic_long_inc(&type->stats.inode_frees);
}

/* The three filesystems, each defined in the file named after it. */
extern struct ipat_fs_type unionfs_type;
extern struct ipat_fs_type embedfs_type;
extern struct ipat_fs_type voidfs_type;

/* super.c: mounting, options, and the super_operations the three share */
int ipat_init_fs_context(struct fs_context *fc);
void ipat_kill_sb(struct super_block *sb);
int ipat_statfs(struct dentry *dentry, struct kstatfs *buf);
int ipat_show_options(struct seq_file *m, struct dentry *root);
void ipat_evict_inode(struct inode *inode);

/* limits.c: what a mount holds under its three limits */
void ipat_limits_init(struct ipat_sb_info *sbi, const struct ipat_limits *max);
unsigned int ipat_limits_change(struct ipat_sb_info *sbi,
				const struct ipat_limits *max,
				unsigned int which, struct ipat_limits *used);
void ipat_usage(struct super_block *sb, struct ipat_limits *max,
		struct ipat_limits *used);
bool ipat_reserve_slot(struct super_block *sb);
void ipat_release_slot(struct super_block *sb);
bool ipat_reserve_inode(struct super_block *sb);
void ipat_release_inode(struct super_block *sb);
bool ipat_charge_xattr(struct super_block *sb, size_t bytes);
void ipat_force_xattr(struct super_block *sb, size_t bytes);
void ipat_uncharge_xattr(struct super_block *sb, size_t bytes);
bool ipat_charge_blocks(struct inode *inode, unsigned long pages, bool force);
void ipat_uncharge_blocks(struct inode *inode, unsigned long pages);

/* inode.c: the ramfs-like inode and directory operations */
struct inode *ipat_new_inode(struct mnt_idmap *idmap, struct super_block *sb,
			     const struct inode *dir, umode_t mode, dev_t dev);
int ipat_getattr(struct mnt_idmap *idmap, const struct path *path,
		 struct kstat *stat, u32 request_mask, unsigned int query_flags);
int ipat_setattr(struct mnt_idmap *idmap, struct dentry *dentry,
		 struct iattr *attr);

/*
 * acl.c: POSIX ACLs, as tmpfs has them, where tmpfs has them
 * (CONFIG_TMPFS_POSIX_ACL): kept in the VFS's ACL cache in struct inode,
 * the only copy. IPAT_IOP_SET_ACL is what the operations tables name.
 */
#ifdef CONFIG_TMPFS_POSIX_ACL
int ipat_acl_create(struct inode *dir, struct inode *inode);
int ipat_set_acl(struct mnt_idmap *idmap, struct dentry *dentry,
		 struct posix_acl *acl, int type);
int ipat_acl_set(struct mnt_idmap *idmap, struct inode *inode,
		 struct posix_acl *acl, int type);
#define IPAT_IOP_SET_ACL IPAT_SET_ACL(ipat_set_acl, ipat_acl_set)
#else
static inline int ipat_acl_create(struct inode *dir, struct inode *inode)
{
	return 0;
}

#define IPAT_IOP_SET_ACL NULL
#endif

/* iflags.c: inode flags, FS_IOC_GETFLAGS and FS_IOC_SETFLAGS, as tmpfs's */
struct file_kattr;
int ipat_fileattr_get(struct dentry *dentry, struct file_kattr *fa);
int ipat_fileattr_set(struct mnt_idmap *idmap, struct dentry *dentry,
		      struct file_kattr *fa);
void ipat_iflags_inherit(struct inode *inode, struct inode *dir);

/**
 * ipat_iflags_stat - the flags statx() reports, as shmem_getattr() does
 * @inode: the inode stat'ed
 * @p: its payload, which the caller has already reached
 * @stat: its attributes, being filled in
 *
 * Of the four, statx has attributes for three; noatime has none. Inline:
 * every stat() comes here, and bench/bounds.txt holds stat to ramfs's.
 */
static inline void ipat_iflags_stat(const struct inode *inode,
				    const struct ipat_payload *p,
				    struct kstat *stat)
{
	unsigned int i_flags = READ_ONCE(inode->i_flags);

	if (i_flags & S_APPEND)
		stat->attributes |= STATX_ATTR_APPEND;
	if (i_flags & S_IMMUTABLE)
		stat->attributes |= STATX_ATTR_IMMUTABLE;
	if (READ_ONCE(p->xattrs.fsflags) & FS_NODUMP_FL)
		stat->attributes |= STATX_ATTR_NODUMP;
	stat->attributes_mask |= STATX_ATTR_APPEND | STATX_ATTR_IMMUTABLE |
				 STATX_ATTR_NODUMP;
}

/* casefold.c: case-insensitive directories, where tmpfs has them */
struct fs_context;
struct unicode_map;
#if IPAT_CASEFOLD
int ipat_casefold_load(struct fs_context *fc, char *version,
		       struct unicode_map **encoding);
int ipat_casefold_fill(struct super_block *sb, struct fs_context *fc,
		       struct unicode_map **encoding, bool strict);
void ipat_casefold_unload(struct unicode_map *encoding);
void ipat_casefold_put(struct super_block *sb);

static inline bool ipat_has_encoding(const struct super_block *sb)
{
	return sb->s_encoding;
}
#else
/* Never asked: without IPAT_CASEFOLD the options do not exist. */
static inline int ipat_casefold_load(struct fs_context *fc, char *version,
				     struct unicode_map **encoding)
{
	return -EINVAL;
}

static inline int ipat_casefold_fill(struct super_block *sb,
				     struct fs_context *fc,
				     struct unicode_map **encoding, bool strict)
{
	return 0;
}

static inline void ipat_casefold_unload(struct unicode_map *encoding)
{
}

static inline void ipat_casefold_put(struct super_block *sb)
{
}

static inline bool ipat_has_encoding(const struct super_block *sb)
{
	return false;
}
#endif

/* file.c: file data in the page cache, each page charged to the mount */
extern const struct address_space_operations ipat_aops;
extern const struct inode_operations ipat_file_iops;
extern const struct file_operations ipat_file_fops;

/* xattr.c */
extern const struct xattr_handler * const ipat_xattr_handlers[];
ssize_t ipat_listxattr(struct dentry *dentry, char *buf, size_t size);
int ipat_init_security(struct inode *inode, struct inode *dir,
		       const struct qstr *name);
void ipat_xattrs_init(struct ipat_xattrs *xattrs);
void ipat_xattrs_free(struct super_block *sb, struct ipat_xattrs *xattrs);

/* export.c: file handles, for NFS, fanotify and open_by_handle_at() */
extern const struct export_operations ipat_export_ops;

/* stats.c: /proc/fs/inode_patterns/<fs type> */
int ipat_stats_init(void);
int ipat_stats_add(struct ipat_fs_type *type);
void ipat_stats_exit(void);

#endif /* _IPAT_H */
