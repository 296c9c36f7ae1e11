# SPDX-License-Identifier: GPL-2.0
"""survey.md from the joined tables (survey/report.py calls render())."""
import collections
import os


def render(kernels, table, set_classes, notes):
    L = []
    w = L.append
    new = kernels[-1]
    w("# How today's kernel extends struct inode: the survey\n")
    w("The answer, with data, to the first exercise of *Object-oriented design "
      "patterns in the kernel, part 2* (LWN, 2011): *examine the consequences "
      "and wisdom of removing `i_private` from `struct inode`*. Made by "
      "`make survey` (scripts/survey.sh) with the semantic patches in "
      "survey/ (Coccinelle's spatch) from these Debian source packages:\n")
    w(table(["kernel", "source package", "version"],
            [[k["label"], k["pkg"], k["ver"]] for k in kernels]))
    w("Raw per-site lists: [embedding.csv](embedding.csv), "
      "[i_private.csv](i_private.csv), [inode-unions.csv](inode-unions.csv).\n")

    # -- summary
    w("## The answer in numbers\n")
    rows = []
    for k in kernels:
        e = [r for r in k["emb"] if r["alloc_inode"]]
        emb = {r["subsystem"] for r in e if r["pattern"] == "embedding"}
        sets = [s for s in k["sites"] if s["access"] == "set"]
        reads = [s for s in k["sites"] if s["access"] == "read"]
        files = {s["file"] for s in k["sites"]}
        subs = {s["subsystem"] for s in k["sites"]}
        ext = {s["subsystem"] for s in sets if s["cls"] == "extension"}
        rows.append([k["label"], len(e), len(emb),
                     len(sets) + len(reads), len(sets), len(reads),
                     len(files), len(subs), len(ext), len(k["unions"])])
    w(table(["kernel", "->alloc_inode methods", "users embedding struct inode",
             "i_private sites", "assignments", "reads", "files",
             "subsystems", "subsystems using it as an extension",
             "unions in struct inode"], rows))
    w("Removing `i_private` means changing every site of question 2: "
      "%d sites in %d files of %d subsystems on %s. Of those, only the "
      "subsystems whose assignments are an *extension* (below) use it for "
      "data inheritance and could embed instead, as %d users already do; "
      "the rest store a pointer to an object that lives on its own "
      "(debugfs, tracefs, securityfs, kernfs, ...): for them `i_private` is "
      "the article's *union of every pointer type*, and removing it means "
      "moving that pointer into each such filesystem's own inode container "
      "(tracefs has had one since 6.12 and debugfs since 7.x: section 4) and giving every reader an "
      "accessor instead of `inode->i_private` (most readers are drivers' "
      "`open()` methods: debugfs files).\n" % (
          rows[-1][3], rows[-1][6], rows[-1][7], new["label"], rows[-1][2]))

    # -- 1
    w("## 1. Embedding struct inode (%s)\n" % new["label"])
    w("One row per `super_operations` with an `->alloc_inode`, plus "
      "containers found without one. *container members*: top-level "
      "members of the container's definition, counted from the source "
      "(sizes need a compiled kernel and are not given). *ctor*: the "
      "kmem_cache constructor calling `inode_init_once()`.\n")
    rows = []
    for r in sorted(new["emb"], key=lambda r: (r["subsystem"], r["sops"],
                                                r["container"])):
        rows.append([r["subsystem"], r["pattern"], r["sops"] or "-",
                     r["alloc_inode"] + (" via " + r["via"] if r["via"] else ""),
                     r["container"] + ("." + r["member"] if r["member"] else ""),
                     r["members"], r["accessor"], r["ctor"],
                     r["free_inode"], r["destroy_inode"]])
    w(table(["user", "pattern", "super_operations", "->alloc_inode",
             "container.member", "container members", "accessor", "ctor",
             "->free_inode", "->destroy_inode"], rows))

    # -- 2
    w("## 2. i_private (%s)\n" % new["label"])
    w("Every assignment and read of `inode->i_private` spatch matched, "
      "classified as the article's *Problems with void pointers* tells them "
      "apart. An assignment is an **extension** (void-pointer data "
      "inheritance) when it stores an allocation made for the inode in the "
      "same function, or when the subsystem releases it in its "
      "`->evict_inode`/`->free_inode`/`->destroy_inode`; **independent** "
      "when it stores a pointer to an object that exists on its own: a "
      "parameter of a create_file-style function, the address of an "
      "existing object, another inode's `i_private`. A subsystem with reads "
      "only is a *reader*, nearly always of a debugfs file's data.\n")
    cnt = collections.Counter((s["cls"], s["how"]) for s in new["sites"]
                              if s["access"] == "set")
    w(table(["class", "assigned from", "assignments"],
            [[c, h, cnt.get((c, h), 0)] for c, h in set_classes]))
    rc = collections.Counter(s["how"] for s in new["sites"]
                             if s["access"] == "read")
    w(table(["read", "sites"], sorted(rc.items())))
    per = collections.defaultdict(list)
    for s in new["sites"]:
        per[s["subsystem"]].append(s)
    rows = []
    for sub in sorted(per):
        ss = per[sub]
        sets = [s for s in ss if s["access"] == "set"]
        rows.append([sub, ss[0]["subsystem_class"], len(sets),
                     len(ss) - len(sets), len({s["file"] for s in ss}),
                     ", ".join(sorted({"%s (%s)" % (s["how"], s["value"])
                                       for s in sets}))])
    w("What would have to change if `i_private` were removed, per "
      "subsystem:\n")
    w(table(["subsystem", "uses it as", "assignments", "reads", "files",
             "assigned from"], rows))
    area = collections.Counter(s["file"].split("/")[0] + "/"
                               for s in new["sites"])
    w(table(["tree", "sites"], sorted(area.items())))
    w("Not counted: %d occurrences of another structure's own `i_private` "
      "field (spatch knew the type). Lines naming `i_private` that spatch "
      "did not match as code (comments, macros): %d, listed here:\n" %
      (new["excluded"], len(new["unmatched"])))
    w("```\n" + "".join("%s:%d\n" % u for u in new["unmatched"]) + "```\n")

    # -- 3
    w("## 3. The unions left in struct inode\n")
    for k in kernels:
        w("%s: `struct inode` (include/linux/fs.h line %d) has %d top-level "
          "members, %d of them unions.\n" % (k["label"], k["uline"], k["nmem"],
                                              len(k["unions"])))
    rows = []
    for i, names in enumerate(new["unions"], 1):
        for n in names:
            rows.append([i, "`%s`" % n, notes.get(n, "")])
    w(table(["union", "member", "which inodes it serves"], rows))
    w("Each is a fixed, closed set of variants known to the VFS (the inode's "
      "type, or its live/dead state), the case where the article says a "
      "union is the right tool; none holds a filesystem's private data.\n")

    # -- 4
    if len(kernels) > 1:
        old = kernels[0]
        w("## 4. What changed from %s to %s\n" % (old["label"], new["label"]))
        w("The counts of *The answer in numbers*, side by side, are above. "
          "Users of `->alloc_inode` (by subsystem, super_operations, "
          "container):\n")

        def key(r):
            return (r["subsystem"], r["sops"])

        def desc(r):
            return "%s %s%s ctor=%s free=%s destroy=%s" % (
                r["pattern"], r["container"],
                "." + r["member"] if r["member"] else "", r["ctor"] or "-",
                r["free_inode"] or "-", r["destroy_inode"] or "-")
        a = {key(r): desc(r) for r in old["emb"] if r["alloc_inode"]}
        b = {key(r): desc(r) for r in new["emb"] if r["alloc_inode"]}
        rows = []
        for kk in sorted(set(a) | set(b)):
            if a.get(kk) != b.get(kk):
                st = ("added" if kk not in a else "removed" if kk not in b
                      else "changed")
                rows.append([kk[0], kk[1], st, a.get(kk, ""), b.get(kk, "")])
        w(table(["user", "super_operations", "", old["label"], new["label"]],
                rows))
        w("`i_private` sites per subsystem, where they differ:\n")
        ca = collections.Counter(s["subsystem"] for s in old["sites"])
        cb = collections.Counter(s["subsystem"] for s in new["sites"])
        rows = [[s, ca.get(s, 0), cb.get(s, 0)] for s in sorted(set(ca) | set(cb))
                if ca.get(s, 0) != cb.get(s, 0)]
        w(table(["subsystem", old["label"], new["label"]], rows))
        ua = ["/".join(n) for n in old["unions"]]
        ub = ["/".join(n) for n in new["unions"]]
        w("Unions in struct inode: %s: %s; %s: %s.\n" % (
            old["label"], "; ".join(ua), new["label"], "; ".join(ub)))

    spot = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "spot-checks.md")
    if os.path.exists(spot):
        w(open(spot, encoding="utf-8").read())
    return "\n".join(L)
