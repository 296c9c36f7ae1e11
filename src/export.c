// SPDX-License-Identifier: GPL-2.0
/*
 * File handles, the same for all three filesystems: name_to_handle_at()
 * and open_by_handle_at(), fanotify's FAN_REPORT_FID, an NFS export, and
 * overlayfs's index all name an inode by a handle instead of a path.
 *
 * A handle is the kernel's FILEID_INO32_GEN: the inode number and the
 * random generation ipat_new_inode() gave the inode, so that a number
 * reused by a later inode does not open it. The handle finds the inode
 * only while it is in memory, which for these filesystems is as long as it
 * exists at all; once it is gone, open_by_handle_at() fails with ESTALE.
 */
#include <linux/exportfs.h>
#include <linux/fs.h>
#include <linux/spinlock.h>

#include "ipat.h"

/*
 * Inodes enter the inode hash, where ilookup5() can find them, only when
 * their first handle is made: creating and evicting the many inodes that
 * never get one stays as cheap as on ramfs. Inserting twice would corrupt
 * the hash chain, hence one lock around the test and the insertion.
 */
static DEFINE_SPINLOCK(ipat_hash_lock);

static void ipat_hash_inode(struct inode *inode)
{
	spin_lock(&ipat_hash_lock);
	if (inode_unhashed(inode))
		__insert_inode_hash(inode, inode->i_ino);
	spin_unlock(&ipat_hash_lock);
}

static int ipat_encode_fh(struct inode *inode, u32 *fh, int *max_len,
			  struct inode *parent)
{
	struct fid *fid = (struct fid *)fh;
	int len = 2;	/* in 32-bit words: the number and the generation */

	/* The parent is not encoded: every name is pinned, see below. */
	if (*max_len < len) {
		*max_len = len;
		return FILEID_INVALID;
	}
	if (inode_unhashed(inode))
		ipat_hash_inode(inode);
	fid->i32.ino = inode->i_ino;
	fid->i32.gen = inode->i_generation;
	*max_len = len;
	return FILEID_INO32_GEN;
}

static int ipat_inode_matches(struct inode *inode, void *data)
{
	const struct fid *fid = data;

	return inode->i_ino == fid->i32.ino &&
	       inode->i_generation == fid->i32.gen;
}

static struct inode *ipat_inode_of(struct super_block *sb, u64 ino, u32 gen)
{
	struct fid fid = { .i32 = { .ino = ino, .gen = gen } };

	/* NULL for an inode that is gone or going: ESTALE. */
	return ilookup5(sb, ino, ipat_inode_matches, &fid);
}

static struct dentry *ipat_fh_to_dentry(struct super_block *sb,
					struct fid *fid, int fh_len,
					int fh_type)
{
	return generic_fh_to_dentry(sb, fid, fh_len, fh_type, ipat_inode_of);
}

/*
 * Every dentry here is pinned from creation to removal, so the dentry a
 * handle finds is always connected to the root, and exportfs never has to
 * walk up from a directory to reconnect it. A parent's handle is never
 * asked for; if it were, the answer would be "gone", as tmpfs answers.
 */
static struct dentry *ipat_get_parent(struct dentry *child)
{
	return ERR_PTR(-ESTALE);
}

const struct export_operations ipat_export_ops = {
	.encode_fh	= ipat_encode_fh,
	.fh_to_dentry	= ipat_fh_to_dentry,
	.get_parent	= ipat_get_parent,
};
