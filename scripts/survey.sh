#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The survey (issue 13): how today's kernel extends struct inode, answered
# from Debian's kernel source packages with the semantic patches in survey/.
# For each kernel series it extracts the package's tarball (only *.c and
# *.h, no Documentation/ or tools/) into a cache outside the repository,
# runs survey/embed.cocci and survey/iprivate.cocci over it with spatch,
# and survey/report.py joins the output into results/survey/: survey.md and
# the per-site CSV files. Nothing written depends on the time of the run.
#
#   scripts/survey.sh                 6.1, 6.12 and 7.3 ("make survey")
#   IPAT_SERIES="6.12" scripts/survey.sh
#   IPAT_CACHE=<dir>                  cache base (default ~/.cache/inode-patterns);
#                                     trees in <dir>/survey/<pkg>-<version>/
#   IPAT_SURVEY_OUT=<dir>             output (default results/survey)
set -eu
cd "$(dirname "$0")/.."
repo=$(pwd)
series=${IPAT_SERIES:-6.1 6.12 7.3}
cache=${IPAT_CACHE:-$HOME/.cache/inode-patterns}/survey
out=${IPAT_SURVEY_OUT:-results/survey}
jobs=${IPAT_SURVEY_JOBS:-2}

IPAT_SERIES=$series scripts/install-deps.sh coccinelle >&2

# A change to the semantic patches invalidates the cached spatch output.
cocci_sum=$(cat survey/embed.cocci survey/iprivate.cocci | sha256sum | cut -c1-16)

spatch_run() {	# spatch_run COCCI TREE OUT [FILE-GROUPS]: one semantic patch
	local cocci=$1 tree=$2 raw=$3 groups=${4:-}
	local src
	if [ -n "$groups" ]; then src="--file-groups $groups"; else src="--dir ."; fi
	# shellcheck disable=SC2086 # $src is two words
	(cd "$tree" && nice spatch --no-includes --include-headers \
		--jobs "$jobs" --timeout 20 --sp-file "$repo/$cocci" $src \
		>"$raw.tmp" 2>"$raw.log") ||
		{ tail -n 20 "$raw.log" >&2; echo "survey: spatch $cocci failed in $tree" >&2; exit 1; }
	mv "$raw.tmp" "$raw"
}

args=
for s in $series; do
	pkg=linux-source-$s
	# The source is where the series' kernel is: the host or its sysroot.
	root=$(scripts/find-kernel.sh --root "$(scripts/find-kernel.sh --match "$s")")
	ver=$(dpkg-query --admindir="${root%/}/var/lib/dpkg" -W -f='${Version}' "$pkg")
	tarball=${root%/}/usr/src/$pkg.tar.xz
	dir=$cache/$pkg-$ver
	tree=$dir/$pkg
	mkdir -p "$dir"
	if [ ! -e "$dir/extracted" ]; then
		echo "survey: extracting $tarball (*.c, *.h) into $dir" >&2
		rm -rf "$tree"
		nice tar -xJf "$tarball" -C "$dir" \
			--exclude="$pkg/Documentation" --exclude="$pkg/tools" \
			--wildcards '*.c' '*.h'
		touch "$dir/extracted"
	fi
	raw=$dir/raw-$cocci_sum
	mkdir -p "$raw"
	if [ ! -s "$raw/iprivate.raw" ]; then
		echo "survey: $pkg $ver: i_private (survey/iprivate.cocci)" >&2
		spatch_run survey/iprivate.cocci "$tree" "$raw/iprivate.raw"
	fi
	if [ ! -s "$raw/embed.raw" ]; then
		echo "survey: $pkg $ver: embedding (survey/embed.cocci)" >&2
		# Only files that can hold a piece of the pattern: a struct inode
		# member, an alloc_inode, inode_init_once, a nested netfs.inode.
		(cd "$tree" && grep -rlE --include='*.[ch]' \
			'struct inode[[:space:]]+[A-Za-z_][A-Za-z0-9_]*;|alloc_inode|inode_init_once|vfs_inode|netfs\.inode' . |
			LC_ALL=C sort | sed 's/$/\n/') >"$raw/embed.groups"
		spatch_run survey/embed.cocci "$tree" "$raw/embed.raw" "$raw/embed.groups"
	fi
	args="$args $s:$pkg:$ver:$tree:$raw"
done

mkdir -p "$out"
# shellcheck disable=SC2086 # one argument per kernel
python3 survey/report.py --out "$out" $args
echo "survey: wrote $out/survey.md and $out/*.csv" >&2
