#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The fstests guest of one kernel, into DIR: root.img, an ext4 image of
# the fstests root (fstests/root.sh) with fstests taught our types
# (fstests/teach.sh), the kernel's own modules, the module KO
# (modprobe-able: depmod) and fstests/guest.sh as /ipat/init; and
# initrd.cpio.gz, busybox and the modules that mount root.img, which is
# all that Debian's kernels, whose virtio-blk and ext4 are modules, need
# before it. Both are made again only when one of their inputs changed
# (DIR/inputs).
#
#   fstests/image.sh DIR KVER ROOT KO
set -eu
cd "$(dirname "$0")/.."

[ $# -eq 4 ] || { echo "usage: fstests/image.sh DIR KVER ROOT KO" >&2; exit 2; }
dir=$1 kver=$2 root=$3 ko=$4
kmods=$(scripts/find-kernel.sh --modules "$kver")
mkdir -p "$dir"

inputs=$(cat "$root/.ipat-ready" "$root/opt/fstests/.ipat-commit" "$ko" \
	fstests/guest.sh fstests/teach.sh fstests/image.sh "$kmods/modules.dep" | md5sum)
if [ -f "$dir/root.img" ] && [ -f "$dir/initrd.cpio.gz" ] &&
	[ "$(cat "$dir/inputs" 2>/dev/null)" = "$inputs" ]; then
	exit 0
fi
rm -f "$dir/inputs"

# The root staged as hard links (a copy only where the trees are on
# different filesystems): what is changed in it is written anew.
stage=$dir/stage
rm -rf "$stage"
cp -al "$root" "$stage" 2>/dev/null || { rm -rf "$stage"; cp -a "$root" "$stage"; }
fstests/teach.sh "$stage/opt/fstests" >/dev/null
mkdir -p "$stage/lib/modules" "$stage/ipat"
cp -al "$kmods" "$stage/lib/modules/$kver" 2>/dev/null ||
	{ rm -rf "$stage/lib/modules/$kver"; cp -a "$kmods" "$stage/lib/modules/$kver"; }
rm -f "$stage/lib/modules/$kver"/modules.*.bin "$stage/lib/modules/$kver"/modules.dep \
	"$stage/lib/modules/$kver"/modules.alias "$stage/lib/modules/$kver"/modules.symbols
mkdir -p "$stage/lib/modules/$kver/updates"
cp "$ko" "$stage/lib/modules/$kver/updates/"
depmod -b "$stage" "$kver"
cp fstests/guest.sh "$stage/ipat/init"
# Room for what the tests write to the root (results, /var/tmp), beside
# the files; the image is sparse.
size=$(($(du -sm "$stage" | cut -f1) + 2048))
rm -f "$dir/root.img"
mkfs.ext4 -q -F -L fstests -d "$stage" "$dir/root.img" "${size}M" >/dev/null
rm -rf "$stage"

# The initrd: busybox, the modules that mount an ext4 virtio disk
# (decompressed: busybox's insmod reads plain .ko), and an init that
# mounts it and hands over.
ird=$dir/initrd
rm -rf "$ird"
mkdir -p "$ird/bin" "$ird/mod"
cp /bin/busybox "$ird/bin/busybox"
n=0
for mod in virtio_pci virtio_blk ext4; do
	modprobe -d "${kmods%/lib/modules/*}/" -S "$kver" --show-depends "$mod" |
		awk '$1 == "insmod" { print $2 }'
done | awk '!seen[$0]++' | while read -r path; do
	n=$((n + 1))
	name=$(printf '%02d-%s' "$n" "$(basename "${path%.ko*}")").ko
	case $path in
	*.ko.xz) xz -dc "$path" >"$ird/mod/$name" ;;
	*.ko.zst) zstd -qdc "$path" >"$ird/mod/$name" ;;
	*.ko.gz) gzip -dc "$path" >"$ird/mod/$name" ;;
	*) cp "$path" "$ird/mod/$name" ;;
	esac
done
cat >"$ird/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mkdir -p /proc /dev /root
mount -t proc proc /proc
mount -t devtmpfs dev /dev
# Quietly: crc32c-intel wants SSE4.2, which TCG lacks (ext4 then uses
# the generic crc32c); a module that is really missing fails the mount.
for m in /mod/*.ko; do insmod "$m" 2>/dev/null; done
i=0
while [ ! -b /dev/vda ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
mount -t ext4 /dev/vda /root || { echo "initrd: cannot mount /dev/vda"; echo o >/proc/sysrq-trigger; }
umount /proc
mount --move /dev /root/dev
exec switch_root /root /ipat/init
INIT
chmod 755 "$ird/init"
(cd "$ird" && find . | sort | cpio -o -H newc --quiet) | gzip -n >"$dir/initrd.cpio.gz"
rm -rf "$ird"
echo "$inputs" >"$dir/inputs"
