// SPDX-License-Identifier: GPL-2.0
/*
 * File data, kept as tmpfs keeps it: in the page cache and nowhere else,
 * each page charged to the mount's size= limit and to the file's i_blocks
 * (st_blocks) from the moment it is added until it leaves.
 *
 * Pages come only from ipat_grab_folio(), which charges before it adds: a
 * write (->write_begin, which a symlink's target goes through too), an
 * mmap fault on a hole (which tmpfs also fills with a page), and
 * fallocate(). A read of a hole adds nothing and reads zeros, as on tmpfs.
 * Pages leave by a truncate (ipat_file_setattr()), a punched hole, or when
 * the inode is evicted (ipat_evict_inode()), which give back what left. So
 * every page in the cache is charged, and i_blocks is the pages held, in
 * 512-byte units.
 *
 * A page that is not up to date holds no data yet: one fallocate() added,
 * or one a write or a fault is filling. Like tmpfs's, it reads as zeros and
 * SEEK_DATA/SEEK_HOLE see a hole there, though it is charged.
 */
#include <linux/fs.h>
#include <linux/falloc.h>
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

/*
 * No ->page_mkwrite, as tmpfs has none: the kernel then stamps mtime and
 * ctime when a store faults a page in, but a page a read fault mapped is
 * writable already, and a store to it stamps nothing, on tmpfs as here
 * (fstests' generic/080 fails on both). Our pages are dirty from the start
 * and never written back: there is nothing else for one to do.
 */
static const struct vm_operations_struct ipat_file_vm_ops = {
	.fault		= ipat_fault,
	.map_pages	= filemap_map_pages,
};

/*
 * O_DIRECT is taken, as tmpfs takes it (from 6.6): with no device under
 * the page cache there is nothing to bypass, and a direct write is a
 * buffered one.
 */
static int ipat_file_open(struct inode *inode, struct file *file)
{
	file->f_mode |= IPAT_FMODE_CAN_ODIRECT;
	return generic_file_open(inode, file);
}

static ssize_t ipat_file_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	iocb->ki_flags &= ~IOCB_DIRECT;
	return generic_file_write_iter(iocb, from);
}

static int ipat_file_mmap_prepare(struct vm_area_desc *desc)
{
	file_accessed(desc->file);
	desc->vm_ops = &ipat_file_vm_ops;
	return 0;
}

IPAT_MMAP_PREPARE_COMPAT(ipat_file_mmap_prepare)

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
 * SEEK_DATA and SEEK_HOLE over the page cache, which holds all there is:
 * data is an up-to-date page; a missing page, or one not up to date, is a
 * hole. The caller holds i_rwsem, so no write adds data meanwhile.
 * Return: the offset found, at most @end, or -ENXIO when SEEK_DATA finds
 * none before @end.
 */
static loff_t ipat_seek_hole_data(struct address_space *mapping, loff_t pos,
				  loff_t end, int whence)
{
	pgoff_t index = pos >> PAGE_SHIFT, last = (end - 1) >> PAGE_SHIFT;
	struct folio_batch fbatch;
	struct folio *folio;
	unsigned int i;
	bool data;

	folio_batch_init(&fbatch);
	while (filemap_get_folios(mapping, &index, last, &fbatch)) {
		for (i = 0; i < folio_batch_count(&fbatch); i++) {
			folio = fbatch.folios[i];
			data = folio_test_uptodate(folio);
			if (whence == SEEK_DATA && data) {
				pos = max(pos, folio_pos(folio));
				goto found;
			}
			if (whence == SEEK_HOLE) {
				/* A gap before this page, or this page. */
				if (!data || folio_pos(folio) > pos)
					goto found;
				pos = folio_pos(folio) + folio_size(folio);
			}
		}
		folio_batch_release(&fbatch);
		cond_resched();
	}
	/* No page from @pos on: no data, and a hole (or the end) at @pos. */
	return whence == SEEK_DATA ? -ENXIO : min(pos, end);
found:
	folio_batch_release(&fbatch);
	return pos;
}

static loff_t ipat_file_llseek(struct file *file, loff_t offset, int whence)
{
	struct inode *inode = file_inode(file);

	if (whence != SEEK_DATA && whence != SEEK_HOLE)
		return generic_file_llseek(file, offset, whence);
	if (offset < 0)
		return -ENXIO;
	inode_lock(inode);
	if (offset >= inode->i_size)
		offset = -ENXIO;
	else
		offset = ipat_seek_hole_data(inode->i_mapping, offset,
					     inode->i_size, whence);
	if (offset >= 0)
		offset = vfs_setpos(file, offset, MAX_LFS_FILESIZE);
	inode_unlock(inode);
	return offset;
}

