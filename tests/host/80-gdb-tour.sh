#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make gdb-tour as a test: boot one guest under gdb (scripts/gdb.sh --tour,
# the image in QEMU_INITRD, which tests/run-qemu.sh sets to the newest
# kernel's; default build/initramfs.cpio.gz), and check every offset, size,
# slab cache and inode number gdb printed against what the code says:
# pahole on the same inode_patterns.ko, the module's own
# /proc/fs/inode_patterns/<fs> files, and the inode numbers stat(1) printed
# in the guest. Then the same check on the same facts with each offset
# made wrong in turn must fail, so that the check is known to be able to.
set -eu
cd "$(dirname "$0")/../.."
name=gdb-tour-test
out=build/logs/$name.txt
mkdir -p build/logs
start=$(date +%s)

# scripts/gdb.sh stops its guest on any exit; the limit keeps a hung gdb
# or guest from holding CI.
rc=0
IPAT_LOG=$name IPAT_GDB_TIMEOUT=${IPAT_GDB_TIMEOUT:-300} scripts/gdb.sh --tour >"$out" 2>&1 || rc=$?
if [ "$rc" -ne 0 ] || ! grep -q '^fact ' "$out"; then
	echo "gdb-tour: scripts/gdb.sh --tour exited $rc; its output ends:"
	tail -n 30 "$out" | sed 's/^/| /'
	exit 1
fi
if ! report=$(scripts/check-log.sh "build/logs/$name.log" 2>&1); then
	echo "$report"
	echo "gdb-tour: the guest's kernel reported a bug"
	exit 1
fi
initrd=${QEMU_INITRD:-build/initramfs.cpio.gz}
kver=$(cat "${initrd%.cpio.gz}.kver")
ko=${initrd%.cpio.gz}/lib/modules/$kver/extra/inode_patterns.ko

# pahole prints "<type> <member>[ __attribute__...]; /* <offset> <size> */".
pahole_member() {	# STRUCT MEMBER FIELD (1: offset, 2: size)
	pahole -C "$1" "$ko" | awk -v m="$2" -v f="$3" '
		{ for (i = 1; i < NF; i++) if ($i == m ";" || $i == m) break
		  if (i == NF) next
		  for (; i < NF; i++) if ($i == "/*") { print $(i + f); exit } }'
}
pahole_size() {
	pahole -C "$1" "$ko" | awk '/\/\* size: / { sub(",", "", $3); print $3; exit }'
}

