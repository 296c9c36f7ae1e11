// SPDX-License-Identifier: GPL-2.0
//
// Survey question 1, embedding: how struct inode is extended by embedding
// it in a larger structure. Reports, one "KIND|file|line|..." line each:
//   EMB      a struct with a member of type struct inode (the container)
//   UNION    a named union member of a struct (is the container a union
//            of per-filesystem members, as 2.4's inode was?)
//   SOPS     a super_operations initialiser's alloc_inode, free_inode,
//            destroy_inode method
//   ALLOC    a function returning &x->member: x's type is the container
//   ALLOCVAR what such a function allocates: x = alloc_inode_sb(...) etc.
//   ALLOCCALL  an alloc_inode-style function returning another's result
//   ACC      a function (the accessor) doing container_of(e, struct T, m)
//   UACC     a function returning &acc(e)->u.m: data in a union member
//   CTOR     a void f(void *) cache constructor calling inode_init_once()
// scripts/survey.sh runs it with --no-includes --include-headers; the
// joins (which struct holds the inode, which fs uses it) are done by
// survey/report.py, since one spatch run sees one file at a time.
// Function names are matched as sets, identifier f = {a, b}, not as
// regular expressions (=~ "^(a|b)$"), which Debian 13's spatch 1.3
// matched against nothing.

@initialize:python@
@@
def out(kind, p, *rest):
	print("|".join([kind, p[0].file, p[0].line] + [str(r) for r in rest]))

@emb@
identifier T, fld;
position p;
@@
struct T { ... struct inode fld@p; ... };

@script:python@
T << emb.T; fld << emb.fld; p << emb.p;
@@
out("EMB", p, T, fld)

@un@
identifier T, u;
position p;
@@
struct T { ... union { ... } u@p; ... };

@script:python@
T << un.T; u << un.u; p << un.p;
@@
out("UNION", p, T, u)

@sops_alloc@
identifier s, a;
position p;
@@
struct super_operations s@p = { ..., .alloc_inode = a, ... };

@script:python@
s << sops_alloc.s; a << sops_alloc.a; p << sops_alloc.p;
@@
out("SOPS", p, s, "alloc_inode", a)

@sops_free@
identifier s, a;
position p;
@@
struct super_operations s@p = { ..., .free_inode = a, ... };

@script:python@
s << sops_free.s; a << sops_free.a; p << sops_free.p;
@@
out("SOPS", p, s, "free_inode", a)

@sops_destroy@
identifier s, a;
position p;
@@
struct super_operations s@p = { ..., .destroy_inode = a, ... };

@script:python@
s << sops_destroy.s; a << sops_destroy.a; p << sops_destroy.p;
@@
out("SOPS", p, s, "destroy_inode", a)

// What an alloc_inode-style function hands back: the address of a member
// of a freshly allocated container.
@alloc@
identifier f, fld;
type T;
T *x;
position p;
@@
struct inode *f@p(...) { <+... return &x->fld; ...+> }

@script:python@
f << alloc.f; fld << alloc.fld; T << alloc.T; p << alloc.p;
@@
out("ALLOC", p, f, T, fld)

// The same through a nested member (afs, ceph, 9p, cifs: netfs.inode).
@alloc2@
identifier f, f1, fld;
type T;
T *x;
position p;
@@
struct inode *f@p(...) { <+... return &x->f1.fld; ...+> }

@script:python@
f << alloc2.f; f1 << alloc2.f1; fld << alloc2.fld; T << alloc2.T; p << alloc2.p;
@@
out("ALLOC", p, f, T, f1 + "." + fld)

// Or what it allocates: x = alloc_inode_sb(...), x's type the container.
@alloc3@
identifier f, al = {alloc_inode_sb, kmem_cache_alloc, kmem_cache_alloc_lru,
	kmem_cache_zalloc, kzalloc, kmalloc, kzalloc_obj, kmalloc_obj};
type T;
T *x;
position p;
@@
struct inode *f@p(...) { <+... x = al(...) ...+> }

@script:python@
f << alloc3.f; T << alloc3.T; p << alloc3.p;
@@
out("ALLOCVAR", p, f, T)

@alloc4@
identifier f, x, al = {alloc_inode_sb, kmem_cache_alloc, kmem_cache_alloc_lru,
	kmem_cache_zalloc, kzalloc, kmalloc, kzalloc_obj, kmalloc_obj};
type T;
position p;
@@
struct inode *f@p(...) { ... T *x = al(...); ... }

@script:python@
f << alloc4.f; T << alloc4.T; p << alloc4.p;
@@
out("ALLOCVAR", p, f, T)

@allocc@
identifier f, g;
position p;
@@
struct inode *f@p(...) { <+... return g(...); ...+> }

@script:python@
f << allocc.f; g << allocc.g; p << allocc.p;
@@
out("ALLOCCALL", p, f, g)

@acc@
identifier f, T, fld;
expression E;
position p;
@@
f@p(...) { <+... container_of(E, struct T, fld) ...+> }

@script:python@
f << acc.f; T << acc.T; fld << acc.fld; p << acc.p;
@@
out("ACC", p, f, T, fld)

@acc2@
identifier f, T, f1, fld;
expression E;
position p;
@@
f@p(...) { <+... container_of(E, struct T, f1.fld) ...+> }

@script:python@
f << acc2.f; T << acc2.T; f1 << acc2.f1; fld << acc2.fld; p << acc2.p;
@@
out("ACC", p, f, T, f1 + "." + fld)

@uacc@
identifier f, a, u, m;
expression E;
position p;
@@
f@p(...) { <+... return &a(E)->u.m; ...+> }

@script:python@
f << uacc.f; a << uacc.a; u << uacc.u; m << uacc.m; p << uacc.p;
@@
out("UACC", p, f, a, u, m)

@ctor@
identifier c, o, fld;
type T;
T *x;
position p;
@@
void c@p(void *o) { <+... inode_init_once(&x->fld); ...+> }

@script:python@
c << ctor.c; T << ctor.T; fld << ctor.fld; p << ctor.p;
@@
out("CTOR", p, c, T, fld)

@ctor2@
identifier c, o, f1, fld;
type T;
T *x;
position p;
@@
void c@p(void *o) { <+... inode_init_once(&x->f1.fld); ...+> }

@script:python@
c << ctor2.c; T << ctor2.T; f1 << ctor2.f1; fld << ctor2.fld; p << ctor2.p;
@@
out("CTOR", p, c, T, f1 + "." + fld)
