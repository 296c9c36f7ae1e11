# SPDX-License-Identifier: GPL-2.0
"""ipat-tour: the guided tour of the three patterns (make gdb-tour).

For each filesystem it creates one file in the guest and stops in the
pattern's allocation path, then prints the object the inode lives in, read
through the module's DWARF: every offset and size below is gdb's, none is
written here. It ends with "fact" lines that tests/host/80-gdb-tour.sh
compares with pahole and with the module's /proc/fs/inode_patterns/ files.
Needs scripts/gdb/ipat.py, attached (ipat-attach).
"""
import gdb

FACTS = []


def _ipat():
    # gdb's "source" runs each file as __main__'s code: ipat.py's functions
    # are in gdb's main namespace, not in a module called ipat.
    import __main__
    return __main__


def fact(key, value):
    FACTS.append((key, value))


def show(cmd):
    """Run a gdb command as if typed, echoing it and its output."""
    gdb.write("(gdb) %s\n" % cmd)
    out = gdb.execute(cmd, to_string=True)
    gdb.write(out)
    return out


def value(expr):
    return gdb.parse_and_eval(expr)


def num(expr):
    return int(value(expr).cast(gdb.lookup_type("unsigned long")))


def offset_of(struct, member):
    return num("&((struct %s *)0)->%s" % (struct, member))


def run_to_breakpoint(cmd, location):
    """Run cmd in the guest and stop at the breakpoint at location."""
    gdb.write("(gdb) ipat-run %s\n" % cmd)
    out = gdb.execute("ipat-run " + cmd, to_string=True)
    gdb.write(out)
    frame = gdb.selected_frame()
    if frame.name() != location:
        raise gdb.GdbError("tour: expected a stop in %s, got %s" % (location, frame.name()))


def finish_from(function):
    """finish out of function, stopped at its entry. Once in a while the
    step over the entry breakpoint does not leave it and gdb reports the
    same breakpoint again (seen under TCG): finish once more then."""
    for _ in range(3):
        show("finish")
        frame = gdb.selected_frame()
        fn = frame.function()
        if frame.name() != function or fn is None or \
                frame.pc() != int(fn.value().address):
            return
    raise gdb.GdbError("tour: finish did not leave %s" % function)


def finish_command():
    """Continue to the end of the running guest command; its output."""
    gdb.write("(gdb) continue\n")
    out = gdb.execute("continue", to_string=True)
    gdb.write(out)
    return SYNC().output or []


def SYNC():
    return _ipat().SESSION["sync_bp"]


def guest_lines(cmd):
    gdb.write("(gdb) ipat-run %s\n" % cmd)
    out = gdb.execute("ipat-run " + cmd, to_string=True)
    gdb.write(out)
    if SYNC().output is None:
        raise gdb.GdbError("tour: the guest stopped before '%s' ended" % cmd)
    return SYNC().output


def stat_ino(lines):
    for line in lines:
        if line.startswith("ino="):
            return int(line[4:])
    raise gdb.GdbError("tour: no ino= line from the guest")


def slab(expr, prefix):
    show("ipat-slab %s" % expr)
    s = _ipat().slab_of(num(expr))
    if s is not None:
        fact(prefix + ".cache", s["name"])
        fact(prefix + ".cache_object_size", s["object_size"])
        return s
    return None


def heading(text):
    gdb.write("\n== %s ==\n" % text)


