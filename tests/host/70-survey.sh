#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The survey's semantic patches (survey/*.cocci, survey/report.py) run on
# this project's own src/ and include/ must classify the three demo
# filesystems as the README says: embedfs_demo embeds struct inode,
# unionfs_demo keeps its data in a union of a common inode object, and
# voidfs_demo links an extension allocated for the inode by i_private.
#
#   tests/host/70-survey.sh          check src/ and include/
#   tests/host/70-survey.sh DIR      check DIR/src and DIR/include instead
#                                    (a modified copy: the check must fail)
set -eu
cd "$(dirname "$0")/../.."
src=${1:-.}
command -v spatch >/dev/null || scripts/install-deps.sh coccinelle >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/tree" "$tmp/raw"
cp -r "$src/src" "$src/include" "$tmp/tree/"
for c in embed iprivate; do
	(cd "$tmp/tree" && spatch --very-quiet --no-includes --include-headers \
		--sp-file "$OLDPWD/survey/$c.cocci" --dir . >"$tmp/raw/$c.raw" 2>"$tmp/$c.log") ||
		{ cat "$tmp/$c.log"; echo "FAIL: spatch survey/$c.cocci"; exit 1; }
done
python3 survey/report.py --check "$tmp/tree" "$tmp/raw" >"$tmp/got"
printf '%s\n' "src/embedfs.c embedding" "src/unionfs.c union" \
	"src/voidfs.c i_private extension" >"$tmp/want"
if ! diff -u "$tmp/want" "$tmp/got"; then
	echo "FAIL: the survey misclassifies the demo filesystems (want, got above)"
	exit 1
fi
echo "ok: survey/*.cocci classify embedfs_demo (embedding), unionfs_demo (union), voidfs_demo (i_private extension)"
