// SPDX-License-Identifier: GPL-2.0
/*
 * File data, kept as tmpfs keeps it: in the page cache and nowhere else,
 * each page charged to the mount's size= limit and to the file's i_blocks
 * (st_blocks) from the moment it is added until it leaves.
 *
 * Pages come only from ipat_grab_folio(), which charges before it adds: a
 * write (->write_begin, which a symlink's target goes through too), and an
 * mmap fault on a hole (which tmpfs also fills with a page). A read of a
 * hole adds nothing and reads zeros, as on tmpfs. Pages leave by a
 * truncate (ipat_file_setattr()) or when the inode is evicted
 * (ipat_evict_inode()), which give back what left. So every page in the
 * cache is charged, and i_blocks is the pages held, in 512-byte units.
 */
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/splice.h>
#include <linux/uio.h>

#include "ipat.h"

/**
 * ipat_grab_folio - the folio at @index, added and charged if there is none
 * @inode: the file or symlink
 * @index: the page's index in the file
 *
 * A new folio is charged before it goes into the page cache, so that no
 * one sees a page the mount has not paid for; it is not up to date, and the
 * caller fills it. If another task added one first, the charge is given
 * back and that one is used.
 *
 * Return: the folio, locked and referenced; ERR_PTR(-ENOSPC) when the
 * mount's size limit has no page left, or ERR_PTR(-ENOMEM).
 */
static struct folio *ipat_grab_folio(struct inode *inode, pgoff_t index)
{
	struct address_space *mapping = inode->i_mapping;
	gfp_t gfp = mapping_gfp_mask(mapping);
	struct folio *folio;
	int err;

	for (;;) {
		folio = filemap_lock_folio(mapping, index);
		if (!IS_ERR(folio))
			return folio;
		if (!ipat_charge_blocks(inode, 1, false))
			return ERR_PTR(-ENOSPC);
		folio = folio_alloc(gfp, 0);
		err = -ENOMEM;
		if (folio) {
			err = filemap_add_folio(mapping, folio, index, gfp);
			if (!err)
				return folio;
			folio_put(folio);
		}
		ipat_uncharge_blocks(inode, 1);
		if (err != -EEXIST)
			return ERR_PTR(err);
	}
}

/* Like simple_write_begin(), but through ipat_grab_folio(). */
static int ipat_write_begin(const struct kiocb *iocb,
			    struct address_space *mapping, loff_t pos,
			    unsigned int len, struct folio **foliop,
			    void **fsdata)
{
	struct folio *folio = ipat_grab_folio(mapping->host, pos >> PAGE_SHIFT);
	size_t from;

	if (IS_ERR(folio))
		return PTR_ERR(folio);
	/* A new folio: zero what the write will not fill. */
	if (!folio_test_uptodate(folio) && len != folio_size(folio)) {
		from = offset_in_folio(folio, pos);
		folio_zero_segments(folio, 0, from, from + len,
				    folio_size(folio));
	}
	*foliop = folio;
	return 0;
}

IPAT_WRITE_BEGIN_COMPAT(ipat_write_begin)

/*
 * What simple_write_end() does, which 7.3 no longer exports. A short copy
 * into a new folio leaves zeros; the folio stays, charged, as on tmpfs.
 * The caller holds i_rwsem, so i_size cannot change under us.
 */
static int ipat_write_end(const struct kiocb *iocb,
			  struct address_space *mapping, loff_t pos,
			  unsigned int len, unsigned int copied,
			  struct folio *folio, void *fsdata)
{
	struct inode *inode = mapping->host;

	if (!folio_test_uptodate(folio)) {
		if (copied < len)
			folio_zero_range(folio,
					 offset_in_folio(folio, pos) + copied,
					 len - copied);
		folio_mark_uptodate(folio);
	}
	if (pos + copied > inode->i_size)
		i_size_write(inode, pos + copied);
	/* Never written back: dirty keeps it from being dropped as clean. */
	folio_mark_dirty(folio);
	folio_unlock(folio);
	folio_put(folio);
	return copied;
}

IPAT_WRITE_END_COMPAT(ipat_write_end)

/*
 * No path of ours asks the page cache to fill a page it lacks: reads of
 * holes copy zeros, writes and faults add charged pages. A page another
 * kernel path adds is zeroed and charged here, past the limit if need be,
 * since every page in the cache must be charged for what a truncate
 * gives back to add up.
 */
static int ipat_read_folio(struct file *file, struct folio *folio)
{
	folio_zero_range(folio, 0, folio_size(folio));
	ipat_charge_blocks(folio->mapping->host, folio_nr_pages(folio), true);
	folio_mark_uptodate(folio);
	folio_unlock(folio);
	return 0;
}

const struct address_space_operations ipat_aops = {
	.read_folio	= ipat_read_folio,
	.write_begin	= IPAT_WRITE_BEGIN(ipat_write_begin),
	.write_end	= IPAT_WRITE_END(ipat_write_end),
	.dirty_folio	= noop_dirty_folio,
};

/*
 * Copies @n bytes at @pos from @folio, or zeros for a hole: no folio, or
 * one not yet up to date, which a write or a fault is filling.
 */
static size_t ipat_copy_to_iter(struct address_space *mapping,
				struct folio *folio, loff_t pos, size_t n,
				struct iov_iter *to)
{
	if (IS_ERR(folio) || !folio_test_uptodate(folio))
		return iov_iter_zero(n, to);
	/* Someone may write it through a mapping: see their stores. */
	if (mapping_writably_mapped(mapping))
		flush_dcache_folio(folio);
	return copy_folio_to_iter(folio, offset_in_folio(folio, pos), n, to);
}