def embedfs():
    heading("embedfs_demo: struct inode embedded in struct embedfs_inode_info")
    show("ptype struct embedfs_inode_info")
    off = offset_of("embedfs_inode_info", "vfs_inode")
    show("p (unsigned long)&((struct embedfs_inode_info *)0)->vfs_inode")
    show("p sizeof(struct embedfs_inode_info)")
    fact("embedfs.offset.vfs_inode", off)
    fact("embedfs.offset.payload", offset_of("embedfs_inode_info", "payload"))
    fact("embedfs.size", num("sizeof(struct embedfs_inode_info)"))

    show("break embedfs_alloc_inode")
    run_to_breakpoint("touch /mnt/embedfs/tour", "embedfs_alloc_inode")
    finish_from("embedfs_alloc_inode")
    show("set $inode = $")
    gdb.write("# EMBEDFS_I(inode) is container_of(inode, struct embedfs_inode_info,\n"
              "# vfs_inode): the inode's address less vfs_inode's offset, %d here\n" % off)
    show("set $ei = (struct embedfs_inode_info *)((char *)$inode - "
         "(unsigned long)&((struct embedfs_inode_info *)0)->vfs_inode)")
    show("p $ei")
    show("p (char *)$inode - (char *)$ei")
    show("p &$ei->vfs_inode == $inode")
    s = slab("$ei", "embedfs")
    show("p embedfs_inode_cachep")
    if s is not None:
        fact("embedfs.cache_is_module_cachep", int(s["cache"] == num("embedfs_inode_cachep")))
    show("delete")
    finish_command()

    gdb.write("# Once made, the module's own EMBEDFS_I(), as compiled, on the same inode:\n")
    show("break embedfs_payload if inode == $inode")
    run_to_breakpoint("stat -c ino=%i /mnt/embedfs/tour", "embedfs_payload")
    finish_from("embedfs_payload")
    ret = num("$")
    show("p $ == &$ei->payload")
    fact("embedfs.container_of_is_compiled", int(ret == num("&$ei->payload")))
    fact("embedfs.runtime.offset.vfs_inode",
         num("$inode") - (ret - offset_of("embedfs_inode_info", "payload")))
    show("p $ei->payload")
    show("p $ei->vfs_inode.i_ino")
    fact("embedfs.i_ino", num("$ei->vfs_inode.i_ino"))
    show("delete")
    fact("embedfs.stat_ino", stat_ino(finish_command()))


def voidfs():
    heading("voidfs_demo: the VFS's inode, private data through i_private")
    show("ptype struct voidfs_inode_info")
    show("p sizeof(struct voidfs_inode_info)")
    fact("voidfs.private_size", num("sizeof(struct voidfs_inode_info)"))
    show("break voidfs_attach")
    run_to_breakpoint("touch /mnt/voidfs/tour", "voidfs_attach")
    show("set $inode = inode")
    show("p $inode->i_private")
    finish_from("voidfs_attach")
    show("set $vi = (struct voidfs_inode_info *)$inode->i_private")
    show("p $vi")
    slab("$inode", "voidfs.inode")
    slab("$vi", "voidfs.private")
    show("delete")
    finish_command()

    gdb.write("# Once made, the module's own VOIDFS_I(), as compiled, on the same inode:\n")
    show("break voidfs_payload if inode == $inode")
    run_to_breakpoint("stat -c ino=%i /mnt/voidfs/tour", "voidfs_payload")
    finish_from("voidfs_payload")
    ret = num("$")
    show("p $ == &$vi->payload")
    fact("voidfs.runtime.i_private_is_payload", int(ret == num("&$vi->payload")))
    show("p *$vi")
    show("p $inode->i_ino")
    fact("voidfs.i_ino", num("$inode->i_ino"))
    show("delete")
    fact("voidfs.stat_ino", stat_ino(finish_command()))


