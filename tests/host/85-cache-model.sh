#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The cache-model plugin (bench/cache-model/) against answers known without
# it: bench/cache-model/patterns.c runs under user-mode qemu-x86_64 with the
# plugin, and each measured phase must show exactly the loads, stores,
# instructions and misses that the pattern and the cache's geometry dictate.
#
#   tests/host/85-cache-model.sh
#
# Exit status: 0 every answer right; 1 a wrong answer or a failed build;
# 4 (kselftest's KSFT_SKIP) skipped: qemu-plugin.h could not be fetched
# (no network to the Debian archive), or qemu-x86_64 takes no plugins,
# said on the last line.
set -eu
cd "$(dirname "$0")/../.."

# Debian 13's qemu-user (QEMU 10) is built static, which leaves plugins
# out; Debian 12's (7.2) takes them.
if command -v qemu-x86_64 >/dev/null && ! qemu-x86_64 -h | grep -q -- '^-plugin '; then
	echo "SKIP: $(qemu-x86_64 -version | head -n 1) takes no -plugin (a static build, as Debian 13's qemu-user is)"
	exit 4
fi

rc=0
so=$(bench/cache-model/build.sh) || rc=$?
if [ "$rc" = 2 ]; then
	echo "SKIP: qemu-plugin.h could not be fetched from Debian's qemu source package (no network to deb.debian.org?)"
	exit 4
fi
[ "$rc" = 0 ] || { echo "FAIL: bench/cache-model/build.sh"; exit 1; }
so=$(tail -n 1 <<<"$so")
prog=build/cache-model/patterns
gcc -static -O2 -fno-tree-vectorize -Wall -Wextra -Werror -Ibench/cache-model \
	-o "$prog" bench/cache-model/patterns.c

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0 checks=0

# run PLUGIN-ARGS PATTERN-ARGS...: the plugin's report in $tmp/out
run() {
	local args=$1
	shift
	if ! qemu-x86_64 -plugin "$so${args:+,$args},out=$tmp/out" "$prog" "$@" 2>"$tmp/err"; then
		cat "$tmp/err"
		echo "FAIL: qemu-x86_64 -plugin ${args:-(defaults)} $prog $*"
		bad=1
		return 1
	fi
}

# expect WHAT PHASE SEQ FIELD=VALUE...: the phase's line has those values
expect() {
	local what=$1 phase=$2 seq=$3 line kv got
	shift 3
	checks=$((checks + 1))
	line=$(grep "^IPAT-CACHE vcpu=0 phase=$phase seq=$seq " "$tmp/out" || true)
	if [ -z "$line" ]; then
		echo "FAIL: $what: no line for phase $phase seq $seq in:"
		cat "$tmp/out"
		bad=1
		return
	fi
	for kv in "$@"; do
		got=$(sed -n "s/.* ${kv%%=*}=\([0-9]*\).*/\1/p" <<<"$line")
		if [ "$got" != "${kv#*=}" ]; then
			echo "FAIL: $what: want $kv, got ${kv%%=*}=$got"
			echo "      $line"
			bad=1
			return
		fi
	done
	echo "ok: $what: $*"
}

# measure WHAT PLUGIN-ARGS PATTERN-ARGS... -- FIELD=VALUE...: phase 1
measure() {
	local what=$1 args=$2 pat=()
	shift 2
	while [ "$1" != -- ]; do pat+=("$1"); shift; done
	shift
	run "$args" "${pat[@]}" || return 0
	expect "$what" 1 1 "$@"
}

M=$((1 << 20))
# Defaults: L1D 48 KiB 12-way (64 sets), LLC 32 MiB 16-way (32768 sets), 64 B.
measure "stream 64 MiB (2x LLC): one miss per line at each level" "" \
	stream $((64 * M)) -- loads=$((8 * M)) stores=0 l1d_misses=$M llc_misses=$M
measure "stream 8 MiB, line=128, 1 MiB LLC: one miss per 128 B line" "line=128,llc_size=1M" \
	stream $((8 * M)) -- loads=$M l1d_misses=$((M / 16)) llc_misses=$((M / 16))
measure "pointer chase in 16 KiB: no miss after the warm-up lap" "" \
	ring 64 256 100 -- loads=25600 stores=0 l1d_misses=0 llc_misses=0
