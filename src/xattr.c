// SPDX-License-Identifier: GPL-2.0
/*
 * Extended attributes in the user., trusted. and security. namespaces, kept
 * in the inode's private payload. Linux 6.1 exports only the inline parts of
 * the kernel's simple_xattr store to modules, hence this small store of our
 * own.
 *
 * The VFS has already checked names (at most XATTR_NAME_MAX), sizes (at most
 * XATTR_SIZE_MAX) and permissions (trusted.* needs CAP_SYS_ADMIN, user.* is
 * only for regular files and directories, security.* is the LSMs' to allow)
 * before these handlers run.
 *
 * security.* is stored like the others, as tmpfs stores it, so that setcap
 * (security.capability), an LSM's label and overlayfs's copy-up of a
 * labelled file work; the label an LSM gives a new inode is stored through
 * ipat_init_security() when the inode is created.
 *
 * The attributes of an inode sit in a red-black tree ordered by name, so a
 * lookup is O(log n) however many names an inode has (up to XATTR_LIST_MAX
 * bytes of them, some thousands), and listxattr() lists them sorted, as
 * tmpfs does. What each attribute costs counts against the mount's
 * max_xattr_bytes (ENOSPC beyond it; a new inode's labels are counted
 * even past it) and in the type's statistics.
 */
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/posix_acl_xattr.h>
#include <linux/rbtree.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/xattr.h>

#include "ipat.h"

/**
 * struct ipat_xattr - one extended attribute
 * @node: in &ipat_xattrs.tree, ordered by @name
 * @name: full name, prefix included; points into @value after the value
 * @size: length of the value
 * @value: the value, followed by the NUL-terminated name
 */
struct ipat_xattr {
	struct rb_node node;
	const char *name;
	size_t size;
	char value[];
};

#define ipat_xattr_of(n)	rb_entry((n), struct ipat_xattr, node)

/* What the attribute costs, against max_xattr_bytes and in xattr_bytes. */
static size_t ipat_xattr_bytes(const struct ipat_xattr *xattr)
{
	return xattr ? struct_size(xattr, value,
				   xattr->size + strlen(xattr->name) + 1) : 0;
}

void ipat_xattrs_init(struct ipat_xattrs *xattrs)
{
	spin_lock_init(&xattrs->lock);
	xattrs->tree = RB_ROOT;
	xattrs->names_len = 0;
}

/**
 * ipat_xattrs_free - free an inode's attributes and give their bytes back
 * @sb: the inode's superblock
 * @xattrs: the attributes
 *
 * Called at eviction, when nobody else can reach the inode any more.
 */
void ipat_xattrs_free(struct super_block *sb, struct ipat_xattrs *xattrs)
{
	struct ipat_xattr *xattr, *next;
	size_t bytes = 0;

	/* Most inodes have none: no mount lock, no atomic, on every evict. */
	if (RB_EMPTY_ROOT(&xattrs->tree))
		return;
	rbtree_postorder_for_each_entry_safe(xattr, next, &xattrs->tree, node) {
		bytes += ipat_xattr_bytes(xattr);
		kvfree(xattr);
	}
	xattrs->tree = RB_ROOT;
	xattrs->names_len = 0;
	atomic_long_sub(bytes, &ipat_type(sb)->stats.xattr_bytes);
	ipat_uncharge_xattr(sb, bytes);
}

static int ipat_xattr_cmp(const void *name, const struct rb_node *node)
{
	return strcmp(name, ipat_xattr_of(node)->name);
}

static bool ipat_xattr_less(struct rb_node *a, const struct rb_node *b)
{
	return ipat_xattr_cmp(ipat_xattr_of(a)->name, b) < 0;
}

static struct ipat_xattr *ipat_xattr_find(struct ipat_xattrs *xattrs,
					  const char *name)
{
	struct rb_node *node = rb_find(name, &xattrs->tree, ipat_xattr_cmp);

	return node ? ipat_xattr_of(node) : NULL;
}