declare -A want why
expect() { want[$1]=$2; why[$1]=$3; }
expectations() {
	local -n p=$1
	local inode payload
	inode=$(pahole_size inode) payload=$(pahole_size ipat_payload)
	expect inode.size "$inode" "pahole struct inode"
	expect payload.size "$payload" "pahole struct ipat_payload"
	for fs in embedfs_demo voidfs_demo unionfs_demo; do
		expect "proc.$fs.vfs_inode_size" "$inode" "pahole struct inode"
		expect "proc.$fs.payload_size" "$payload" "pahole struct ipat_payload"
	done

	local off size
	off=$(pahole_member embedfs_inode_info vfs_inode 1)
	size=$(pahole_size embedfs_inode_info)
	expect embedfs.offset.vfs_inode "$off" "pahole embedfs_inode_info.vfs_inode"
	expect embedfs.runtime.offset.vfs_inode "$off" "pahole embedfs_inode_info.vfs_inode"
	expect embedfs.offset.payload "$(pahole_member embedfs_inode_info payload 1)" "pahole embedfs_inode_info.payload"
	expect embedfs.size "$size" "pahole struct embedfs_inode_info"
	expect proc.embedfs_demo.inode_object_size "$size" "pahole struct embedfs_inode_info"
	expect embedfs.cache_object_size "$size" "pahole struct embedfs_inode_info"
	expect embedfs.cache "${p[proc.embedfs_demo.inode_object]:-?}" "/proc inode_object"
	expect embedfs.cache_is_module_cachep 1 "embedfs_inode_cachep"
	expect embedfs.container_of_is_compiled 1 "EMBEDFS_I() as compiled"
	expect embedfs.i_ino "${p[embedfs.stat_ino]:-?}" "stat -c %i in the guest"

	size=$(pahole_size voidfs_inode_info)
	expect voidfs.private_size "$size" "pahole struct voidfs_inode_info"
	expect proc.voidfs_demo.private_object_size "$size" "pahole struct voidfs_inode_info"
	expect voidfs.inode.cache "${p[proc.voidfs_demo.inode_object]:-?}" "/proc inode_object"
	expect voidfs.inode.cache_object_size "$inode" "pahole struct inode"
	expect proc.voidfs_demo.inode_object_size "$inode" "pahole struct inode"
	size=${p[proc.voidfs_demo.private_alloc_size]:-?}
	expect voidfs.private.cache_object_size "$size" "/proc private_alloc_size"
	case ${p[voidfs.private.cache]:-} in
	"kmalloc-$size" | "kmalloc-cg-$size") expect voidfs.private.cache "${p[voidfs.private.cache]}" "kmalloc-[cg-]$size" ;;
	*) expect voidfs.private.cache "kmalloc-[cg-]$size" "/proc private_alloc_size" ;;
	esac
	expect voidfs.runtime.i_private_is_payload 1 "VOIDFS_I() as compiled"
	expect voidfs.i_ino "${p[voidfs.stat_ino]:-?}" "stat -c %i in the guest"

	local u usize member
	u=$(pahole_member union_inode u 1) usize=$(pahole_member union_inode u 2)
	member=$(pahole_size unionfs_inode_info) size=$(pahole_size union_inode)
	expect unionfs.offset.vfs_inode "$(pahole_member union_inode vfs_inode 1)" "pahole union_inode.vfs_inode"
	expect unionfs.offset.u "$u" "pahole union_inode.u"
	expect unionfs.runtime.offset.u "$u" "pahole union_inode.u"
	expect unionfs.size "$size" "pahole struct union_inode"
	expect unionfs.cache_object_size "$size" "pahole struct union_inode"
	expect proc.unionfs_demo.inode_object_size "$size" "pahole struct union_inode"
	expect unionfs.union_size "$usize" "pahole union_inode.u"
	expect proc.unionfs_demo.union_size "$usize" "pahole union_inode.u"
	expect unionfs.member_size "$member" "pahole struct unionfs_inode_info"
	expect unionfs.largest_member "$(pahole_size blockfs_inode_info)" "pahole struct blockfs_inode_info"
	expect proc.unionfs_demo.union_largest_member_size "$(pahole_size blockfs_inode_info)" "pahole struct blockfs_inode_info"
	expect unionfs.reserved "$((usize - member))" "pahole: union less unionfs_inode_info"
	expect unionfs.cache "${p[proc.unionfs_demo.inode_object]:-?}" "/proc inode_object"
	expect unionfs.container_of_is_compiled 1 "UNIONFS_I() as compiled"
	expect unionfs.i_ino "${p[unionfs.stat_ino]:-?}" "stat -c %i in the guest"
}

# check FACTS-FILE: every expectation met by gdb's fact; prints mismatches.
check() {
	local -A facts=()
	local key value bad=0
	while read -r _ key value; do facts[$key]=${value%% *}; done <"$1"
	want=() why=()
	expectations facts
	for key in "${!want[@]}"; do
		if [ "${facts[$key]:-missing}" != "${want[$key]}" ]; then
			echo "gdb-tour: $key is ${facts[$key]:-missing} in gdb, ${want[$key]} by ${why[$key]}"
			bad=1
		fi
	done
	return "$bad"
}

facts_file=build/gdb/$name/facts.txt
grep '^fact ' "$out" >"$facts_file"
bad=0
check "$facts_file" || bad=1
[ "$bad" -ne 0 ] || echo "gdb-tour: ${#want[@]} facts from gdb agree with pahole, /proc and stat ($kver)"

# Each offset made wrong on purpose must fail the same check.
for key in embedfs.offset.vfs_inode embedfs.runtime.offset.vfs_inode \
	unionfs.offset.u unionfs.runtime.offset.u unionfs.offset.vfs_inode; do
	awk -v k="$key" '$2 == k { $3 += 8 } { print }' "$facts_file" >"$facts_file.wrong"
	if check "$facts_file.wrong" >/dev/null; then
		echo "gdb-tour: $key made wrong by 8 still passed the check"
		bad=1
	fi
done
rm -f "$facts_file.wrong"
[ "$bad" -ne 0 ] || echo "gdb-tour: each of 5 offsets made wrong fails the check"
echo "gdb-tour: $(($(date +%s) - start)) s; gdb's output in $out"
exit "$bad"
