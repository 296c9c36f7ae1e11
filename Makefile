# SPDX-License-Identifier: GPL-2.0
#
# Builds inode_patterns.ko against an installed Debian kernel, never against
# the running host kernel: the module is only ever loaded into a QEMU guest.
#
#   make                 build against the newest kernel that has both
#                        /usr/src/linux-headers-<ver> and /boot/vmlinuz-<ver>
#   make KVER=<ver>      choose that version instead
#   make KDIR=<dir>      build against any prepared kernel tree

ifneq ($(KERNELRELEASE),)
include $(src)/Kbuild
else

KVER ?= $(shell scripts/find-kernel.sh)
KDIR ?= /usr/src/linux-headers-$(KVER)

.PHONY: all modules clean

all modules:
	@test -n "$(KVER)" || { echo "no kernel with both headers and image found; run scripts/install-deps.sh" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

clean:
	@if [ -d "$(KDIR)" ]; then $(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
	rm -rf build

endif
