#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/run-qemu.sh's KTAP (tests/lib/ktap.awk) is KTAP to the kernel's own
# reader: a fixture of results, nested kernel / tier / group, with a pass,
# a failure, a skip and notes, goes through ktap.awk and then through
# kunit.py parse (tools/testing/kunit of the newest Debian linux-source
# installed, extracted into the cache), which must count what went in.
set -eu
cd "$(dirname "$0")/../.."

pkg=linux-source-6.12
[ -r "/usr/src/$pkg.tar.xz" ] || pkg=linux-source-6.1
tarball=/usr/src/$pkg.tar.xz
[ -r "$tarball" ] || { echo "ktap: no linux-source-6.x is installed (scripts/install-deps.sh)"; exit 1; }
cache=${IPAT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/inode-patterns}
srcver=$(dpkg-query -W -f='${Version}' "$pkg")
dir=$cache/kunit-tool/$srcver
if [ ! -f "$dir/extracted" ]; then
	rm -rf "$dir"
	mkdir -p "$dir"
	tar -xJf "$tarball" -C "$dir" --strip-components=1 --wildcards \
		"$pkg/tools/testing/kunit/*"
	touch "$dir/extracted"
fi

tab=$'\t'
ktap=$(awk -f tests/lib/ktap.awk <<EOT
PASS${tab}static/checkpatch${tab}
PASS${tab}6.1.0-1-amd64/build${tab}clean
PASS${tab}6.1.0-1-amd64/stock/guest/00-module-load${tab}
SKIP${tab}6.1.0-1-amd64/stock/guest/30-idmap${tab}no idmapped tmpfs before 6.3
FAIL${tab}6.1.0-1-amd64/stock/guest/40-differential${tab}no result
PASS${tab}6.1.0-1-amd64/stock/kernel-log${tab}
NOTE${tab}6.1.0-1-amd64/debug${tab}kunit: suites=4 passed=30
PASS${tab}6.1.0-1-amd64/debug/guest/00-module-load${tab}
PASS${tab}host/40-dkms${tab}
EOT
)
out=$(cd "$dir/tools/testing/kunit" && python3 kunit.py parse <<<"$ktap" 2>&1) || true
want="Ran 8 tests: passed: 6, failed: 1, skipped: 1"
if ! grep -qF "$want" <<<"$out"; then
	echo "ktap: kunit.py parse did not say '$want'; the KTAP and its reading follow"
	echo "$ktap"
	echo "$out"
	exit 1
fi
# The failure is reported where it happened, and its parents fail too.
for line in "not ok 3 40-differential" "    not ok 1 guest" "not ok 2 6.1.0-1-amd64" \
	"ok 3 host"; do
	grep -qF -- "$line" <<<"$ktap" || { echo "ktap: no line '$line'"; echo "$ktap"; exit 1; }
done
echo "ktap: kunit.py reads the harness's KTAP: $want"
