// SPDX-License-Identifier: GPL-2.0
/*
 * The inode and directory operations the three filesystems share: a
 * ramfs-like tree whose file data lives in the page cache (file.c) and
 * whose names live in pinned dentries. Private per-inode data (birth time
 * and extended attributes) is reached only through ipat_fs_type::payload().
 */
#include <linux/fs.h>
#include <linux/pagemap.h>
#include <linux/posix_acl.h>
#include <linux/random.h>
#include <linux/stat.h>
#include <linux/time64.h>

#include "ipat.h"

static const struct inode_operations ipat_dir_iops;
static const struct inode_operations ipat_symlink_iops;
static const struct inode_operations ipat_special_iops;
static const struct file_operations ipat_dir_fops;

static void ipat_payload_init(struct ipat_payload *payload,
			      struct inode *inode)
{
	payload->btime = inode_get_ctime(inode);
	ipat_xattrs_init(&payload->xattrs);
	payload->xattrs.fsflags = 0;
}

/**
 * ipat_new_inode - create an inode of any of the three filesystems
 * @idmap: the idmapping of the mount it is created through, which maps the
 *	caller's fsuid and fsgid to the new inode's owner
 * @sb: the superblock
 * @dir: the parent directory, or NULL for the root
 * @mode: file type and permission bits
 * @dev: device number, for device nodes
 *
 * new_inode() reaches the pattern's ->alloc_inode, if it has one; a pattern
 * that lets the VFS allocate gets its ->attach hook called afterwards.
 *
 * Return: the inode, or ERR_PTR(-ENOSPC) beyond max_inodes, or
 * ERR_PTR(-ENOMEM) with nothing left allocated.
 */
struct inode *ipat_new_inode(struct mnt_idmap *idmap, struct super_block *sb,
			     const struct inode *dir, umode_t mode, dev_t dev)
{
	struct ipat_fs_type *type = ipat_type(sb);
	struct inode *inode;
	int err;

	if (!ipat_reserve_inode(sb))
		return ERR_PTR(-ENOSPC);

	inode = new_inode(sb);
	if (!inode) {
		ipat_release_inode(sb);
		return ERR_PTR(-ENOMEM);
	}
	if (type->attach) {
		err = type->attach(inode);
		if (err) {
			/* Eviction gives back the max_inodes reservation. */
			iput(inode);
			return ERR_PTR(err);
		}
	}

	inode->i_ino = get_next_ino();
	/* A file handle names the inode by number and generation (export.c). */
	inode->i_generation = get_random_u32();
	inode_init_owner(idmap, inode, dir, mode);
	inode->i_mapping->a_ops = &ipat_aops;
	mapping_set_gfp_mask(inode->i_mapping, GFP_HIGHUSER);
	/* Like ramfs: the page cache is the only copy of the data. */
	mapping_set_unevictable(inode->i_mapping);
	inode_set_atime_to_ts(inode,
			      inode_set_mtime_to_ts(inode,
						    inode_set_ctime_current(inode)));
	ipat_payload_init(ipat_payload(inode), inode);
	/* No ACLs until ipat_acl_create() or ->set_acl gives it some. */
	cache_no_acl(inode);

	switch (mode & S_IFMT) {
	case S_IFREG:
		inode->i_op = &ipat_file_iops;
		inode->i_fop = &ipat_file_fops;
		break;
	case S_IFDIR:
		inode->i_op = &ipat_dir_iops;
		inode->i_fop = &ipat_dir_fops;
		/* A directory's "." entry. */
		inc_nlink(inode);
		break;
	case S_IFLNK:
		inode->i_op = &ipat_symlink_iops;
		inode_nohighmem(inode);
		break;
	default:
		inode->i_op = &ipat_special_iops;
		init_special_inode(inode, mode, dev);
		break;
	}
	return inode;
}

/*
 * An inode created in @dir, under @name (NULL for O_TMPFILE): every path
 * that creates one comes through here, so that each inherits the
 * directory's inode flags, and its default ACL (or the umask), and the
 * LSMs label each, as tmpfs has them do. A symlink takes no ACL: its mode
 * is always 0777, as on tmpfs.
 */
static struct inode *ipat_new_child(struct mnt_idmap *idmap, struct inode *dir,
				    const struct qstr *name, umode_t mode,
				    dev_t dev)
{
	struct inode *inode = ipat_new_inode(idmap, dir->i_sb, dir, mode, dev);
	int err;

	if (IS_ERR(inode))
		return inode;
	ipat_iflags_inherit(inode, dir);
	err = S_ISLNK(mode) ? 0 : ipat_acl_create(dir, inode);
	if (!err)
		err = ipat_init_security(inode, dir, name);
	if (err) {
		iput(inode);
		return ERR_PTR(err);
	}
	return inode;
}

/*
 * Binds a new inode to its name. The name lives only in the dcache, so its
 * dentry is made persistent: pinned until simple_unlink(), simple_rmdir()
 * or simple_rename() removes the name, or kill_anon_super() the mount.
 */
