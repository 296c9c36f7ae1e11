// SPDX-License-Identifier: GPL-2.0
//
// Survey question 2: every assignment to and read of inode->i_private, with
// what the article's "Problems with void pointers" needs to tell its uses
// apart. One "KIND|file|line|function|..." line each:
//   SET       every assignment, and what is assigned
//   SETALLOC  ... of a fresh allocation made for it: directly, or through a
//             local assigned from an allocator earlier in the same function
//             (void-pointer data inheritance: an extension of the inode)
//   SETPARAM  ... of a parameter of the function (an object that exists
//             independently: the debugfs/proc "union of every pointer type")
//   SETCOPY   ... of another inode's i_private
//   USE       every occurrence (assignments included; report.py subtracts)
//   FREE      an occurrence passed to a free function
//   TOFILE    an occurrence stored in a struct file's private_data
//   TOSEQ     an occurrence passed to single_open()/single_open_size()
//   RET       an occurrence returned as is (a VOIDFS_I()-style accessor)
//   EVICT     an occurrence in the file's ->evict_inode, ->free_inode or
//             ->destroy_inode (released with the inode: an extension)
//   TYPE      the type of the object whose i_private it is, where spatch
//             knows it (other structs have an i_private of their own)
// Function names are matched as sets, identifier f = {a, b}, not as
// regular expressions (=~ "^(a|b)$"), which Debian 13's spatch 1.3
// matched against nothing.

@initialize:python@
@@
def out(kind, p, *rest):
	fn = p[0].current_element
	print("|".join([kind, p[0].file, p[0].line, p[0].column, fn] +
		       [str(r).replace("|", "/").replace("\n", " ") for r in rest]))

@set@
expression E, V;
position p;
@@
(
E->i_private@p = V
|
E.i_private@p = V
)

@script:python@
p << set.p; V << set.V;
@@
out("SET", p, V)

@setalloc1@
expression E;
identifier al = {kmalloc, kzalloc, kcalloc, kmalloc_array, kmalloc_obj,
	kmalloc_objs, kzalloc_obj, kzalloc_objs, kmalloc_flex, kzalloc_flex,
	kvmalloc_obj, kvmalloc_objs, kvzalloc_obj, kvzalloc_objs, kvmalloc, kvzalloc,
	kvcalloc, vmalloc, vzalloc, kmem_cache_alloc, kmem_cache_zalloc, kmemdup,
	kstrdup, kstrndup, kasprintf, kmalloc_node, kzalloc_node,
	kmem_cache_alloc_node, __get_free_page, get_zeroed_page, alloc_pages};
position p;
@@
(
E->i_private@p = al(...)
|
E.i_private@p = al(...)
)

@script:python@
p << setalloc1.p; al << setalloc1.al;
@@
out("SETALLOC", p, al)

@setalloc2@
expression E, x;
identifier al = {kmalloc, kzalloc, kcalloc, kmalloc_array, kmalloc_obj,
	kmalloc_objs, kzalloc_obj, kzalloc_objs, kmalloc_flex, kzalloc_flex,
	kvmalloc_obj, kvmalloc_objs, kvzalloc_obj, kvzalloc_objs, kvmalloc, kvzalloc,
	kvcalloc, vmalloc, vzalloc, kmem_cache_alloc, kmem_cache_zalloc, kmemdup,
	kstrdup, kstrndup, kasprintf, kmalloc_node, kzalloc_node,
	kmem_cache_alloc_node, __get_free_page, get_zeroed_page, alloc_pages};
position p;
@@
x = al(...);
... when any
(
E->i_private@p = x
|
E.i_private@p = x
|
E->i_private@p = (void *)x
)

@script:python@
p << setalloc2.p; al << setalloc2.al;
@@
out("SETALLOC", p, al)

@setparam@
identifier f, prm;
type T;
expression E;
position p;
@@
f(..., T prm, ...) { <+...
(
E->i_private@p = prm
|
E.i_private@p = prm
|
E->i_private@p = (void *)prm
)
...+> }