/* One allocation holds the entry, its value and its name. */
static struct ipat_xattr *ipat_xattr_alloc(const char *name,
					   const void *value, size_t size)
{
	size_t name_len = strlen(name) + 1;
	struct ipat_xattr *xattr;
	char *name_copy;

	xattr = kvmalloc(struct_size(xattr, value, size + name_len),
			 GFP_KERNEL_ACCOUNT);
	if (!xattr)
		return NULL;
	memcpy(xattr->value, value, size);
	name_copy = xattr->value + size;
	memcpy(name_copy, name, name_len);
	xattr->name = name_copy;
	xattr->size = size;
	return xattr;
}

static int ipat_xattr_get(const struct xattr_handler *handler,
			  struct dentry *unused, struct inode *inode,
			  const char *suffix, void *buffer, size_t size)
{
	struct ipat_xattrs *xattrs = &ipat_payload(inode)->xattrs;
	const char *name = xattr_full_name(handler, suffix);
	struct ipat_xattr *xattr;
	int ret;

	spin_lock(&xattrs->lock);
	xattr = ipat_xattr_find(xattrs, name);
	if (!xattr) {
		ret = -ENODATA;
	} else if (!buffer) {
		ret = xattr->size;
	} else if (size < xattr->size) {
		ret = -ERANGE;
	} else {
		memcpy(buffer, xattr->value, xattr->size);
		ret = xattr->size;
	}
	spin_unlock(&xattrs->lock);
	return ret;
}

/*
 * A MAC label (security.selinux, security.SMACK64, ...) that is also stored
 * is listed by the LSM already, first; as on 6.12's tmpfs it is not listed
 * twice.
 */
static bool ipat_xattr_is_maclabel(const char *name)
{
	return !strncmp(name, XATTR_SECURITY_PREFIX, XATTR_SECURITY_PREFIX_LEN) &&
	       security_ismaclabel(name + XATTR_SECURITY_PREFIX_LEN);
}

/*
 * The length of the names the LSMs list for @inode, as listxattr() counts
 * them without a buffer: none when they fail to say.
 */
static size_t ipat_lsm_names_len(struct inode *inode)
{
	ssize_t remaining = 0;
	char *none = NULL;

	if (security_inode_listsecurity(inode, &none, &remaining))
		return 0;
	return -remaining;
}

/*
 * The names of the inode's POSIX ACLs, appended at *@buf (when it is not
 * NULL), their length taken from *@remaining, as posix_acl_listxattr(),
 * which the kernel does not export, lists them for tmpfs.
 * Return: 0, or -ERANGE when they do not fit.
 */
static int ipat_acl_listxattr(struct inode *inode, char **buf,
			      ssize_t *remaining)
{
	static const char * const names[] = {
		XATTR_NAME_POSIX_ACL_ACCESS, XATTR_NAME_POSIX_ACL_DEFAULT
	};
	struct posix_acl *acls[] = { inode->i_acl, inode->i_default_acl };
	size_t len;
	int i;

	if (!IS_POSIXACL(inode))
		return 0;
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (!acls[i])
			continue;
		len = strlen(names[i]) + 1;
		if (*buf) {
			if (*remaining < (ssize_t)len)
				return -ERANGE;
			memcpy(*buf, names[i], len);
			*buf += len;
		}
		*remaining -= len;
	}
	return 0;
}

/*
 * The length of the names listxattr() lists before the store's: the
 * ACLs' and the LSMs', as counted without a buffer (none from an LSM that
 * fails to say).
 */
static size_t ipat_names_before_len(struct inode *inode)
{
	ssize_t remaining = 0;
	char *none = NULL;

	ipat_acl_listxattr(inode, &none, &remaining);
	return ipat_lsm_names_len(inode) - remaining;
}

/*
 * May @new (NULL: a removal), whose name takes @list_len in a listing from
 * the store, take the place of @old (NULL: none), on an inode whose ACL
 * and LSM names take @lsm_len? Called under the store's lock.
 * Return: 0 or the errno.
 */
static int ipat_xattr_check(const struct ipat_xattrs *xattrs,
			    const struct ipat_xattr *old,
			    const struct ipat_xattr *new, size_t list_len,
			    size_t lsm_len, int flags)
{
	if (old && (flags & XATTR_CREATE))
		return -EEXIST;
	if (!old && (flags & XATTR_REPLACE))
		return -ENODATA;
	if (!old && !new)
		return -ENODATA;	/* removal of a missing attribute */
	/*
	 * Past this, listxattr() could not return the names at all (E2BIG),
	 * the LSM's among them, and cp -a, tar --xattrs and backups would
	 * fail on the file: refuse the name, as the kernel's filesystems do.
	 */
	if (!old && lsm_len + xattrs->names_len + list_len > XATTR_LIST_MAX)
		return -ENOSPC;
	return 0;
}

