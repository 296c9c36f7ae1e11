#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Teach an fstests tree the three types of the module wherever fstests
# treats tmpfs specially, as what they are: in-memory filesystems with no
# device, no mkfs and no fsck, whose data goes with their unmount. Every
# edit names its anchor: the function (or test) and the exact line it
# changes, which must be there exactly once, or this fails naming it, so
# a newer fstests that moved the code is noticed, never half-taught.
#
#   fstests/teach.sh FSTESTS-DIR
#
# Each changed file is written anew and renamed over the old, so a tree of
# hard links (fstests/image.sh stages the root so) keeps its originals.
#
# Left to tmpfs alone, on purpose: the overlayfs base-filesystem checks
# of common/config (-overlay, which this tier does not run).
set -eu
[ $# -eq 1 ] || { echo "usage: fstests/teach.sh FSTESTS-DIR" >&2; exit 2; }
dir=$1
ours="unionfs_demo|embedfs_demo|voidfs_demo"

# edit FILE SCOPE OLD NEW: in FILE, within SCOPE (the body of shell
# function SCOPE, from "SCOPE()" to the next "}" at the start of a line;
# "-" for the whole file), replace the one line that is OLD once
# stripped of leading blanks with NEW, keeping its indentation.
edit() {
	local file=$dir/$1 tmp
	[ -f "$file" ] || { echo "teach: $1 is missing" >&2; exit 1; }
	tmp=$(mktemp "$file.XXXXXX")
	if ! SCOPE=$2 OLD=$3 NEW=$4 awk '
		BEGIN { s = ENVIRON["SCOPE"]; inside = (s == "-") }
		s != "-" && $0 ~ "^" s "\\(\\)" { inside = 1 }
		{
			line = $0; sub(/^[ \t]*/, "", line)
			if (inside && line == ENVIRON["OLD"]) {
				n++
				indent = substr($0, 1, length($0) - length(line))
				$0 = indent ENVIRON["NEW"]
			}
			print
		}
		s != "-" && inside && /^}/ { inside = 0 }
		END { exit n == 1 ? 0 : 1 }
	' "$file" >"$tmp"; then
		rm -f "$tmp"
		echo "teach: anchor not found exactly once: $1, ${2/#-/whole file}: '$3'" >&2
		exit 1
	fi
	chmod --reference="$file" "$tmp"
	mv "$tmp" "$file"
}

# common/config: the mount options (tmpfs's size=1G, which ours take
# too); a TEST_DEV and SCRATCH_DEV that are names, not devices.
edit common/config _common_mount_opts 'tmpfs)' "tmpfs|$ours)"
edit common/config _check_device '9p|fuse|tmpfs|virtiofs|afs)' "9p|fuse|tmpfs|virtiofs|afs|$ours)"
# common/rc: nothing to make, nothing to check; unmount by mount point;
# "cycle mount" is a remount (an unmount would lose every file);
# _scratch_mkfs_sized's size is a mount option; no journal; SEEK_DATA
# and SEEK_HOLE find data and holes, as on tmpfs (src/file.c).
edit common/rc _scratch_unmount 'tmpfs)' "tmpfs|$ours)"
edit common/rc _scratch_cycle_mount 'tmpfs)' "tmpfs|$ours)"
edit common/rc _test_cycle_mount 'tmpfs)' "tmpfs|$ours)"
edit common/rc _scratch_mkfs 'tmpfs)' "tmpfs|$ours)"
edit common/rc _try_scratch_mkfs_sized 'tmpfs)' "tmpfs|$ours)"
edit common/rc _require_scratch_nocheck 'tmpfs)' "tmpfs|$ours)"
edit common/rc _require_test 'tmpfs)' "tmpfs|$ours)"
edit common/rc _fstyp_has_non_default_seek_data_hole 'btrfs|ext4|xfs|cifs|f2fs|gfs2|ocfs2|tmpfs)' \
	"btrfs|ext4|xfs|cifs|f2fs|gfs2|ocfs2|tmpfs|$ours)"
edit common/rc _check_test_fs 'tmpfs)' "tmpfs|$ours)"
edit common/rc _check_dev_fs 'tmpfs)' "tmpfs|$ours)"
edit common/rc _has_metadata_journaling 'ext2|vfat|msdos|udf|exfat|tmpfs)' \
	"ext2|vfat|msdos|udf|exfat|tmpfs|$ours)"
# The tests: generic/551 leaves room in memory for the filesystem's own
# data; generic/732 expects a second mount of one device to share its
# superblock, which no mount of these types does.
edit tests/generic/551 - '[ "$FSTYP" = "tmpfs" ] && avail_mem=$((avail_mem - free_size_k * 1024))' \
	"[[ \"\$FSTYP\" =~ ^(tmpfs|$ours)\$ ]] && avail_mem=\$((avail_mem - free_size_k * 1024))"
edit tests/generic/732 - '_exclude_fs tmpfs' "_exclude_fs tmpfs; _exclude_fs unionfs_demo; _exclude_fs embedfs_demo; _exclude_fs voidfs_demo"
# common/casefold: tmpfs's casefold and strict_encoding mount options,
# which ours take where tmpfs does (src/casefold.c). Where tmpfs has a
# file in /sys/fs/tmpfs/features, ours are asked by a trial mount; and
# generic/556 looks for the mount's "<type>: Using encoding" line, as
# for tmpfs's.
edit common/casefold _has_casefold_kernel_support 'tmpfs)' \
	"$ours) (d=\$(mktemp -d) && trap 'rmdir \"\$d\"' EXIT && mount -t \"\$FSTYP\" -o casefold none \"\$d\" && umount \"\$d\") >/dev/null 2>&1 ;; tmpfs)"
edit common/casefold _scratch_mkfs_casefold 'tmpfs)' "tmpfs|$ours)"
edit common/casefold _scratch_mkfs_casefold_strict 'tmpfs)' "tmpfs|$ours)"
edit common/casefold _scratch_mount_casefold 'tmpfs)' "tmpfs|$ours)"
edit common/casefold _scratch_mount_casefold 'mount -t tmpfs -o casefold tmpfs $SCRATCH_MNT' \
	'mount -t $FSTYP -o casefold $FSTYP $SCRATCH_MNT'
edit common/casefold _scratch_mount_casefold_strict 'tmpfs)' "tmpfs|$ours)"
edit common/casefold _scratch_mount_casefold_strict 'mount -t tmpfs -o casefold,strict_encoding tmpfs $SCRATCH_MNT' \
	'mount -t $FSTYP -o casefold,strict_encoding $FSTYP $SCRATCH_MNT'
edit tests/generic/556 - 'if [ "$FSTYP" == "tmpfs" ]; then' \
	"if [[ \"\$FSTYP\" =~ ^(tmpfs|$ours)\$ ]]; then"
edit tests/generic/556 - 'sdev="tmpfs"' 'sdev=$FSTYP'
echo "teach: $dir knows unionfs_demo, embedfs_demo and voidfs_demo"
