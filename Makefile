# SPDX-License-Identifier: GPL-2.0
#
# Builds inode_patterns.ko against an installed Debian kernel, never against
# the running host kernel: the module is only ever loaded into a QEMU guest.
#
#   make                 build against the newest kernel that has both
#                        headers and an image (scripts/find-kernel.sh:
#                        the host's, or a sysroot's, scripts/sysroot.sh)
#   make KVER=<ver>      choose that version instead (6.1.0-57-amd64,
#                        6.12.118+deb12-amd64, 7.3.4+deb13-amd64, ...);
#                        demo, shell, bench and initramfs take it too
#   make KDIR=<dir>      build against any prepared kernel tree
#   make kernels         build for every installed kernel, each into
#                        build/<ver>/, warning-free with W=1 and sparse
#
# Everything else runs the module in a QEMU guest (qemu/, tests/):
#   make test            the full test run, tests/run-qemu.sh
#                        (SEED=<n>, TESTS=<glob> and KERNELS=<ver or
#                        series,...> pass -s, -t and -k)
#   make progs           the guest test programs, build/prog/
#                        (scripts/build-progs.sh)
#   make initramfs       build/initramfs.cpio.gz with the module and tests
#   make shell           boot the guest to an interactive shell
#   make demo            scripts/demo.sh: every installed kernel, the three
#                        patterns beside ramfs and tmpfs, in instructions
#   make gdb             boot the guest under gdb, the module's symbols
#                        loaded where it was loaded (scripts/gdb.sh,
#                        docs/debugging.md); DEBUG=<series> (7.3, 6.12, ...): on that
#                        series' debug kernel, with the kernel's own
#                        symbols and gdb scripts (built the first time)
#   make gdb-tour        the same in batch mode: the guided tour of the
#                        three patterns' objects (DEBUG= too)
#   make bench           the benchmark in instructions per operation
#                        (QEMU icount): two guests, results/bench/<series>/
#                        (BENCH=quick: N = 1,000, into build/bench-quick/;
#                        CACHE=1: loads and cache misses per operation,
#                        the cache model, bench/cache.sh)
#   make fstests         fstests (xfstests) on tmpfs and the three types,
#                        two guests: results/fstests/<series>/
#                        (scripts/fstests.sh; FSTESTS=<checkout>,
#                        FSTESTS_TESTS=<tests and groups>, KERNELS=;
#                        REPORT=1: the reports again from raw.txt)
#   make lint            shellcheck the harness scripts
#   make survey          how the kernel sources extend struct inode (spatch),
#                        results/survey/ (scripts/survey.sh)

ifneq ($(KERNELRELEASE),)
include $(src)/Kbuild
else

KVER ?= $(shell scripts/find-kernel.sh)
# A kernel scripts/find-kernel.sh knows is built with its own toolchain
# (the host's, or its sysroot's, where its headers are at the same path);
# any other prepared tree (KDIR=) with the host's.
ifdef KDIR
KBUILD = $(MAKE) -C $(KDIR)
else
KBUILD = scripts/find-kernel.sh --exec $(KVER) $(MAKE) -C /usr/src/linux-headers-$(KVER)
endif

# Recipes that run make again (bench/run.sh) build for the same kernel.
export KVER

.PHONY: all modules kernels clean test progs initramfs shell demo gdb gdb-tour bench fstests lint survey

# -ffile-prefix-map: the debug information names the sources relative to
# the repository, as scripts/build-module.sh's builds do (gdb, run from
# here, finds them).
all modules:
	@test -n "$(KVER)" || { echo "no kernel with both headers and image found; run scripts/install-deps.sh" >&2; exit 1; }
	$(KBUILD) M=$(CURDIR) KCFLAGS=-ffile-prefix-map=$(CURDIR)/= modules

kernels:
	@kernels=$$(scripts/find-kernel.sh --all); \
	test -n "$$kernels" || { echo "no kernel with both headers and image found; run scripts/install-deps.sh" >&2; exit 1; }; \
	for kver in $$kernels; do \
		scripts/build-module.sh $$kver $$kver || exit 1; \
	done

test:
	tests/run-qemu.sh $(if $(SEED),-s '$(SEED)') $(if $(TESTS),-t '$(TESTS)') \
		$(if $(KERNELS),-k '$(KERNELS)')

progs:
	scripts/build-progs.sh

initramfs: all progs
	qemu/mkinitramfs.sh

shell: initramfs
	qemu/run.sh $@

# With DEBUG, scripts/gdb.sh builds the module and the image itself.
gdb: $(if $(DEBUG),,initramfs)
	scripts/gdb.sh $(if $(DEBUG),--debug '$(DEBUG)')

gdb-tour: $(if $(DEBUG),,initramfs)
	scripts/gdb.sh $(if $(DEBUG),--debug '$(DEBUG)') --tour

# The demonstration (scripts/demo.sh): with KVER=<ver>, that kernel only.
demo:
	$(if $(filter file,$(origin KVER)),env -u KVER) scripts/demo.sh

# The benchmark (bench/run.sh): instructions per operation, into
# results/bench/<series>/; BENCH=quick does N = 1,000 only, into
# build/bench-quick/.
# CACHE=1: the cache mode (bench/cache.sh), every installed kernel, into
# results/bench/<series>/cache.md (BENCH=quick: build/bench-cache-quick/).
bench:
	$(if $(CACHE),$(if $(filter file,$(origin KVER)),env -u KVER) bench/cache.sh,bench/run.sh) \
		$(if $(filter quick,$(BENCH)),--quick)

# fstests (scripts/fstests.sh, docs/testing.md): KERNELS=<ver or
# series,...>, or KVER= when given; else the newest kernel. REPORT=1
# makes the reports again from their raw.txt without running anything
# (every series' under results/fstests/ unless kernels are named).
fstests:
	scripts/fstests.sh $(if $(or $(KERNELS),$(filter-out file,$(origin KVER))),-k '$(or $(KERNELS),$(KVER))') \
		$(if $(REPORT),--report)

# The survey of Debian's kernel sources: results/survey/survey.md.
survey:
	scripts/survey.sh

# The cache-model plugin, build/cache-model/ipat-cache.so
# (bench/cache-model/README.md); the layouts of the inode objects from the
# built module's debug information, per kernel (bench/layout.sh).
.PHONY: cache-model layout
cache-model:
	bench/cache-model/build.sh

layout:
	bench/layout.sh

# SC3043: "local" is fine, busybox sh and dash have it.
lint:
	shellcheck -x -S warning -e SC3043 .ci/run qemu/init qemu/*.sh scripts/*.sh tests/*.sh tests/harness/*.sh \
		tests/guest/*.sh tests/host/*.sh tests/harness/selftest/*/*.sh tests/lib/*.sh \
		bench/report/*.sh scripts/gdb/*.sh bench/*.sh bench/cache-model/*.sh fstests/*.sh

clean:
	@if [ -n "$(KVER)$(KDIR)" ]; then $(KBUILD) M=$(CURDIR) clean; fi
	rm -rf build

endif
