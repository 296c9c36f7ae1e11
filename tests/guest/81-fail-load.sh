#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Systematic allocation-failure injection into loading the module
# (tests/prog/failload.c): the 1st, 2nd, ... allocation of the load fails,
# in two passes as in 80-fail-nth (slab objects, then pages). Every load
# that hit its fault must fail with ENOMEM and leave nothing registered or
# made, the next load must work, and kmemleak must find nothing of ours.
#
# The kernel reports some of these failures itself, with a stack dump:
# warn_alloc() for a vmalloc() or a page, kmem_cache_create() for a cache.
# Those reports are allowed inside the window of each pass (ipat_expect
# fault; scripts/check-log.sh), and nothing else is.
#
# One leak is the kernel's, not ours, and is let through by its exact
# path: when kobject_init_and_add() fails in sysfs_slab_add() (mm/slub.c,
# 6.1 and 6.12 alike), it returns the error without the kobject_put()
# that lib/kobject.c asks for after a failed kobject_init_and_add(); the
# cache creation then fails and frees the cache, but not the kobject's
# name, which kobject_set_name_vargs() had already copied. kmemleak lists
# that 32-byte string with the backtrace kobject_set_name_vargs <-
# kobject_init_and_add <- sysfs_slab_add. Upstream fixed it later, in
# 2420baa8e046 ("mm/slab: Allow cache creation to proceed even if sysfs
# registration fails"); Debian's 6.1 and 6.12 sources still have it. Every
# other leak fails the test, and the tolerated ones are cleared so that
# 99-kmemleak sees none.
#
# Needs a kernel with fault injection (the debug kernel); on any other it
# skips.
set -eu
. /tests/lib/guest.sh

ipat_fault_setup
for pass in slab page; do
	ipat_fault_pass $pass
	echo "== failload ($pass pass)"
	start=$(cut -d. -f1 /proc/uptime)
	if ! ipat_expect fault failload "$IPAT_MODULE" $pass >"$IPAT_TMP/out"; then
		cat "$IPAT_TMP/out"
		ipat_fault_restore
		ipat_fail "failload $pass"
	fi
	cat "$IPAT_TMP/out"
	echo "failload $pass pass took $(($(cut -d. -f1 /proc/uptime) - start)) s"
done
ipat_fault_restore

[ -e $ipat_dbg/kmemleak ] || ipat_fail "a debug kernel without kmemleak"
ipat_kmemleak "$IPAT_TMP/leaks"
# Each object of kmemleak's report, its backtrace as function names: the
# kernel's sysfs_slab_add() leak counted, any other printed as it is.
awk -v known="$IPAT_TMP/known" '
	function object_done() {
		if (obj == "")
			return
		if (comm == "failload" && index(frames " ",
		    " kobject_set_name_vargs kobject_init_and_add sysfs_slab_add "))
			n++
		else
			printf "%s", obj
		obj = frames = comm = ""
		in_trace = 0
	}
	/^unreferenced object / { object_done() }
	{ obj = obj $0 "\n" }
	/^  comm "/ { comm = $2; gsub(/[",]/, "", comm) }
	/^  backtrace/ { in_trace = 1; next }
	in_trace {
		frame = $0
		sub(/^ *(\[<[0-9a-f]+>\] )?/, "", frame)
		sub(/[+.].*/, "", frame)
		frames = frames " " frame
	}
	END { object_done(); print n + 0 >known }
' "$IPAT_TMP/leaks" >"$IPAT_TMP/ours"
if [ -s "$IPAT_TMP/ours" ]; then
	head -n 100 "$IPAT_TMP/ours"
	ipat_fail "kmemleak: unreferenced objects after failed loads (above)"
fi
echo "ok: kmemleak: no leak of ours; $(cat "$IPAT_TMP/known") of the kernel's sysfs_slab_add() names (let through, cleared)"
ipat_put $ipat_dbg/kmemleak clear
