#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The few kernel type facts scripts/gdb/ipat.py needs to name the slab
# cache an object lives in, read by pahole from the kernel's own type
# information, never written down by hand (struct slab's slab_cache moved
# from offset 24 on 6.1 to 8 on 6.12; struct page's compound_head became
# compound_info in 7.x):
#
#   scripts/gdb/kernel-types.sh [VMLINUX] BZIMAGE
#
# VMLINUX (a debug kernel tree's, with DWARF or BTF) is read if given;
# otherwise the ELF inside BZIMAGE, whose .BTF section Debian's kernels
# carry (CONFIG_DEBUG_INFO_BTF), though not their symbols. Prints
# "type NAME VALUE" lines; exits 1 if a fact is missing.
set -eu
vmlinux=${1:-} image=$2
tmp=
trap '[ -z "$tmp" ] || rm -f "$tmp"' EXIT

if [ -z "$vmlinux" ]; then
	# The bzImage's payload is the compressed vmlinux: find its magic.
	tmp=$(mktemp)
	python3 - "$image" "$tmp" <<-'EOF'
	import lzma, subprocess, sys
	data = open(sys.argv[1], "rb").read()
	xz, zst = data.find(b"\xfd7zXZ\x00"), data.find(b"\x28\xb5\x2f\xfd")
	with open(sys.argv[2], "wb") as out:
	    if xz >= 0 and (zst < 0 or xz < zst):
	        out.write(lzma.LZMADecompressor().decompress(data[xz:]))
	    elif zst >= 0:
	        # zstd complains about what follows the frame; the ELF is whole.
	        subprocess.run(["zstd", "-dcq"], input=data[zst:], stdout=out,
	                       stderr=subprocess.DEVNULL)
	    else:
	        sys.exit("kernel-types: no xz or zstd payload in " + sys.argv[1])
	EOF
	vmlinux=$tmp
fi

# pahole prints "<type> <name>; /* <offset> <size> */"; the first match is
# the outermost member of that name.
offset() {
	pahole -C "$1" "$vmlinux" 2>/dev/null |
		awk -v m="$2" '{ for (i = 1; i < NF; i++) if ($i == m ";" || $i == "*" m ";") { print $(i + 2); exit } }'
}
size() {
	pahole -C "$1" "$vmlinux" 2>/dev/null |
		awk '/\/\* size: / { sub(",", "", $3); print $3; exit }'
}

ok=0
emit() {
	if [ -n "$2" ]; then echo "type $1 $2"; else echo "kernel-types: $1 not found in $vmlinux" >&2; ok=1; fi
}
emit slab.slab_cache "$(offset slab slab_cache)"
emit kmem_cache.name "$(offset kmem_cache name)"
emit kmem_cache.object_size "$(offset kmem_cache object_size)"
# 7.x renamed it compound_info, which may hold a mask instead of the
# head's address (scripts/gdb/ipat.py's slab_of() tells them apart).
emit page.compound_head "$(offset page compound_head || true)$(offset page compound_info || true)"
emit page.size "$(size page)"
exit "$ok"