/**
 * __ipat_xattr_store - set, replace or remove one attribute
 * @inode: the inode
 * @name: the attribute's full name, prefix included
 * @value: the new value, or NULL to remove the attribute
 * @size: its length
 * @flags: XATTR_CREATE, XATTR_REPLACE or 0, as setxattr() takes them
 * @force: count its bytes even past max_xattr_bytes (a new inode's label)
 *
 * Return: 0, or -EEXIST, -ENODATA, -ENOSPC or -ENOMEM with nothing changed.
 */
static int __ipat_xattr_store(struct inode *inode, const char *name,
			      const void *value, size_t size, int flags,
			      bool force)
{
	struct ipat_fs_type *type = ipat_type(inode->i_sb);
	struct ipat_xattrs *xattrs = &ipat_payload(inode)->xattrs;
	/* A MAC label is in @lsm_len already: counted there, not here too. */
	size_t list_len = ipat_xattr_is_maclabel(name) ? 0 : strlen(name) + 1;
	struct ipat_xattr *new = NULL, *old;
	size_t old_bytes, new_bytes = 0;
	size_t lsm_len = 0;
	int err;

	if (value) {
		new = ipat_xattr_alloc(name, value, size);
		if (!new)
			return -ENOMEM;
		new_bytes = ipat_xattr_bytes(new);
		/* What ipat_listxattr() lists first; a removal needs no room. */
		lsm_len = ipat_names_before_len(inode);
	}

	spin_lock(&xattrs->lock);
	old = ipat_xattr_find(xattrs, name);
	old_bytes = ipat_xattr_bytes(old);
	err = ipat_xattr_check(xattrs, old, new, list_len, lsm_len, flags);
	/*
	 * Only growth is charged, under the lock, so that a value replaced
	 * by one no larger always fits.
	 */
	if (!err && new_bytes > old_bytes && force)
		ipat_force_xattr(inode->i_sb, new_bytes - old_bytes);
	else if (!err && new_bytes > old_bytes &&
		 !ipat_charge_xattr(inode->i_sb, new_bytes - old_bytes))
		err = -ENOSPC;
	if (!err && old && new) {
		rb_replace_node(&old->node, &new->node, &xattrs->tree);
	} else if (!err && old) {
		rb_erase(&old->node, &xattrs->tree);
		xattrs->names_len -= list_len;
	} else if (!err) {
		rb_add(&new->node, &xattrs->tree, ipat_xattr_less);
		xattrs->names_len += list_len;
	}
	spin_unlock(&xattrs->lock);

	if (err) {
		kvfree(new);
		return err;
	}
	/* Growth was charged above; give back a shrinkage. */
	if (old_bytes > new_bytes)
		ipat_uncharge_xattr(inode->i_sb, old_bytes - new_bytes);
	atomic_long_add((long)new_bytes - (long)old_bytes,
			&type->stats.xattr_bytes);
	kvfree(old);
	return 0;
}

static int ipat_xattr_store(struct inode *inode, const char *name,
			    const void *value, size_t size, int flags)
{
	return __ipat_xattr_store(inode, name, value, size, flags, false);
}

/* A NULL @value removes the attribute, as removexattr() asks. */
static int ipat_xattr_set(const struct xattr_handler *handler,
			  struct mnt_idmap *idmap,
			  struct dentry *unused, struct inode *inode,
			  const char *suffix, const void *value, size_t size,
			  int flags)
{
	int err = ipat_xattr_store(inode, xattr_full_name(handler, suffix),
				   value, size, flags);

	if (!err)
		inode_set_ctime_current(inode);
	return err;
}

/*
 * The callback of security_inode_init_security(): stores the attributes
 * the LSMs give a new inode (their names come without "security."). On an
 * error the caller drops the inode, whose eviction frees what was stored.
 *
 * They are counted in max_xattr_bytes' use, but forced past the limit:
 * under an LSM that labels, a mount with max_xattr_bytes=0 or a full one
 * must still create inodes (tmpfs pays labels from the space each inode
 * brings). What users set stays bounded: it fails once labels fill it.
 */