@script:python@
p << setparam.p; prm << setparam.prm;
@@
out("SETPARAM", p, prm)

@setcopy@
expression E, E2;
position p;
@@
(
E->i_private@p = E2->i_private
|
E.i_private@p = E2->i_private
)

@script:python@
p << setcopy.p;
@@
out("SETCOPY", p)

@use@
expression E;
position p;
@@
(
E->i_private@p
|
E.i_private@p
)

@script:python@
p << use.p;
@@
out("USE", p)

@free@
expression E;
identifier fr = {kfree, kvfree, vfree, kfree_sensitive, kmem_cache_free,
	kfree_rcu, free_page};
position p;
@@
fr(...,
(
E->i_private@p
|
E.i_private@p
)
, ...)

@script:python@
p << free.p; fr << free.fr;
@@
out("FREE", p, fr)

@freelocal@
expression E;
identifier x;
identifier fr = {kfree, kvfree, vfree, kfree_sensitive, kmem_cache_free,
	kfree_rcu, free_page};
position p;
@@
(
x = E->i_private@p;
|
x = E.i_private@p;
)
... when any
fr(..., x, ...);

@script:python@
p << freelocal.p; fr << freelocal.fr;
@@
out("FREE", p, fr)

@freedecl@
expression E;
identifier x;
type T;
identifier fr = {kfree, kvfree, vfree, kfree_sensitive, kmem_cache_free,
	kfree_rcu, free_page};
position p;
@@
T x = E->i_private@p;
... when any
fr(..., x, ...);

@script:python@
p << freedecl.p; fr << freedecl.fr;
@@
out("FREE", p, fr)

@sop_evict_inode@
identifier s, ev;
@@
struct super_operations s = { ..., .evict_inode = ev, ... };

@use_evict_inode@
identifier sop_evict_inode.ev;
expression E;
position p;
@@
ev(...) { <+...
(
E->i_private@p
|
E.i_private@p
)
...+> }

@script:python@
p << use_evict_inode.p;
@@
out("EVICT", p, "evict_inode")

@sop_free_inode@
identifier s, ev;
@@
struct super_operations s = { ..., .free_inode = ev, ... };

@use_free_inode@
identifier sop_free_inode.ev;
expression E;
position p;
@@
ev(...) { <+...
(
E->i_private@p
|
E.i_private@p
)
...+> }

@script:python@
p << use_free_inode.p;
@@
out("EVICT", p, "free_inode")

@sop_destroy_inode@
identifier s, ev;
@@
struct super_operations s = { ..., .destroy_inode = ev, ... };

@use_destroy_inode@
identifier sop_destroy_inode.ev;
expression E;
position p;
@@
ev(...) { <+...
(
E->i_private@p
|
E.i_private@p
)
...+> }

@script:python@
p << use_destroy_inode.p;
@@
out("EVICT", p, "destroy_inode")

@typ@
type T;
T *E;
position p;
@@
E->i_private@p

@script:python@
p << typ.p; T << typ.T;
@@
out("TYPE", p, T)

@typs@
type T;
T E;
position p;
@@
E.i_private@p

@script:python@
p << typs.p; T << typs.T;
@@
out("TYPE", p, T)

@tofile@
expression E, F;
position p;
@@
(
F->private_data = E->i_private@p
|
F->private_data = E.i_private@p
)

@script:python@
p << tofile.p;
@@
out("TOFILE", p)

@toseq@
expression E, F, S;
identifier so = {single_open, single_open_size};
position p;
@@
so(F, S, E->i_private@p, ...)

@script:python@
p << toseq.p; so << toseq.so;
@@
out("TOSEQ", p, so)

@ret@
expression E;
position p;
@@
(
return E->i_private@p;
|
return E.i_private@p;
)

@script:python@
p << ret.p;
@@
out("RET", p)
