// SPDX-License-Identifier: GPL-2.0
/*
 * POSIX ACLs, as tmpfs has them: an inode's access and default ACLs live
 * only in the VFS's ACL cache (i_acl, i_default_acl), which the VFS reads
 * for permission checks and getxattr(); ->set_acl replaces them. Every new
 * inode starts with both cached as "none" (ipat_new_inode()), so the VFS
 * never asks for them.
 *
 * tmpfs does this with simple_set_acl() and simple_acl_create(), which the
 * kernel does not export: these are the same, built from what it does.
 * Compiled only where tmpfs has ACLs (CONFIG_TMPFS_POSIX_ACL), so that the
 * three have them exactly where tmpfs does.
 */
#include <linux/fs.h>
#include <linux/posix_acl.h>

#include "ipat.h"

/**
 * ipat_acl_set - replace one of an inode's ACLs (simple_set_acl())
 * @idmap: the idmapping of the mount the caller came through
 * @inode: the inode
 * @acl: the new ACL, or NULL to remove it
 * @type: ACL_TYPE_ACCESS or ACL_TYPE_DEFAULT
 *
 * An access ACL sets the mode's permission bits, and is not kept at all
 * if the mode says all it says; the setgid bit is cleared as chmod would.
 * The VFS has checked ownership and the ACL itself, and holds i_rwsem.
 *
 * Return: 0 or the errno of posix_acl_update_mode().
 */
int ipat_acl_set(struct mnt_idmap *idmap, struct inode *inode,
		 struct posix_acl *acl, int type)
{
	int err;

	if (type == ACL_TYPE_ACCESS) {
		err = posix_acl_update_mode(idmap, inode, &inode->i_mode, &acl);
		if (err)
			return err;
	}
	inode_set_ctime_current(inode);
	set_cached_acl(inode, type, acl);
	return 0;
}

/* ->set_acl, which takes the dentry since 6.2. */
int ipat_set_acl(struct mnt_idmap *idmap, struct dentry *dentry,
		 struct posix_acl *acl, int type)
{
	return ipat_acl_set(idmap, d_inode(dentry), acl, type);
}

/**
 * ipat_acl_create - a new inode's ACLs, from its directory's default ACL
 * @dir: the directory it is created in
 * @inode: the new inode, not yet visible
 *
 * As simple_acl_create(): with a default ACL on @dir, the inode gets it as
 * its access ACL (masked by the mode asked for), a directory as its default
 * ACL too, and the umask is not applied; without one, the umask is, here:
 * the VFS leaves it to the filesystem on a mount with ACLs.
 *
 * Return: 0, or -ENOMEM with nothing set; the caller drops the inode.
 */
int ipat_acl_create(struct inode *dir, struct inode *inode)
{
	struct posix_acl *default_acl, *acl;
	int err;

	err = posix_acl_create(dir, &inode->i_mode, &default_acl, &acl);
	if (err)
		return err;
	set_cached_acl(inode, ACL_TYPE_DEFAULT, default_acl);
	set_cached_acl(inode, ACL_TYPE_ACCESS, acl);
	/* The cache took references of its own. */
	if (default_acl)
		posix_acl_release(default_acl);
	if (acl)
		posix_acl_release(acl);
	return 0;
}