static void ipat_instantiate(struct inode *dir, struct dentry *dentry,
			     struct inode *inode)
{
	d_make_persistent(dentry, inode);
	inode_set_mtime_to_ts(dir, inode_set_ctime_current(dir));
}

/*
 * Every named creation but a symlink's comes here (create, mkdir, mknod,
 * a whiteout); as on tmpfs, this is where a strict_encoding mount refuses
 * a name that is not valid UTF-8 in a casefolded directory.
 */
static int ipat_mknod(struct mnt_idmap *idmap, struct inode *dir,
		      struct dentry *dentry, umode_t mode, dev_t dev)
{
	struct inode *inode;

	if (!generic_ci_validate_strict_name(dir, &dentry->d_name))
		return -EINVAL;
	inode = ipat_new_child(idmap, dir, &dentry->d_name, mode, dev);
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	ipat_instantiate(dir, dentry, inode);
	return 0;
}

static int ipat_create(struct mnt_idmap *idmap, struct inode *dir,
		       struct dentry *dentry, umode_t mode)
{
	return ipat_mknod(idmap, dir, dentry, mode | S_IFREG, 0);
}

IPAT_CREATE_COMPAT(ipat_create)

/* NULL: the new directory is the dentry the VFS passed in. */
static struct dentry *ipat_mkdir(struct mnt_idmap *idmap, struct inode *dir,
				 struct dentry *dentry, umode_t mode)
{
	int err = ipat_mknod(idmap, dir, dentry, mode | S_IFDIR, 0);

	/* The new directory's ".." entry. */
	if (!err)
		inc_nlink(dir);
	return ERR_PTR(err);
}

IPAT_MKDIR_COMPAT(ipat_mkdir)

static int ipat_symlink(struct mnt_idmap *idmap, struct inode *dir,
			struct dentry *dentry, const char *target)
{
	struct inode *inode;
	int err;

	inode = ipat_new_child(idmap, dir, &dentry->d_name, S_IFLNK | 0777, 0);
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	/*
	 * The target goes into the page cache, as in ramfs: readlink() then
	 * copies from a page, never from a slab object, and the RCU path walk
	 * finds it through the page cache's own RCU-safe lookup.
	 */
	err = page_symlink(inode, target, strlen(target) + 1);
	if (err) {
		iput(inode);
		return err;
	}
	ipat_instantiate(dir, dentry, inode);
	return 0;
}

static int ipat_tmpfile(struct mnt_idmap *idmap, struct inode *dir,
			struct file *file, umode_t mode)
{
	struct inode *inode = ipat_new_child(idmap, dir, NULL, mode, 0);

	if (IS_ERR(inode))
		return PTR_ERR(inode);
	d_tmpfile(file, inode);
	return finish_open_simple(file, 0);
}

/*
 * A name beyond an inode's first takes a max_inodes slot of its own, as on
 * tmpfs. An O_TMPFILE inode has no name yet (i_nlink is 0): its first link
 * is covered by the slot the inode took when it was made.
 */
static int ipat_link(struct dentry *old_dentry, struct inode *dir,
		     struct dentry *dentry)
{
	struct inode *inode = d_inode(old_dentry);

	if (inode->i_nlink && !ipat_reserve_slot(inode->i_sb))
		return -ENOSPC;
	return simple_link(old_dentry, dir, dentry);
}

/*
 * Does removing one name of @inode give back a slot? Only an extra link's:
 * the last name's slot is the inode's, given back when it is evicted.
 * A directory has one name whatever its i_nlink says.
 */
static bool ipat_name_has_slot(const struct inode *inode)
{
	return !S_ISDIR(inode->i_mode) && inode->i_nlink > 1;
}

/*
 * The dcache cannot tell a case-insensitive negative dentry from a
 * name of another case, so in a casefolded directory a removed name's
 * dentry is dropped, not left negative, as on tmpfs.
 */
static void ipat_forget_name(struct inode *dir, struct dentry *dentry)
{
	if (IS_CASEFOLDED(dir))
		d_invalidate(dentry);
}

static int ipat_unlink(struct inode *dir, struct dentry *dentry)
{
	struct inode *inode = d_inode(dentry);
	int err;

	if (ipat_name_has_slot(inode))
		ipat_release_slot(inode->i_sb);
	err = simple_unlink(dir, dentry);
	if (!err)
		ipat_forget_name(dir, dentry);
	return err;
}

static int ipat_rmdir(struct inode *dir, struct dentry *dentry)
{
	int err = simple_rmdir(dir, dentry);

	if (!err)
		ipat_forget_name(dir, dentry);
	return err;
}

/*
 * RENAME_WHITEOUT, which overlayfs asks of its upper layer: the old name is
 * left to a whiteout, a character device 0/0 that is an inode of its own
 * (and takes a max_inodes slot, as on tmpfs). It is made on a second dentry
 * of the old name and hashed while the old dentry is still there; the
 * rename then moves the old one away, and lookups find the whiteout.
 */
