#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Join the survey's spatch output into tables: CSV files and survey.md.

scripts/survey.sh runs survey/embed.cocci and survey/iprivate.cocci over
each kernel source tree and then this script, once for all kernels:

  report.py --out DIR KERNEL...        KERNEL = label:package:version:tree:rawdir
  report.py --check TREE RAWDIR        print "fs-or-file pattern" lines only
                                       (tests/host/70-survey.sh)

rawdir holds embed.raw and iprivate.raw, the "KIND|file|line|..." lines the
.cocci files print. Everything written is sorted and has no timestamps.
"""
import collections
import csv
import os
import re
import subprocess
import sys

ALLOC_FREE_NOTE = "freed in its ->evict_inode/->free_inode/->destroy_inode"


def subsystem(path):
    """fs/<name>, or the first two path components elsewhere."""
    parts = path.split("/")
    if parts[0] == "fs" and len(parts) > 2:
        return "fs/" + parts[1]
    if parts[0] == "fs":
        return "fs/" + re.sub(r"\.[ch]$", "", parts[1])
    if len(parts) > 2:
        return parts[0] + "/" + parts[1]
    return parts[0]


def area(path):
    return path.split("/")[0] + "/"


def read_raw(path, tree):
    """The spatch lines, file names made relative to the tree."""
    rows = []
    prefix = os.path.normpath(tree) + "/"
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if "|" not in line:
                continue
            r = line.split("|")
            fn = os.path.normpath(r[1])
            if fn.startswith(prefix):
                fn = fn[len(prefix):]
            r[1] = fn
            rows.append(r)
    return rows


def struct_body(text, name):
    """The text between the braces of 'struct name {', or None."""
    m = re.search(r"^struct\s+" + re.escape(name) + r"\s*\{", text, re.M)
    if not m:
        return None, None
    depth, i = 1, m.end()
    start = i
    while i < len(text) and depth:
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
        i += 1
    return text[start:i - 1], text.count("\n", 0, m.start()) + 1


def strip_comments(s):
    s = re.sub(r"/\*.*?\*/", "", s, flags=re.S)
    s = re.sub(r"//[^\n]*", "", s)
    return re.sub(r"^\s*#[^\n]*(\\\n[^\n]*)*", "", s, flags=re.M)


def top_members(body):
    """Members at the top level of a struct body: (decl text, nested body)."""
    body = strip_comments(body)
    out, depth, cur, nested = [], 0, "", ""
    for ch in body:
        if ch == "{":
            depth += 1
            if depth == 1:
                nested = ""
                cur += "{"
                continue
        elif ch == "}":
            depth -= 1
            if depth == 0:
                cur += "}"
                continue
        if depth >= 1:
            nested += ch
            continue
        if ch == ";":
            d = " ".join(cur.split())
            if d:
                out.append((d, nested))
            cur, nested = "", ""
        else:
            cur += ch
    return out


def find_struct(tree, name, hint_files):
    for fn in hint_files:
        try:
            text = open(os.path.join(tree, fn), encoding="utf-8",
                        errors="replace").read()
        except OSError:
            continue
        body, line = struct_body(text, name)
        if body is not None:
            return fn, line, body
    res = subprocess.run(["grep", "-rlE", "--include=*.[ch]",
                          r"^struct " + name + r" \{", "."],
                         cwd=tree, capture_output=True, text=True)
    for fn in sorted(res.stdout.split()):
        fn = os.path.normpath(fn)
        text = open(os.path.join(tree, fn), encoding="utf-8",
                    errors="replace").read()
        body, line = struct_body(text, name)
        if body is not None:
            return fn, line, body
    return None, None, None


def strip_struct(t):
    return re.sub(r"^(const\s+)?struct\s+", "", t.strip())


# ---------------------------------------------------------------- question 1

def embedding(tree, raw):
    by = collections.defaultdict(list)
    for r in raw:
        by[r[0]].append(r)
    emb = {(r[3], r[4]): r for r in by["EMB"]}             # (T, fld)
    unions = collections.defaultdict(set)
    for r in by["UNION"]:
        unions[r[3]].add(r[4])
    alloc = collections.defaultdict(list)                   # fn -> (T, path, file)
    for r in by["ALLOC"]:
        alloc[r[3]].append((strip_struct(r[4]), r[5], r[1]))
    for r in by["ALLOCVAR"]:
        T = strip_struct(r[4])
        flds = [f for (t, f) in emb if t == T]
        alloc[r[3]].append((T, flds[0] if flds else "", r[1]))
    allocc = collections.defaultdict(set)
    for r in by["ALLOCCALL"]:
        allocc[(r[1], r[3])].add(r[4])
    acc = collections.defaultdict(set)                      # T -> accessors
    accfn = {}                                              # accessor -> T
    for r in by["ACC"]:
        last = r[5].split(".")[-1]
        acc[(r[4], r[5])].add(r[3])
        accfn.setdefault(r[3], set()).add(r[4])
    ctor = collections.defaultdict(set)
    for r in by["CTOR"]:
        ctor[strip_struct(r[4])].add(r[3])
    uacc = collections.defaultdict(set)                     # T -> union members used
    for r in by["UACC"]:
        for t in accfn.get(r[4], ()):
            if r[5] in unions.get(t, ()):
                uacc[t].add("%s.%s (%s)" % (r[5], r[6], r[3]))
    sops = collections.defaultdict(dict)
    for r in by["SOPS"]:
        sops[(r[1], r[3])][r[4]] = r[5]

    rows = []
    seen_types = set()
    for (fn, s), meth in sorted(sops.items()):
        a = meth.get("alloc_inode")
        if not a:
            continue
        cands = [c for c in alloc.get(a, []) if c[2] == fn] or alloc.get(a, [])
        via = ""
        if not cands:
            for g in sorted(allocc.get((fn, a), ())):
                if alloc.get(g):
                    cands = alloc[g]
                    via = g
                    break
        T, path = (cands[0][0], cands[0][1]) if cands else ("", "")
        rows.append(dict(sops_file=fn, sops=s, alloc_inode=a, via=via,
                         container=T, member=path,
                         free_inode=meth.get("free_inode", ""),
                         destroy_inode=meth.get("destroy_inode", "")))
        seen_types.add(T)
    # Containers with an accessor but no ->alloc_inode found for them.
    for (T, fld), r in sorted(emb.items()):
        if T not in seen_types and (acc.get((T, fld)) or ctor.get(T)):
            rows.append(dict(sops_file=r[1], sops="", alloc_inode="", via="",
                             container=T, member=fld, free_inode="",
                             destroy_inode=""))
            seen_types.add(T)

    hint = collections.defaultdict(list)
    for (T, fld), r in emb.items():
        hint[T].append(r[1])
    for row in rows:
        T = row["container"]
        row["accessor"] = " ".join(sorted(acc.get((T, row["member"]), ())))
        row["ctor"] = " ".join(sorted(ctor.get(T, ())))
        row["union"] = " ".join(sorted(uacc.get(T, ())))
        row["pattern"] = ("union" if row["union"] else
                          "embedding" if T else "unknown")
        row["subsystem"] = subsystem(row["sops_file"])
        defn, line, body = (find_struct(tree, T, hint[T] + [row["sops_file"]])
                            if T else (None, None, None))
        row["defined"] = "%s:%s" % (defn, line) if defn else ""
        mem = top_members(body) if body is not None else []
        row["members"] = str(len(mem)) if body is not None else ""
        row["union_fields"] = str(sum(1 for d, _ in mem if d.startswith("union")))
    return rows


# ---------------------------------------------------------------- question 2

SET_CLASSES = [
    ("extension", "allocated here, for this inode"),
    ("extension", ALLOC_FREE_NOTE),
    ("independent", "a parameter (create_file-style)"),
    ("independent", "the address of an existing object"),
    ("independent", "another inode's i_private"),
    ("other", "NULL (clearing it)"),
    ("other", "an integer cast to a pointer"),
    ("other", "other"),
]


def iprivate(raw):
    kinds = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in raw:
        key = (r[1], int(r[2]), int(r[3]))
        kinds[key][r[0]].append(r)
    evict_files = {k[0] for k, v in kinds.items() if "EVICT" in v}
    sites, excluded = [], 0
    for key in sorted(kinds):
        v = kinds[key]
        if "USE" not in v and "SET" not in v:
            continue
        types = {t[5] for t in v.get("TYPE", [])}
        types = {re.sub(r"^const\s+", "", t) for t in types}
        if types and "struct inode" not in types:
            excluded += 1          # another struct's own i_private field
            continue
        fn = (v.get("USE") or v.get("SET"))[0][4]
        if "SET" in v:
            val = v["SET"][0][5]
            if "SETALLOC" in v:
                c = SET_CLASSES[0]
            elif "SETPARAM" in v:
                c = SET_CLASSES[2]
            elif val == "NULL":
                c = SET_CLASSES[5]
            elif re.match(r"^\( ?void \* ?\) ?\( ?(unsigned long|uintptr_t|long) ?\)", val):
                c = SET_CLASSES[6]
            elif "SETCOPY" in v:
                c = SET_CLASSES[4]
            elif val.startswith("&"):
                c = SET_CLASSES[3]
            elif key[0] in evict_files:
                c = SET_CLASSES[1]
            else:
                c = SET_CLASSES[7]
            sites.append(dict(file=key[0], line=key[1], function=fn,
                              access="set", cls=c[0], how=c[1],
                              value=val))
        else:
            if "EVICT" in v:
                how = "read in ->%s" % v["EVICT"][0][5]
            elif "FREE" in v:
                how = "freed"
            elif "TOFILE" in v:
                how = "passed on to file->private_data"
            elif "TOSEQ" in v:
                how = "passed on to single_open()"
            elif "RET" in v:
                how = "returned (an accessor)"
            else:
                how = "read"
            sites.append(dict(file=key[0], line=key[1], function=fn,
                              access="read", cls="", how=how, value=""))
    # A subsystem's character: from its own assignments, or, with none, a
    # reader of pointers another subsystem stored (debugfs, proc, ...).
    per = collections.defaultdict(list)
    for s in sites:
        s["subsystem"] = subsystem(s["file"])
        per[s["subsystem"]].append(s)
    for sub, ss in per.items():
        classes = sorted({s["cls"] for s in ss if s["access"] == "set"})
        if "extension" in classes:
            ch = "extension"
        elif "independent" in classes:
            ch = "independent"
        elif classes:
            ch = "other"
        else:
            ch = "reader only"
        for s in ss:
            s["subsystem_class"] = ch
    return sites, excluded


def text_sites(tree, files):
    """Lines naming i_private as a word, in the files spatch looked at."""
    out = set()
    for fn in sorted(files):
        try:
            with open(os.path.join(tree, fn), encoding="utf-8",
                      errors="replace") as f:
                for n, line in enumerate(f, 1):
                    if re.search(r"\bi_private\b", line):
                        out.add((fn, n))
        except OSError:
            pass
    return out


# ---------------------------------------------------------------- question 3

UNION_NOTES = {
    "i_nlink": "every inode: read-only view of the link count",
    "__i_nlink": "every inode: the writable view (set_nlink() and friends)",
    "i_dentry": "a live inode: its aliases",
    "i_rcu": "a dead inode: the RCU head that frees it",
    "i_fop": "a live inode: its file operations",
    "free_inode": "a dead inode: the ->free_inode its RCU callback calls",
    "i_pipe": "a FIFO (S_ISFIFO)",
    "i_cdev": "a character device (S_ISCHR)",
    "i_link": "a symlink with its body in memory (S_ISLNK)",
    "i_dir_seq": "a directory (S_ISDIR): the dcache_readdir cursor sequence",
    "i_devices": "a character device (S_ISCHR): its place on its cdev's list",
    "i_linklen": "a symlink with its body in memory (S_ISLNK): the body's length",
    "i_bdev": "a block device (S_ISBLK)",
}


def inode_unions(tree):
    text = open(os.path.join(tree, "include/linux/fs.h"),
                encoding="utf-8", errors="replace").read()
    body, line = struct_body(text, "inode")
    mem = top_members(body)
    out = []
    for d, nested in mem:
        if not d.startswith("union"):
            continue
        names = []
        for m, _ in top_members(nested):
            name = re.findall(r"\(\s*\*\s*(\w+)\s*\)|(\w+)\s*(?:\[[^]]*\])?$", m)
            if name:
                names.append(name[-1][0] or name[-1][1])
        out.append(names)
    return out, len(mem), line


# ------------------------------------------------------------------ output

def write_csv(path, header, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        for r in rows:
            w.writerow(r)


def check(tree, rawdir):
    """One line per demo filesystem file: the pattern the survey sees."""
    emb = embedding(tree, read_raw(os.path.join(rawdir, "embed.raw"), tree))
    sites, _ = iprivate(read_raw(os.path.join(rawdir, "iprivate.raw"), tree))
    res = {}
    for r in emb:
        if r["alloc_inode"]:
            res[r["sops_file"]] = r["pattern"]
    for s in sites:
        if s["access"] == "set":
            res.setdefault(s["file"], "i_private " + s["cls"])
    for fn in sorted(res):
        print(fn, res[fn])


def main(argv):
    if argv[:1] == ["--check"]:
        check(argv[1], argv[2])
        return
    assert argv[0] == "--out"
    outdir = argv[1]
    kernels = []
    for k in argv[2:]:
        label, pkg, ver, tree, rawdir = k.split(":", 4)
        e = embedding(tree, read_raw(os.path.join(rawdir, "embed.raw"), tree))
        ip_raw = read_raw(os.path.join(rawdir, "iprivate.raw"), tree)
        sites, excluded = iprivate(ip_raw)
        files = {r[1] for r in ip_raw}
        txt = text_sites(tree, files)
        cocci = {(s["file"], s["line"]) for s in sites}
        other_struct = {(r[1], int(r[2])) for r in ip_raw if r[0] == "TYPE"}
        unmatched = sorted(txt - cocci - other_struct)
        un, nmem, uline = inode_unions(tree)
        kernels.append(dict(label=label, pkg=pkg, ver=ver, emb=e,
                            sites=sites, excluded=excluded,
                            unmatched=unmatched, unions=un, nmem=nmem,
                            uline=uline))

    os.makedirs(outdir, exist_ok=True)
    erows, irows, urows = [], [], []
    for k in kernels:
        for r in sorted(k["emb"], key=lambda r: (r["subsystem"], r["sops_file"],
                                                  r["sops"], r["container"])):
            erows.append([k["label"], r["subsystem"], r["pattern"],
                          r["sops_file"], r["sops"], r["alloc_inode"],
                          r["via"], r["container"], r["member"], r["defined"],
                          r["members"], r["union_fields"], r["accessor"],
                          r["ctor"], r["free_inode"], r["destroy_inode"],
                          r["union"]])
        for s in k["sites"]:
            irows.append([k["label"], s["subsystem"], s["file"], s["line"],
                          s["function"], s["access"], s["cls"], s["how"],
                          s["value"], s["subsystem_class"]])
        for i, names in enumerate(k["unions"], 1):
            for n in names:
                urows.append([k["label"], i, n, UNION_NOTES.get(n, "")])
    write_csv(os.path.join(outdir, "embedding.csv"),
              ["kernel", "subsystem", "pattern", "sops_file", "super_operations",
               "alloc_inode", "alloc_via", "container", "inode_member",
               "container_defined", "container_members", "container_unions",
               "accessor", "ctor_inode_init_once", "free_inode",
               "destroy_inode", "union_members_used"], erows)
    write_csv(os.path.join(outdir, "i_private.csv"),
              ["kernel", "subsystem", "file", "line", "function", "access",
               "class", "how", "value", "subsystem_class"], irows)
    write_csv(os.path.join(outdir, "inode-unions.csv"),
              ["kernel", "union", "member", "serves"], urows)
    with open(os.path.join(outdir, "survey.md"), "w", encoding="utf-8") as f:
        f.write(markdown(kernels))


def md_table(header, rows):
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join("---" for _ in header) + "|"]
    for r in rows:
        out.append("| " + " | ".join(str(c) for c in r) + " |")
    return "\n".join(out) + "\n"


def markdown(kernels):
    from survey_md import render
    return render(kernels, md_table, SET_CLASSES, UNION_NOTES)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main(sys.argv[1:])
