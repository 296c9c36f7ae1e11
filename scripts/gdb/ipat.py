# SPDX-License-Identifier: GPL-2.0
"""gdb commands for a guest booted by scripts/gdb.sh (docs/debugging.md).

    ipat-attach FILE  connect to the guest and load the module's symbols at
                      the addresses FILE gives (scripts/gdb.sh writes it)
    guest CMD         type CMD into the guest's shell; "continue" runs it
    ipat-run CMD      the same, and run the guest until CMD has finished
                      (it stops earlier at any breakpoint CMD reaches;
                      "continue" then goes on to the end)
    ipat-console [N]  the console's last N lines (default 20)
    ipat-slab ADDR    the slab cache the object at ADDR lives in
    ipat-reload       unload, reload and remount the module: its symbols
                      move to the new addresses, breakpoints follow
    ipat-tour         the guided tour of the three patterns (make gdb-tour)
"""
import re
import struct

import gdb

SESSION = {}


def _parse_session(path):
    session = {"section": {}, "ksym": {}, "type": {}}
    with open(path) as f:
        for line in f:
            words = line.split()
            if len(words) == 3 and words[0] in session:
                session[words[0]][words[1]] = int(words[2], 0)
            elif len(words) == 2:
                session[words[0]] = words[1]
    return session


def _console():
    with open(SESSION["log"], errors="replace") as f:
        text = f.read()
    # The serial line's carriage returns and the shell's line editing.
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text.replace("\r", ""))


def _send(line):
    with open(SESSION["fifo"], "w") as fifo:
        fifo.write(line + "\n")


def _u64(addr):
    mem = gdb.selected_inferior().read_memory(addr, 8)
    return struct.unpack("<Q", bytes(mem))[0]


def _u32(addr):
    mem = gdb.selected_inferior().read_memory(addr, 4)
    return struct.unpack("<I", bytes(mem))[0]


def _cstring(addr, limit=64):
    mem = bytes(gdb.selected_inferior().read_memory(addr, limit))
    return mem.split(b"\0", 1)[0].decode(errors="replace")


class _Section:
    def __init__(self, name):
        self.name = name


def _elf_sections(path):
    """The names of the ELF file's sections (its section header table)."""
    with open(path, "rb") as f:
        data = f.read()
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3a)
    strtab_off, = struct.unpack_from("<Q", data, shoff + shstrndx * shentsize + 0x18)
    out = []
    for i in range(shnum):
        name_off, = struct.unpack_from("<I", data, shoff + i * shentsize)
        end = data.index(b"\0", strtab_off + name_off)
        out.append(_Section(data[strtab_off + name_off:end].decode()))
    return out


def _load_symbols():
    sections = SESSION["section"]
    args = [SESSION["ko"], "0x%x" % sections[".text"]]
    # Only the sections the file has: sysfs also lists .symtab and
    # .strtab, which the kernel makes for kallsyms.
    have = {s.name for s in _elf_sections(SESSION["ko"])}
    for name, addr in sorted(sections.items()):
        if name != ".text" and name in have:
            args += ["-s", name, "0x%x" % addr]
    gdb.execute("add-symbol-file " + " ".join(args), to_string=True)
    gdb.write("ipat: %s symbols at .text 0x%x, .data 0x%x, .bss 0x%x\n" % (
        SESSION["ko"], sections[".text"], sections.get(".data", 0),
        sections.get(".bss", 0)))


class SyncBreakpoint(gdb.Breakpoint):
    """Stops at sync(2) once a command run by ipat-run has ended.

    ipat-run appends "echo <done marker>; sync", then three times
    "sleep 1; sync", to the command: the first sync after which the marker
    has reached the console stops here (the guest's serial driver may still
    hold the last lines, longer on a loaded host), the last one in any case.
    A sync before this command's begin marker has reached the console (the
    tail of the previous command's) does not count; any other sync in the
    guest does not stop.
    """

    def __init__(self, addr):
        super().__init__("*0x%x" % addr, type=gdb.BP_HARDWARE_BREAKPOINT,
                         internal=True)
        self.silent = True
        self.waiting = None  # (number, syncs left)
        self.output = None
        self.quiet = False

    def stop(self):
        if self.waiting is None:
            return False
        number, left = self.waiting
        lines = _console().split("\n")
        begin = "IPAT-BEGIN-%d" % number
        done = "IPAT-DONE-%d" % number
        if not any(line.startswith(begin) for line in lines):
            return False
        if not any(line.startswith(done) for line in lines) and left > 1:
            self.waiting = (number, left - 1)
            return False
        self.waiting = None
        out, inside = [], False
        for line in lines:
            if line.startswith(begin):
                inside = True
            elif line.startswith(done):
                break
            elif inside:
                out.append(line)
        self.output = out
        gdb.write("[guest command %d done]\n" % number)
        if not self.quiet:
            for line in out:
                gdb.write("guest| %s\n" % line)
        return True


RUNS = [0]


def guest_run(cmd, cont=True):
    """Type cmd into the guest's shell and continue until it has ended
    (or until a breakpoint stops the guest on the way)."""
    RUNS[0] += 1
    number = RUNS[0]
    sync = SESSION["sync_bp"]
    sync.waiting = (number, 4)
    sync.output = None
    # The markers are typed split, so that the shell's echo of this line
    # never starts with one.
    _send("echo IPAT''-BEGIN-%d; %s; echo IPAT''-DONE-%d $?; sync;"
          " sleep 1; sync; sleep 1; sync; sleep 1; sync"
          % (number, cmd, number))
    if cont:
        gdb.execute("continue")
    return sync