static int ipat_whiteout(struct mnt_idmap *idmap, struct inode *old_dir,
			 struct dentry *old_dentry)
{
	struct dentry *whiteout;
	int err;

	whiteout = d_alloc(old_dentry->d_parent, &old_dentry->d_name);
	if (!whiteout)
		return -ENOMEM;
	/* d_make_persistent() hashes it and takes the reference that pins it. */
	err = ipat_mknod(idmap, old_dir, whiteout, S_IFCHR | WHITEOUT_MODE,
			 WHITEOUT_DEV);
	dput(whiteout);
	return err;
}

/* A rename over an existing name removes that name, as unlink does. */
static int ipat_rename(struct mnt_idmap *idmap,
		       struct inode *old_dir, struct dentry *old_dentry,
		       struct inode *new_dir, struct dentry *new_dentry,
		       unsigned int flags)
{
	struct inode *victim = d_inode(new_dentry);
	bool release = victim && !(flags & RENAME_EXCHANGE) &&
		       ipat_name_has_slot(victim);
	int err;

	if (flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE | RENAME_WHITEOUT))
		return -EINVAL;
	if (flags & RENAME_WHITEOUT) {
		/*
		 * simple_rename() refuses only a non-empty target once the
		 * flags pass (the VFS refuses WHITEOUT with EXCHANGE): check
		 * that first, so that a failed rename leaves no whiteout.
		 */
		if (!simple_empty(new_dentry))
			return -ENOTEMPTY;
		err = ipat_whiteout(idmap, old_dir, old_dentry);
		if (err)
			return err;
		flags &= ~RENAME_WHITEOUT;
	}
	err = simple_rename(idmap, old_dir, old_dentry, new_dir, new_dentry,
			    flags);
	if (!err && release)
		ipat_release_slot(victim->i_sb);
	return err;
}

/*
 * simple_setattr(), and a chmod (or a mode change of notify_change()'s own,
 * clearing setuid) applied to the access ACL's entries too, as tmpfs does.
 */
int ipat_setattr(struct mnt_idmap *idmap, struct dentry *dentry,
		 struct iattr *attr)
{
	int err = simple_setattr(idmap, dentry, attr);

	if (!err && (attr->ia_valid & ATTR_MODE))
		err = posix_acl_chmod(idmap, dentry, d_inode(dentry)->i_mode);
	return err;
}

int ipat_getattr(struct mnt_idmap *idmap, const struct path *path,
		 struct kstat *stat, u32 request_mask, unsigned int query_flags)
{
	struct inode *inode = d_inode(path->dentry);
	/* One ipat_payload(), an indirect call, for every stat(). */
	const struct ipat_payload *p = ipat_payload(inode);

	generic_fillattr(idmap, request_mask, inode, stat);
	stat->btime = p->btime;
	stat->result_mask |= STATX_BTIME;
	ipat_iflags_stat(inode, p, stat);
	return 0;
}

static const struct inode_operations ipat_dir_iops = {
	.create		= IPAT_CREATE(ipat_create),
	.lookup		= simple_lookup,
	.link		= ipat_link,
	.unlink		= ipat_unlink,
	.symlink	= ipat_symlink,
	.mkdir		= IPAT_MKDIR(ipat_mkdir),
	.rmdir		= ipat_rmdir,
	.mknod		= ipat_mknod,
	.rename		= ipat_rename,
	.tmpfile	= ipat_tmpfile,
	.getattr	= ipat_getattr,
	.setattr	= ipat_setattr,
	.listxattr	= ipat_listxattr,
	.set_acl	= IPAT_IOP_SET_ACL,
	.fileattr_get	= ipat_fileattr_get,
	.fileattr_set	= ipat_fileattr_set,
};

static const struct inode_operations ipat_symlink_iops = {
	.get_link	= page_get_link,
	.getattr	= ipat_getattr,
	.setattr	= simple_setattr,
	.listxattr	= ipat_listxattr,
};

static const struct inode_operations ipat_special_iops = {
	.getattr	= ipat_getattr,
	.setattr	= ipat_setattr,
	.listxattr	= ipat_listxattr,
	.set_acl	= IPAT_IOP_SET_ACL,
};

/*
 * Since 7.0 a lease is granted only where ->setlease says so; before, a
 * missing ->setlease meant generic_setlease(). tmpfs grants them on files,
 * and on directories for the kernel's own users (the NFS server's
 * directory delegations; fcntl() refuses a directory lease everywhere).
 * Otherwise simple_dir_operations.
 */
static const struct file_operations ipat_dir_fops = {
	.open		= dcache_dir_open,
	.release	= dcache_dir_close,
	.llseek		= dcache_dir_lseek,
	.read		= generic_read_dir,
	.iterate_shared	= dcache_readdir,
	.fsync		= noop_fsync,
	.setlease	= generic_setlease,
};