measure "pointer chase in 48 KiB (L1D full, 12 lines a set): no miss" "" \
	ring 64 768 20 -- loads=15360 l1d_misses=0 llc_misses=0
measure "pointer chase in 64 KiB (16 lines a set, LRU): every load misses L1D, none the LLC" "" \
	ring 64 1024 10 -- loads=10240 l1d_misses=10240 llc_misses=0
measure "12 lines 4 KiB apart (one L1D set, 12 ways): no miss" "" \
	ring 4096 12 100 -- loads=1200 l1d_misses=0 llc_misses=0
measure "13 lines 4 KiB apart (one L1D set, 12 ways): every load misses L1D" "" \
	ring 4096 13 100 -- loads=1300 l1d_misses=1300 llc_misses=0
measure "16 lines 2 MiB apart (one LLC set, 16 ways): no LLC miss" "" \
	ring $((2 * M)) 16 50 -- loads=800 l1d_misses=800 llc_misses=0
measure "17 lines 2 MiB apart (one LLC set, 16 ways): every load misses the LLC" "" \
	ring $((2 * M)) 17 50 -- loads=850 l1d_misses=850 llc_misses=850
measure "l1d_size=4K,l1d_ways=4: 4 lines 1 KiB apart, no miss" "l1d_size=4K,l1d_ways=4" \
	ring 1024 4 100 -- loads=400 l1d_misses=0
measure "l1d_size=4K,l1d_ways=4: 5 lines 1 KiB apart, every load misses" "l1d_size=4K,l1d_ways=4" \
	ring 1024 5 100 -- loads=500 l1d_misses=500
measure "policy=fifo: 13 lines in a 12-way set, cyclic: every load misses" "policy=fifo" \
	ring 4096 13 100 -- loads=1300 l1d_misses=1300
# Line 0 loaded before each of 12 others, all in one 12-way set: LRU keeps
# line 0 (the 12 others share 11 ways and all miss); FIFO ignores hits and
# evicts line 0 too: each of the 13 lines misses once a lap.
measure "LRU: a hot line among 12 others in a 12-way set stays" "" \
	hot 4096 12 100 -- loads=2400 l1d_misses=1200 llc_misses=0
measure "policy=fifo: the hot line is evicted once a lap as well" "policy=fifo" \
	hot 4096 12 100 -- loads=2400 l1d_misses=1300 llc_misses=0

# A random victim keeps some of a cyclic pattern: fewer misses than LRU's.
checks=$((checks + 1))
if run "policy=random" ring 4096 13 100; then
	m=$(sed -n 's/^IPAT-CACHE vcpu=0 phase=1 seq=1 .* l1d_misses=\([0-9]*\).*/\1/p' "$tmp/out")
	if [ -n "$m" ] && [ "$m" -gt 0 ] && [ "$m" -lt 1300 ]; then
		echo "ok: policy=random: 13 lines in a 12-way set: $m misses of 1300 loads (0 < m < 1300)"
	else
		echo "FAIL: policy=random: want 0 < l1d_misses < 1300, got '$m'"
		bad=1
	fi
fi

# Phases and instruction counts: a block holding several markers is split
# between them, a phase may span blocks, and a load across a line's end
# touches (and misses) two lines.
if run "" ops; then
	expect "phase 2: marker + 10 nops" 2 1 insns=11 loads=0 stores=0
	expect "phase 3: marker + 2 nops, jmp, 2 nops (two blocks)" 3 2 insns=6 loads=0 stores=0
	expect "phase 4: 2 stores to a line, a load across its end" 4 3 \
		insns=4 loads=1 stores=2 l1d_misses=2 llc_misses=2
	expect "phase 0 after the last marker, reported at exit" 0 4 unmodelled=0
fi

# Geometry that is not a power-of-two number of sets is refused.
checks=$((checks + 1))
if qemu-x86_64 -plugin "$so,l1d_ways=7" "$prog" ops >/dev/null 2>"$tmp/err" ||
	! grep -q '^ipat-cache: .*: not a power-of-two number of sets' "$tmp/err"; then
	cat "$tmp/err"
	echo "FAIL: l1d_ways=7 (48 KiB / 64 B / 7 ways) was not refused by the plugin"
	bad=1
else
	echo "ok: l1d_ways=7 refused: $(head -n 1 "$tmp/err")"
fi

[ "$bad" = 0 ] && echo "cache-model: $checks checks of the model against known answers passed"
exit "$bad"