class Attach(gdb.Command):
    """ipat-attach FILE: connect to the guest and load the module's symbols."""

    def __init__(self):
        super().__init__("ipat-attach", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        SESSION.update(_parse_session(arg))
        gdb.execute("target remote %s" % SESSION["socket"])
        _load_symbols()
        SESSION["sync_bp"] = SyncBreakpoint(SESSION["ksym"]["__x64_sys_sync"])


class Guest(gdb.Command):
    """guest CMD: type CMD into the guest's shell ("continue" runs it)."""

    def __init__(self):
        super().__init__("guest", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        _send(arg)


class Run(gdb.Command):
    """ipat-run CMD: run CMD in the guest's shell and stop once it has ended."""

    def __init__(self):
        super().__init__("ipat-run", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        guest_run(arg)


class Console(gdb.Command):
    """ipat-console [N]: the guest console's last N lines (default 20)."""

    def __init__(self):
        super().__init__("ipat-console", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        n = int(arg) if arg.strip() else 20
        for line in _console().rstrip("\n").split("\n")[-n:]:
            gdb.write("console| %s\n" % line)


def slab_of(addr):
    """The slab cache holding the object at addr: its struct page in the
    vmemmap, the head of its compound page, struct slab's slab_cache, and
    that cache's name and object size. The kernel's offsets come from its
    own type information (scripts/gdb/kernel-types.sh)."""
    types, ksym = SESSION["type"], SESSION["ksym"]
    needed = ("slab.slab_cache", "kmem_cache.name", "kmem_cache.object_size",
              "page.compound_head", "page.size")
    if not all(k in types for k in needed):
        return None
    # Variables under CONFIG_RANDOMIZE_MEMORY, as on Debian's kernels;
    # otherwise the fixed x86-64 4-level layout (Documentation/arch/x86/
    # x86_64/mm.rst).
    page_offset = _u64(ksym["page_offset_base"]) if "page_offset_base" in ksym \
        else 0xffff888000000000
    vmemmap = _u64(ksym["vmemmap_base"]) if "vmemmap_base" in ksym \
        else 0xffffea0000000000
    page = vmemmap + ((addr - page_offset) >> 12) * types["page.size"]
    head = _u64(page + types["page.compound_head"])
    if head & 1:
        # A tail page (bit 0). Up to 6.x the rest is the head's address;
        # 7.x's compound_info may instead be a mask that clears the tail's
        # index from its address (with HUGETLB_PAGE_OPTIMIZE_VMEMMAP, as
        # Debian builds): an address lies in the vmemmap, a mask far above.
        if vmemmap <= head - 1 < vmemmap + (1 << 44):
            page = head - 1
        else:
            page &= head
    cache = _u64(page + types["slab.slab_cache"])
    name = _cstring(_u64(cache + types["kmem_cache.name"]))
    size = _u32(cache + types["kmem_cache.object_size"])
    return {"page": page, "cache": cache, "name": name, "object_size": size}


class Slab(gdb.Command):
    """ipat-slab EXPR: the slab cache the object at address EXPR lives in."""

    def __init__(self):
        super().__init__("ipat-slab", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        addr = int(gdb.parse_and_eval(arg).cast(
            gdb.lookup_type("unsigned long")))
        slab = slab_of(addr)
        if slab is None:
            gdb.write("ipat-slab: no kernel type information (see scripts/gdb/kernel-types.sh)\n")
            return
        gdb.write("0x%x: slab cache \"%s\" (struct kmem_cache *) 0x%x, object_size %d, struct slab 0x%x\n"
                  % (addr, slab["name"], slab["cache"], slab["object_size"], slab["page"]))


class Reload(gdb.Command):
    """ipat-reload: unmount, unload, reload and remount the module.

    The module may come back at other addresses. Its symbols are removed
    first, breakpoints are disabled while the old code goes away (gdb
    would otherwise write its saved instruction bytes back into memory the
    new module may occupy), the symbols are loaded again at the addresses
    the guest prints, and gdb moves each breakpoint set by name or line to
    the new code before it is enabled again."""

    def __init__(self):
        super().__init__("ipat-reload", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        user = [b for b in gdb.breakpoints() if b.enabled and b.number > 0]
        for b in user:
            b.enabled = False
        gdb.execute("remove-symbol-file -a 0x%x" % SESSION["section"][".text"])
        SESSION["sync_bp"].quiet = True
        try:
            sync = guest_run(
                "umount /mnt/unionfs /mnt/embedfs /mnt/voidfs && rmmod inode_patterns && "
                "insmod $IPAT_MODULE && for t in unionfs embedfs voidfs; do "
                "mount -t ${t}_demo none /mnt/$t; done && "
                "cd /sys/module/inode_patterns/sections && for s in $(ls -A); do "
                "echo SECTION $s $(cat $s); done; cd /")
        finally:
            SESSION["sync_bp"].quiet = False
        if sync.output is None:
            raise gdb.GdbError("ipat-reload: the guest stopped before the reload ended")
        sections = {}
        for line in sync.output:
            words = line.split()
            if len(words) == 3 and words[0] == "SECTION":
                sections[words[1]] = int(words[2], 0)
        if ".text" not in sections:
            raise gdb.GdbError("ipat-reload: the guest printed no sections")
        SESSION["section"] = sections
        _load_symbols()
        for b in user:
            b.enabled = True


Attach()
Guest()
Run()
Console()
Slab()
Reload()