/*
 * Reads what the page cache holds and zeros for a hole, adding nothing,
 * as tmpfs does: reading a sparse file neither fills memory nor changes
 * st_blocks. Like tmpfs's, it updates atime even when it reads nothing.
 */
static ssize_t ipat_file_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct inode *inode = file_inode(iocb->ki_filp);
	struct address_space *mapping = inode->i_mapping;
	struct folio *folio;
	ssize_t done = 0;
	size_t n, copied;
	loff_t size;

	while (iov_iter_count(to)) {
		folio = filemap_get_folio(mapping, iocb->ki_pos >> PAGE_SHIFT);
		/* After the lookup: reads do not hold off a truncate. */
		size = i_size_read(inode);
		if (iocb->ki_pos >= size) {
			if (!IS_ERR(folio))
				folio_put(folio);
			break;
		}
		n = PAGE_SIZE - offset_in_page(iocb->ki_pos);
		if (size - iocb->ki_pos < n)
			n = size - iocb->ki_pos;
		n = min(n, iov_iter_count(to));
		copied = ipat_copy_to_iter(mapping, folio, iocb->ki_pos, n, to);
		if (!IS_ERR(folio))
			folio_put(folio);
		done += copied;
		iocb->ki_pos += copied;
		if (copied < n) {
			if (!done)
				done = -EFAULT;
			break;
		}
		cond_resched();
	}
	file_accessed(iocb->ki_filp);
	return done;
}

/*
 * A fault on a hole adds a zeroed page, charged like a write's (a read
 * fault too, as on tmpfs); past the size limit, or past the end of the
 * file, the fault gets SIGBUS. The invalidate lock keeps a truncate out
 * between the size check and the page's arrival in the cache.
 */
static vm_fault_t ipat_fault(struct vm_fault *vmf)
{
	struct inode *inode = file_inode(vmf->vma->vm_file);
	struct address_space *mapping = inode->i_mapping;
	struct folio *folio;

	filemap_invalidate_lock_shared(mapping);
	if (vmf->pgoff >= DIV_ROUND_UP(i_size_read(inode), PAGE_SIZE))
		folio = ERR_PTR(-EINVAL);
	else
		folio = ipat_grab_folio(inode, vmf->pgoff);
	filemap_invalidate_unlock_shared(mapping);
	if (IS_ERR(folio))
		return vmf_error(PTR_ERR(folio));
	if (!folio_test_uptodate(folio)) {
		folio_zero_range(folio, 0, folio_size(folio));
		folio_mark_uptodate(folio);
		folio_mark_dirty(folio);
	}
	vmf->page = folio_file_page(folio, vmf->pgoff);
	return VM_FAULT_LOCKED;
}

/* generic_file_vm_ops with our ->fault: mkwrite still stamps mtime. */
static const struct vm_operations_struct ipat_file_vm_ops = {
	.fault		= ipat_fault,
	.map_pages	= filemap_map_pages,
	.page_mkwrite	= filemap_page_mkwrite,
};

static int ipat_file_mmap(struct file *file, struct vm_area_struct *vma)
{
	file_accessed(file);
	vma->vm_ops = &ipat_file_vm_ops;
	return 0;
}

/*
 * simple_setattr() copies only the times the caller asked for, and
 * truncate(2) asks for none. Like tmpfs, a truncate updates mtime and
 * ctime (notify_change() set both to now) when it changes the size, and
 * also at the same size when the file holds pages: tmpfs then still
 * truncates its pages from the size on (shmem_truncate_range()), which
 * stamps both.
 *
 * The pages a truncate frees are given back to the mount. Writes add pages
 * under i_rwsem, which the caller holds, and faults under the invalidate
 * lock, taken here: what the page cache held before less what it holds
 * after is what the truncate freed.
 */
static int ipat_file_setattr(struct mnt_idmap *idmap,
			     struct dentry *dentry, struct iattr *attr)
{
	struct inode *inode = d_inode(dentry);
	struct address_space *mapping = inode->i_mapping;
	unsigned long held;
	int err;

	if (!(attr->ia_valid & ATTR_SIZE))
		return ipat_setattr(idmap, dentry, attr);
	if (attr->ia_size != i_size_read(inode) || !mapping_empty(mapping))
		attr->ia_valid |= ATTR_MTIME | ATTR_CTIME;
	filemap_invalidate_lock(mapping);
	held = mapping->nrpages;
	err = ipat_setattr(idmap, dentry, attr);
	if (held != mapping->nrpages)
		ipat_uncharge_blocks(inode, held - mapping->nrpages);
	filemap_invalidate_unlock(mapping);
	return err;
}

/*
 * Hole punching (fallocate(FALLOC_FL_PUNCH_HOLE)) and preallocation are
 * not implemented: the VFS answers EOPNOTSUPP without ->fallocate. One
 * would take i_rwsem and the invalidate lock as ipat_file_setattr() does,
 * charge each page it adds through ipat_grab_folio() (ENOSPC when the
 * limit is reached, as tmpfs gives), and give back what a punch frees.
 */

const struct inode_operations ipat_file_iops = {
	.getattr	= ipat_getattr,
	.setattr	= ipat_file_setattr,
	.listxattr	= ipat_listxattr,
	.set_acl	= IPAT_IOP_SET_ACL,
	.fileattr_get	= ipat_fileattr_get,
	.fileattr_set	= ipat_fileattr_set,
};

const struct file_operations ipat_file_fops = {
	.read_iter	= ipat_file_read_iter,
	.write_iter	= generic_file_write_iter,
	.mmap		= ipat_file_mmap,
	.fsync		= noop_fsync,
	.splice_read	= copy_splice_read,
	.splice_write	= iter_file_splice_write,
	.llseek		= generic_file_llseek,
	.setlease	= generic_setlease,
};