/*
 * Gives back the pages in [@start, @end) that are not up to date: those a
 * failed fallocate() added, and, as tmpfs does, any an earlier one left
 * unwritten there; pages with data stay. The caller holds i_rwsem and the
 * invalidate lock: no write or fault can fill one meanwhile.
 */
static void ipat_unfallocate(struct inode *inode, pgoff_t start, pgoff_t end)
{
	struct address_space *mapping = inode->i_mapping;
	unsigned long held = mapping->nrpages;
	struct folio *folio;
	pgoff_t index;

	for (index = start; index < end; index++) {
		folio = filemap_get_folio(mapping, index);
		if (IS_ERR(folio))
			continue;
		if (!folio_test_uptodate(folio))
			truncate_inode_pages_range(mapping, folio_pos(folio),
						   folio_pos(folio) +
						   folio_size(folio) - 1);
		folio_put(folio);
	}
	ipat_uncharge_blocks(inode, held - mapping->nrpages);
}

/*
 * Preallocation: a page for each one missing in the range, charged, dirty
 * so that nothing drops it, and not up to date, so that it still reads as
 * a hole (as on tmpfs). Past the size limit, or on a fatal signal or an
 * allocation failure, what this call added is given back: ENOSPC leaves
 * the file as it was.
 */
static int ipat_allocate_range(struct inode *inode, int mode, loff_t offset,
			       loff_t len)
{
	pgoff_t start = offset >> PAGE_SHIFT;
	pgoff_t end = DIV_ROUND_UP(offset + len, PAGE_SIZE);
	struct folio *folio;
	pgoff_t index;
	int err;

	/* Even with KEEP_SIZE, as tmpfs: RLIMIT_FSIZE and s_maxbytes. */
	err = inode_newsize_ok(inode, offset + len);
	if (err)
		return err;
	for (index = start; index < end; index++) {
		folio = ERR_PTR(-EINTR);
		if (!fatal_signal_pending(current))
			folio = ipat_grab_folio(inode, index);
		if (IS_ERR(folio)) {
			filemap_invalidate_lock(inode->i_mapping);
			ipat_unfallocate(inode, start, index);
			filemap_invalidate_unlock(inode->i_mapping);
			return PTR_ERR(folio);
		}
		folio_mark_dirty(folio);
		folio_unlock(folio);
		folio_put(folio);
		cond_resched();
	}
	if (!(mode & FALLOC_FL_KEEP_SIZE) && offset + len > inode->i_size)
		i_size_write(inode, offset + len);
	return 0;
}

/*
 * A punched hole frees the whole pages in the range and zeros the parts of
 * pages at its ends, as a truncate does; what it frees is given back. Like
 * a truncate it stamps mtime and ctime.
 */
static void ipat_punch_hole(struct inode *inode, loff_t offset, loff_t len)
{
	struct address_space *mapping = inode->i_mapping;
	unsigned long held;

	filemap_invalidate_lock(mapping);
	held = mapping->nrpages;
	truncate_pagecache_range(inode, offset, offset + len - 1);
	ipat_uncharge_blocks(inode, held - mapping->nrpages);
	filemap_invalidate_unlock(mapping);
	inode_set_mtime_to_ts(inode, inode_set_ctime_current(inode));
}

/*
 * The modes tmpfs takes: allocate (with or without KEEP_SIZE) and punch a
 * hole (which the VFS accepts only with KEEP_SIZE).
 */
static long ipat_fallocate(struct file *file, int mode, loff_t offset,
			   loff_t len)
{
	struct inode *inode = file_inode(file);
	int err = 0;

	if (mode & ~(FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE))
		return -EOPNOTSUPP;
	inode_lock(inode);
	if (mode & FALLOC_FL_PUNCH_HOLE)
		ipat_punch_hole(inode, offset, len);
	else
		err = ipat_allocate_range(inode, mode, offset, len);
	if (!err)
		err = file_modified(file);
	inode_unlock(inode);
	return err;
}

const struct inode_operations ipat_file_iops = {
	.getattr	= ipat_getattr,
	.setattr	= ipat_file_setattr,
	.listxattr	= ipat_listxattr,
	.set_acl	= IPAT_IOP_SET_ACL,
	.fileattr_get	= ipat_fileattr_get,
	.fileattr_set	= ipat_fileattr_set,
};

const struct file_operations ipat_file_fops = {
	.open		= ipat_file_open,
	.read_iter	= ipat_file_read_iter,
	.write_iter	= ipat_file_write_iter,
	IPAT_MMAP_PREPARE(ipat_file_mmap_prepare),
	.fsync		= noop_fsync,
	.splice_read	= copy_splice_read,
	.splice_write	= iter_file_splice_write,
	.llseek		= ipat_file_llseek,
	.fallocate	= ipat_fallocate,
	.setlease	= generic_setlease,
};