def unionfs():
    heading("unionfs_demo: struct union_inode, the union after struct inode")
    show("ptype struct union_inode")
    for expr in ("(unsigned long)&((struct union_inode *)0)->u",
                 "sizeof(((struct union_inode *)0)->u)",
                 "sizeof(((struct union_inode *)0)->u.unionfs_i)",
                 "sizeof(((struct union_inode *)0)->u.blockfs_i)",
                 "sizeof(((struct union_inode *)0)->u.generic_ip)",
                 "sizeof(struct union_inode)"):
        show("p " + expr)
    union = gdb.lookup_type("struct union_inode")["u"].type
    members = {f.name: f.type.sizeof for f in union.fields()}
    usize = union.sizeof
    mine = members["unionfs_i"]
    fact("unionfs.offset.vfs_inode", offset_of("union_inode", "vfs_inode"))
    fact("unionfs.offset.u", offset_of("union_inode", "u"))
    fact("unionfs.size", num("sizeof(struct union_inode)"))
    fact("unionfs.union_size", usize)
    fact("unionfs.member_size", mine)
    fact("unionfs.largest_member", max(members.values()))
    fact("unionfs.reserved", usize - mine)

    show("break union_inode_alloc")
    run_to_breakpoint("touch /mnt/unionfs/tour", "union_inode_alloc")
    show("p type->fs_type.name")
    finish_from("union_inode_alloc")
    show("set $inode = $")
    show("set $ui = (struct union_inode *)((char *)$inode - "
         "(unsigned long)&((struct union_inode *)0)->vfs_inode)")
    show("p $ui")
    slab("$ui", "unionfs")
    show("delete")
    finish_command()

    gdb.write("# Once made, the module's own UNIONFS_I(), as compiled, on the same inode:\n")
    show("break unionfs_payload if inode == $inode")
    run_to_breakpoint("stat -c ino=%i /mnt/unionfs/tour", "unionfs_payload")
    finish_from("unionfs_payload")
    ret = num("$")
    show("p $ == &$ui->u.unionfs_i.payload")
    fact("unionfs.container_of_is_compiled", int(ret == num("&$ui->u.unionfs_i.payload")))
    fact("unionfs.runtime.offset.u", ret - num("$inode")
         - offset_of("union_inode", "u.unionfs_i.payload") + offset_of("union_inode", "u"))
    gdb.write("# The member in use:\n")
    show("p $ui->u.unionfs_i")
    gdb.write("# The %d bytes after it, which only the other members use (blockfs_i's\n"
              "# block map and lock): every unionfs_demo inode carries them. Nothing\n"
              "# writes them: under slub_debug=P they keep SLUB's poison.\n"
              % (usize - mine))
    show("x/%dgx (char *)&$ui->u + sizeof($ui->u.unionfs_i)" % ((usize - mine) // 8))
    show("p $ui->vfs_inode.i_ino")
    fact("unionfs.i_ino", num("$ui->vfs_inode.i_ino"))
    show("delete")
    fact("unionfs.stat_ino", stat_ino(finish_command()))


def proc_files():
    heading("what the module reports: /proc/fs/inode_patterns/")
    for fs in ("embedfs_demo", "voidfs_demo", "unionfs_demo"):
        for line in guest_lines("cat /proc/fs/inode_patterns/%s" % fs):
            key, _, val = line.partition(": ")
            if val and key in ("vfs_inode_size", "payload_size", "inode_object",
                               "inode_object_size", "private_object_size",
                               "private_alloc_size", "union_size",
                               "union_largest_member_size"):
                fact("proc.%s.%s" % (fs, key), val)


class Tour(gdb.Command):
    """ipat-tour: the guided tour of the three patterns."""

    def __init__(self):
        super().__init__("ipat-tour", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        m = _ipat()
        gdb.write("ipat-tour: %s, module .text at 0x%x (booted nokaslr)\n"
                  % (m.SESSION["kver"], m.SESSION["section"][".text"]))
        show("p sizeof(struct inode)")
        show("p sizeof(struct ipat_payload)")
        fact("inode.size", num("sizeof(struct inode)"))
        fact("payload.size", num("sizeof(struct ipat_payload)"))
        embedfs()
        voidfs()
        unionfs()
        proc_files()
        gdb.write("\n== facts, for tests/host/80-gdb-tour.sh ==\n")
        for key, val in FACTS:
            gdb.write("fact %s %s\n" % (key, val))


Tour()
