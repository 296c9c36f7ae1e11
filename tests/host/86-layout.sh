#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The sizes of structures that README.md and docs/*.md state must be what
# pahole reads from the module built for each Debian kernel
# (build/<kver>/inode_patterns.ko, built first if missing or older than
# the sources).
#
#   tests/host/86-layout.sh          check README.md and docs/*.md
#   tests/host/86-layout.sh DIR      check DIR/README.md and DIR/docs/*.md
#                                    instead (a modified copy: must fail)
#
# A size statement is found on one line of Markdown as a structure's name
# followed, later on the same line, by "N bytes":
#   - the name is `struct NAME` (any NAME pahole knows in the module) or a
#     bare NAME of a structure this project defines (struct NAME { in
#     src/ or include/, e.g. embedfs_inode_info, union_inode), as a whole
#     word, with or without backticks;
#   - "N bytes" belongs to the last such name before it on the line;
#   - right after it, "(6.1)" or "on 6.1[...]" (any series) ties it to
#     that kernel series, whose size it must equal; otherwise it must equal
#     the size on one of the kernels;
#   - differences are not sizes: "by N bytes", "+ N bytes", "N bytes
#     more|less|over|larger|smaller|of" are skipped.
# "struct inode is 632 bytes on 6.1" and "(`struct ipat_payload`, 40 bytes)"
# are statements; in "776 bytes (6.1) / 768 (6.12)" only 776 is one.
set -eu
cd "$(dirname "$0")/../.."
docs=${1:-.}
command -v pahole >/dev/null || scripts/install-deps.sh dwarves >/dev/null

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mapfile -t kernels < <(scripts/find-kernel.sh --all)
[ ${#kernels[@]} -gt 0 ] || { echo "FAIL: no Debian kernel with headers and image"; exit 1; }
for kver in "${kernels[@]}"; do
	ko=build/$kver/inode_patterns.ko
	newer=$(find src include Kbuild -newer "$ko" -print -quit 2>/dev/null || echo missing)
	if [ ! -f "$ko" ] || [ -n "$newer" ]; then
		rc=0
		scripts/build-module.sh "$kver" "$kver" >/dev/null || rc=$?
		[ "$rc" = 0 ] || [ "$rc" = 3 ] || { echo "FAIL: the module does not build for $kver"; exit 1; }
	fi
	echo "$kver $(scripts/find-kernel.sh --series "$kver") $ko"
done >"$tmp/kernels"

files=("$docs/README.md")
for f in "$docs"/docs/*.md; do [ -f "$f" ] && files+=("$f"); done
own=$(sed -n 's/^struct \([a-z_0-9]*\) {.*/\1/p' src/*.c src/*.h include/*.h 2>/dev/null | sort -u | tr '\n' ' ')

python3 - "$tmp/kernels" "$own" "${files[@]}" <<'EOF'
import re, subprocess, sys

kernels = [l.split() for l in open(sys.argv[1])]
own = sys.argv[2].split()
files = sys.argv[3:]
names = r"struct\s+`?(\w+)`?" + ("|`?\\b(" + "|".join(own) + r")\b`?" if own else "")
name_re = re.compile(names)
size_re = re.compile(r"(\bby\s+|\+\s*)?\b(\d+) bytes\b(\s+(?:more|less|over|larger|smaller|of)\b)?"
                     r"(?:\s*\((\d+\.\d+)\)|\s+on\s+(\d+\.\d+))?")
sizes = {}

def size(name, ko):
    key = (name, ko)
    if key not in sizes:
        out = subprocess.run(["pahole", "-C", name, ko], capture_output=True, text=True).stdout
        m = re.search(r"/\* size: (\d+),", out)
        sizes[key] = int(m.group(1)) if m else None
    return sizes[key]

checked = bad = 0
for path in files:
    for no, line in enumerate(open(path), 1):
        marks = [(m.start(), m.group(1) or m.group(2)) for m in name_re.finditer(line)]
        if not marks:
            continue
        for m in size_re.finditer(line):
            if m.group(1) or m.group(3):
                continue
            before = [n for pos, n in marks if pos < m.start()]
            if not before:
                continue
            name, n = before[-1], int(m.group(2))
            series = m.group(4) or m.group(5)
            ks = [k for k in kernels if series is None or k[1] == series]
            got = {k[0]: size(name, k[2]) for k in ks}
            known = {k: v for k, v in got.items() if v is not None}
            where = "%s:%d" % (path, no)
            if not known:
                print("note: %s: struct %s, %d bytes: not in the module's debug information, not checked"
                      % (where, name, n))
                continue
            checked += 1
            said = "struct %s is %d bytes%s" % (name, n, " on " + series if series else "")
            actual = ", ".join("%s on %s" % (v, k) for k, v in known.items())
            if n in known.values():
                print("ok: %s: %s (pahole: %s)" % (where, said, actual))
            else:
                print("FAIL: %s: %s, pahole says %s" % (where, said, actual))
                bad += 1
if not checked:
    print("FAIL: no size stated as '<struct name> ... N bytes' in %s: nothing checked" % " ".join(files))
    sys.exit(1)
print("layout: %d sizes stated in the docs checked against pahole, %d wrong" % (checked, bad))
sys.exit(1 if bad else 0)
EOF
