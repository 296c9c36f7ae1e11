#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make layout: for each Debian kernel the module builds for, pahole's
# layouts (with cache-line boundaries) of the objects that hold an inode
# and its private data, read from the built module's debug information,
# then which line of its object each pattern's payload lies on and which
# lines of struct inode a stat and the private-data path touch. Every
# offset comes from pahole; none is written here. Also written to
# build/layout/<kver>.txt.
#
#   bench/layout.sh              every kernel scripts/find-kernel.sh --all
#   bench/layout.sh KVER...      those only
#
# Lines are counted from the start of each object, 64 bytes each. Slab
# objects are aligned to 8 bytes only (no SLAB_HWCACHE_ALIGN): an object
# whose size is not a multiple of 64 starts at varying offsets within the
# machine's lines, so its line N may straddle two of them.
set -eu
cd "$(dirname "$0")/.."

command -v pahole >/dev/null || scripts/install-deps.sh dwarves >&2
line=64

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# pahole -C STRUCT of the module, verbatim (run once per module and struct)
layout() {
	local f=$tmp/${ko//\//_}.$1
	[ -f "$f" ] || pahole -C "$1" "$ko" >"$f"
	cat "$f"
}

# members STRUCT: "name offset size" for each member pahole lists with an
# offset, members of nested anonymous unions and structs included.
members() {
	layout "$1" | awk '
	match($0, /\/\* *[0-9]+(: *[0-9]+)? +[0-9]+ \*\/$/) {
		c = substr($0, RSTART); gsub(/[^0-9: ]/, " ", c); gsub(/: */, ":", c)
		n = split(c, f, " "); split(f[1], o, ":"); off = o[1]; size = f[n]
		d = substr($0, 1, RSTART - 1)
		sub(/;[^;]*$/, "", d)
		gsub(/__attribute__\(\(.*\)\)/, "", d)
		if (match(d, /\(\*[A-Za-z_0-9]+\)/)) {
			name = substr(d, RSTART + 2, RLENGTH - 3)
		} else {
			sub(/(\[[^]]*\])+ *$/, "", d); sub(/:[0-9 ]*$/, "", d); sub(/ +$/, "", d)
			if (!match(d, /[A-Za-z_][A-Za-z_0-9]*$/)) next
			name = substr(d, RSTART)
		}
		if (name != "" && d !~ /^[ \t]*}/) print name, off, size
	}'
}

# size STRUCT: its size in bytes, from pahole's summary
size_of() { layout "$1" | sed -n 's|.*/\* size: \([0-9]*\),.*|\1|p'; }

# field STRUCT NAME: "offset size" of a member, empty if there is none
field() { members "$1" | awk -v n="$2" '$1 == n { print $2, $3; exit }'; }

# lines OFFSET SIZE: "N" or "N-M", the lines bytes OFFSET..OFFSET+SIZE-1 lie on
lines() {
	local a=$(($1 / line)) b=$((($1 + $2 - 1) / line))
	if [ "$a" = "$b" ]; then echo "$a"; else echo "$a-$b"; fi
}

# lines_w OFFSET SIZE: "line N" or "lines N-M"
lines_w() {
	local l
	l=$(lines "$1" "$2")
	case $l in *-*) echo "lines $l" ;; *) echo "line $l" ;; esac
}

# touched BASE NAME...: "name@offset(line)" for each member of struct inode
# that exists in this kernel, offsets relative to an inode at BASE in its
# object; the set of lines on the last line of output
touched() {
	local base=$1 name f all=""
	shift
	for name in "$@"; do
		f=$(field inode "$name")
		[ -n "$f" ] || continue
		set -- $f
		printf ' %s@%d(%s)' "$name" $((base + $1)) "$(lines $((base + $1)) "$2")"
		all="$all $(seq $(((base + $1) / line)) $(((base + $1 + $2 - 1) / line)))"
	done
	echo
	tr ' ' '\n' <<<"$all" | sed '/^$/d' | sort -n | uniq | tr '\n' ' ' | sed 's/ $//'
	echo
}

# The fields generic_fillattr() reads (fs/stat.c; the times' names differ
# between 6.1, 6.6 and 6.11+; i_nlink is a member of an anonymous union),
# and what vfs_getattr_nosec() reads before it calls ->getattr.
stat_fields="i_mode i_uid i_gid i_ino i_nlink i_rdev i_size i_atime i_mtime i_ctime
	__i_atime __i_mtime __i_ctime i_atime_sec i_atime_nsec i_mtime_sec
	i_mtime_nsec i_ctime_sec i_ctime_nsec i_blkbits i_blocks i_sb"
getattr_fields="i_sb i_flags i_op"

# payload_lines OFFSET: the lines, one a line, of what stat reads of a
# payload at OFFSET in its object (report()'s btime and fl)
payload_lines() {
	{
		seq $((($1 + btime) / line)) $((($1 + btime + bsize - 1) / line))
		seq $((($1 + fl) / line)) $((($1 + fl + fsize - 1) / line))
	} | sort -n | uniq
}

