// SPDX-License-Identifier: GPL-2.0
/*
 * What each mount holds under its two limits, max_inodes and
 * max_xattr_bytes: inode.c takes and gives back inode slots, xattr.c
 * charges and gives back bytes, super.c sets the limits and reports them.
 * Everything here is under ipat_sb_info::lock; nothing here calls out.
 */
#include <linux/fs.h>
#include <linux/spinlock.h>

#include "ipat.h"

void ipat_limits_init(struct ipat_sb_info *sbi, unsigned long max_inodes,
		      unsigned long max_xattr_bytes)
{
	spin_lock_init(&sbi->lock);
	sbi->max_inodes = max_inodes;
	sbi->max_xattr_bytes = max_xattr_bytes;
}

/**
 * ipat_limits_change - set new limits, all of them or none
 * @sbi: the mount's state
 * @max_inodes: the new max_inodes, or NULL to keep it
 * @max_xattr_bytes: the new max_xattr_bytes, or NULL to keep it
 * @used_inodes: set to the inode slots in use
 * @used_xattr_bytes: set to the xattr bytes in use
 *
 * A limit below what is in use now is refused, and then neither changes.
 *
 * Return: 0 if set, else -EINVAL.
 */
int ipat_limits_change(struct ipat_sb_info *sbi,
		       const unsigned long *max_inodes,
		       const unsigned long *max_xattr_bytes,
		       unsigned long *used_inodes,
		       unsigned long *used_xattr_bytes)
{
	int err = 0;

	spin_lock(&sbi->lock);
	*used_inodes = sbi->used_inodes;
	*used_xattr_bytes = sbi->used_xattr_bytes;
	if ((max_inodes && *max_inodes < sbi->used_inodes) ||
	    (max_xattr_bytes && *max_xattr_bytes < sbi->used_xattr_bytes))
		err = -EINVAL;
	/* WRITE_ONCE: ->show_options reads the limits without the lock. */
	if (!err && max_inodes)
		WRITE_ONCE(sbi->max_inodes, *max_inodes);
	if (!err && max_xattr_bytes)
		WRITE_ONCE(sbi->max_xattr_bytes, *max_xattr_bytes);
	spin_unlock(&sbi->lock);
	return err;
}

/* For statfs(): the limit and what is in use under it, read together. */
void ipat_inode_usage(struct super_block *sb, unsigned long *max,
		      unsigned long *used)
{
	struct ipat_sb_info *sbi = IPAT_SB(sb);

	spin_lock(&sbi->lock);
	*max = sbi->max_inodes;
	*used = sbi->used_inodes;
	spin_unlock(&sbi->lock);
}

/**
 * ipat_reserve_slot - take one of the max_inodes slots
 * @sb: the superblock
 *
 * Every inode takes a slot, and so does every hard link beyond an inode's
 * first name, as on tmpfs: each name pins a dentry that is never pruned,
 * so links must not get around the limit.
 *
 * Return: true if a slot was free; ipat_release_slot() gives it back.
 */
bool ipat_reserve_slot(struct super_block *sb)
{
	struct ipat_sb_info *sbi = IPAT_SB(sb);
	bool ok;

	spin_lock(&sbi->lock);
	ok = sbi->used_inodes < sbi->max_inodes;
	if (ok)
		sbi->used_inodes++;
	spin_unlock(&sbi->lock);
	return ok;
}

void ipat_release_slot(struct super_block *sb)
{
	struct ipat_sb_info *sbi = IPAT_SB(sb);

	spin_lock(&sbi->lock);
	sbi->used_inodes--;
	spin_unlock(&sbi->lock);
}

/**
 * ipat_reserve_inode - count a new inode against max_inodes
 * @sb: the superblock the inode will belong to
 *
 * Return: true if the inode may be created; ipat_release_inode() undoes it.
 */
bool ipat_reserve_inode(struct super_block *sb)
{
	if (!ipat_reserve_slot(sb))
		return false;
	atomic_long_inc(&ipat_type(sb)->stats.inodes);
	return true;
}

void ipat_release_inode(struct super_block *sb)
{
	ipat_release_slot(sb);
	atomic_long_dec(&ipat_type(sb)->stats.inodes);
}

/**
 * ipat_charge_xattr - count extended attribute bytes against max_xattr_bytes
 * @sb: the superblock
 * @bytes: what the attribute costs beyond what it replaces
 *
 * Return: true if they fit; ipat_uncharge_xattr() gives them back.
 */
bool ipat_charge_xattr(struct super_block *sb, size_t bytes)
{
	struct ipat_sb_info *sbi = IPAT_SB(sb);
	bool ok;

	spin_lock(&sbi->lock);
	ok = bytes <= sbi->max_xattr_bytes - sbi->used_xattr_bytes;
	if (ok)
		sbi->used_xattr_bytes += bytes;
	spin_unlock(&sbi->lock);
	return ok;
}

void ipat_uncharge_xattr(struct super_block *sb, size_t bytes)
{
	struct ipat_sb_info *sbi = IPAT_SB(sb);

	spin_lock(&sbi->lock);
	sbi->used_xattr_bytes -= bytes;
	spin_unlock(&sbi->lock);
}