static int ipat_initxattrs(struct inode *inode, const struct xattr *xattrs,
			   void *unused)
{
	char name[XATTR_NAME_MAX + 1];
	const struct xattr *xattr;
	int err;

	for (xattr = xattrs; xattr->name; xattr++) {
		if (snprintf(name, sizeof(name), XATTR_SECURITY_PREFIX "%s",
			     xattr->name) >= sizeof(name))
			return -ENAMETOOLONG;
		err = __ipat_xattr_store(inode, name, xattr->value,
					 xattr->value_len, XATTR_CREATE, true);
		if (err)
			return err;
	}
	return 0;
}

/**
 * ipat_init_security - give a new inode the labels the LSMs want it to have
 * @inode: the new inode, not yet visible
 * @dir: its parent directory
 * @name: its name, or NULL for an O_TMPFILE inode
 *
 * Called on every path that creates an inode, as tmpfs does. No LSM with
 * labels to give is not an error: security_inode_init_security() itself
 * turns the -EOPNOTSUPP of such an LSM into 0.
 *
 * Return: 0 or the errno; on an error the caller drops the inode.
 */
int ipat_init_security(struct inode *inode, struct inode *dir,
		       const struct qstr *name)
{
	return security_inode_init_security(inode, dir, name, ipat_initxattrs,
					    NULL);
}

ssize_t ipat_listxattr(struct dentry *dentry, char *buf, size_t size)
{
	struct inode *inode = d_inode(dentry);
	struct ipat_xattrs *xattrs = &ipat_payload(inode)->xattrs;
	/* trusted.* names are listed only to those who may read them. */
	bool trusted = ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN);
	ssize_t remaining = size;
	struct rb_node *node;
	int err;

	/*
	 * The ACLs' names, then those an LSM keeps for the inode
	 * (security.selinux, say) come first, as simple_xattr_list() puts
	 * them on tmpfs: without them a copy of the file would lose its ACLs
	 * or its label. Each name appended moves @buf on and takes its
	 * length from @remaining, which without a buffer goes below 0 and so
	 * counts what a listing needs.
	 */
	err = ipat_acl_listxattr(inode, &buf, &remaining);
	if (!err)
		err = security_inode_listsecurity(inode, &buf, &remaining);
	if (err)
		return err;

	spin_lock(&xattrs->lock);
	for (node = rb_first(&xattrs->tree); node; node = rb_next(node)) {
		const char *name = ipat_xattr_of(node)->name;
		size_t len = strlen(name) + 1;

		if (!trusted && !strncmp(name, XATTR_TRUSTED_PREFIX,
					 XATTR_TRUSTED_PREFIX_LEN))
			continue;
		if (ipat_xattr_is_maclabel(name))
			continue;
		if (buf) {
			if (remaining < (ssize_t)len) {
				err = -ERANGE;
				break;
			}
			memcpy(buf, name, len);
			buf += len;
		}
		remaining -= len;
	}
	spin_unlock(&xattrs->lock);
	return err ?: size - remaining;
}

static const struct xattr_handler ipat_user_xattr_handler = {
	.prefix	= XATTR_USER_PREFIX,
	.get	= ipat_xattr_get,
	.set	= ipat_xattr_set,
};

static const struct xattr_handler ipat_trusted_xattr_handler = {
	.prefix	= XATTR_TRUSTED_PREFIX,
	.get	= ipat_xattr_get,
	.set	= ipat_xattr_set,
};

static const struct xattr_handler ipat_security_xattr_handler = {
	.prefix	= XATTR_SECURITY_PREFIX,
	.get	= ipat_xattr_get,
	.set	= ipat_xattr_set,
};

const struct xattr_handler * const ipat_xattr_handlers[] = {
	&ipat_user_xattr_handler,
	&ipat_trusted_xattr_handler,
	&ipat_security_xattr_handler,
#ifdef CONFIG_TMPFS_POSIX_ACL
	/* The VFS's own handlers of the ACLs' names, before 6.2. */
	IPAT_ACL_XATTR_HANDLERS
#endif
	NULL
};