report() {
	local kver=$1 s inode_size o obj sz poff psize btime bsize fl fsize base
	echo "== Linux $kver: $ko =="
	for s in embedfs_inode_info union_inode voidfs_inode_info ipat_payload inode; do
		echo
		echo "-- pahole -C $s"
		layout "$s"
	done
	inode_size=$(size_of inode)
	read -r btime bsize <<<"$(field ipat_payload btime)"
	# The nodump flag statx reports, in the xattr store's hole.
	read -r o _ <<<"$(field ipat_payload xattrs)"
	read -r fl fsize <<<"$(field ipat_xattrs fsflags)"
	fl=$((o + fl))
	echo
	echo "-- Where each pattern's payload lies (struct ipat_payload, $(size_of ipat_payload) bytes; what stat reads: btime at +$btime, $bsize bytes, and xattrs.fsflags at +$fl, $fsize)"
	echo "   struct inode: $inode_size bytes, lines $(lines 0 "$inode_size")"
	for obj in embedfs_inode_info union_inode voidfs_inode_info; do
		sz=$(size_of "$obj")
		case $obj in
		embedfs_inode_info)
			read -r poff psize <<<"$(field "$obj" payload)"
			base=$(field "$obj" vfs_inode | cut -d' ' -f1) ;;
		union_inode)
			read -r o _ <<<"$(field "$obj" unionfs_i)"
			read -r poff psize <<<"$(field unionfs_inode_info payload)"
			poff=$((o + poff))
			base=$(field "$obj" vfs_inode | cut -d' ' -f1) ;;
		voidfs_inode_info)
			read -r poff psize <<<"$(field "$obj" payload)"
			base= ;;
		esac
		printf '   %-19s %4d bytes (%s a 64-byte multiple): payload at %d..%d, %s; btime %s, fsflags %s' \
			"$obj" "$sz" "$( [ $((sz % line)) = 0 ] && echo "is" || echo "not")" \
			"$poff" $((poff + psize - 1)) "$(lines_w "$poff" "$psize")" \
			"$(lines_w $((poff + btime)) "$bsize")" "$(lines_w $((poff + fl)) "$fsize")"
		if [ -n "$base" ]; then
			printf '; vfs_inode at %d..%d, %s\n' "$base" $((base + inode_size - 1)) \
				"$(lines_w "$base" "$inode_size")"
		else
			printf '; its own object, apart from the inode (kmalloc)\n'
		fi
	done

	echo
	echo "-- Lines of struct inode touched (offsets in struct inode)"
	mapfile -t t < <(touched 0 $stat_fields)
	echo "   stat, generic_fillattr():${t[0]}"
	echo "      lines: ${t[1]}"
	mapfile -t t < <(touched 0 $getattr_fields)
	echo "   stat, vfs_getattr_nosec():${t[0]}"
	echo "      lines: ${t[1]}"
	mapfile -t t < <(touched 0 i_sb)
	echo "   payload() (ipat_type(inode->i_sb)->payload, every pattern):${t[0]}"
	mapfile -t t < <(touched 0 i_private)
	echo "   voidfs_demo's payload (inode->i_private):${t[0]}"
	read -r o _ <<<"$(field super_block s_type)"
	echo "   (then sb->s_type at +$o of struct super_block, one per mount)"

	echo
	echo "-- Lines of each object a stat touches, the birth time and flags included (all of the above)"
	for obj in embedfs_inode_info union_inode voidfs_inode_info; do
		case $obj in
		embedfs_inode_info)
			base=$(field "$obj" vfs_inode | cut -d' ' -f1)
			poff=$(field "$obj" payload | cut -d' ' -f1) ;;
		union_inode)
			base=$(field "$obj" vfs_inode | cut -d' ' -f1)
			poff=$(( $(field "$obj" unionfs_i | cut -d' ' -f1) +
				 $(field unionfs_inode_info payload | cut -d' ' -f1) )) ;;
		voidfs_inode_info)
			base=0 poff= ;;
		esac
		if [ -n "$poff" ]; then
			mapfile -t t < <(touched "$base" $stat_fields $getattr_fields)
			all=$( (tr ' ' '\n' <<<"${t[1]}"; payload_lines "$poff") |
				sort -n | uniq | tr '\n' ' ' | sed 's/ $//')
			printf '   %-19s lines %s of the object: %d lines\n' "$obj" "$all" "$(wc -w <<<"$all")"
		else
			mapfile -t t < <(touched 0 $stat_fields $getattr_fields i_private)
			all=$(payload_lines "$(field voidfs_inode_info payload | cut -d' ' -f1)" |
				tr '\n' ' ' | sed 's/ $//')
			printf '   %-19s lines %s of struct inode, and %s of struct voidfs_inode_info: %d lines\n' \
				"(voidfs_demo)" "${t[1]}" "$all" \
				$(( $(wc -w <<<"${t[1]}") + $(wc -w <<<"$all") ))
		fi
	done
}

kernels=("$@")
[ ${#kernels[@]} -gt 0 ] || mapfile -t kernels < <(scripts/find-kernel.sh --all)
[ ${#kernels[@]} -gt 0 ] || { echo "layout: no Debian kernel with headers and image; run scripts/install-deps.sh" >&2; exit 1; }
mkdir -p build/layout
status=0
for kver in "${kernels[@]}"; do
	rc=0
	scripts/build-module.sh "$kver" "$kver" >/dev/null || rc=$?
	# 3: built with warnings; the layout is still the module's.
	if [ "$rc" != 0 ] && [ "$rc" != 3 ]; then
		echo "layout: the module does not build for $kver" >&2
		status=1
		continue
	fi
	ko=build/$kver/inode_patterns.ko
	report "$kver" | tee "build/layout/$kver.txt"
	echo
done
exit "$status"
