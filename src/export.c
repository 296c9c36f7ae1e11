// SPDX-License-Identifier: GPL-2.0
/*
 * File handles, the same for all three filesystems: name_to_handle_at()
 * and open_by_handle_at(), fanotify's FAN_REPORT_FID, an NFS export, and
 * overlayfs's index all name an inode by a handle instead of a path.
 *
 * A handle is the kernel's FILEID_INO32_GEN: the inode number and the
 * random generation ipat_new_inode() gave the inode, so that a number
 * reused by a later inode does not open it. It opens the inode through a
 * dentry the inode already has, as tmpfs's does: one of its names, or the
 * dentry an unlinked file is still open through. Once the inode has none,
 * open_by_handle_at() fails with ESTALE, even while something without a
 * dentry (a Landlock rule, say) still holds the inode in memory.
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

	/* The parent is not encoded: no dentry found needs it, see below. */
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

/*
 * Only a dentry the inode has already: a new one made for it here
 * (d_obtain_alias(), as generic_fh_to_dentry() would) would open a file
 * that is deleted and closed, which tmpfs refuses. A name's dentry is
 * preferred to the unhashed one of an open, unlinked name.
 */
static struct dentry *ipat_fh_to_dentry(struct super_block *sb,
					struct fid *fid, int fh_len,
					int fh_type)
{
	struct dentry *dentry = NULL;
	struct inode *inode;

	if (fh_len < 2 || fh_type != FILEID_INO32_GEN)
		return NULL;
	inode = ipat_inode_of(sb, fid->i32.ino, fid->i32.gen);
	if (inode) {
		dentry = d_find_alias(inode) ?: d_find_any_alias(inode);
		iput(inode);
	}
	return dentry;
}

/*
 * ->get_parent reconnects a disconnected directory dentry to the root,
 * walking up through "..". Every dentry a handle finds here already is
 * one: the pinned dentry of a name, which is connected, or the dentry an
 * unlinked file or directory is still open through, which was connected
 * before its removal. None is ever made disconnected, so exportfs never
 * asks; if it did, the answer would be "gone", as tmpfs answers.
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
