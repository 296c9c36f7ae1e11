/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of workload share (main.c describes the program):
 *
 *   gen.c        the seeded generator: the next operation and its arguments
 *   ops.c        the operations, each run and printed; ops-xattr.c the
 *                xattr ones
 *   model.c      what the output cannot compare: the user.* xattr model
 *                and the time checks of "timed" operations
 *   report.c     the output: results, errno names, paths, stat lines
 *   dump.c       the whole tree, listed with stats, data and xattrs
 *   main.c       options, the main loop, the summary
 */
#ifndef WORKLOAD_H
#define WORKLOAD_H

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define PB		4400		/* path buffer: symlink targets reach 4096 */
#define PAGE		4096
#define READ_MAX	(256 * 1024)	/* bytes of a file that get checksummed */
#define BUF_MAX		(65536 + 16)
#define DAY		86400

/* --- Options and global state (main.c) --- */

enum { UX_MODEL, UX_ABSENT, UX_AUTO };

extern int ux_mode;
extern bool ux_sockets;
extern bool opt_btime;
extern bool use_proc;
extern unsigned int opno;
extern int failed;
extern struct timespec now_ts;
extern unsigned char wbuf[BUF_MAX], rbuf[BUF_MAX];

/* --- The operations --- */

enum kind {
	K_CREATE, K_WRITE, K_READ, K_TRUNC, K_MKDIR, K_RMDIR, K_UNLINK,
	K_RENAME, K_LINK, K_SYMLINK, K_READLINK, K_MKNOD, K_CHMOD, K_CHOWN,
	K_UTIMES, K_STAT, K_READDIR, K_SETX, K_GETX, K_LISTX, K_REMOVEX,
	K_TMPFILE, K_TMPLINK, K_MMAP, K_OPEN, K_UMASK, NKIND
};

/* One operation: arguments are drawn first, from the seed alone. */
struct op {
	enum kind kind;
	bool timed;
	char p1[PB];
	char p2[PB];			/* second path, or symlink target */
	char xname[300];
	int xuser;			/* user.* name: 0..2, -1 "user.", -2 long */
	int flags;
	int var;
	unsigned int mode;
	int nch;
	uint64_t off[3], len[3];
	uint64_t a, b;
	uint64_t dseed;
	struct timespec ts[2];
	bool ts_null;
	bool whiteout;
	bool xattr_on_tmpfile;
};

/* ops.c, ops-xattr.c */
extern void (*const op_fn[NKIND])(struct op *);
extern const bool changes_names[NKIND];
void read_sum(int fd, enum kind k);
void op_setx(struct op *o);
void op_getx(struct op *o);
void op_removex(struct op *o);
void op_listx(struct op *o);
int put_xattrs(const char *p, bool follow, const struct statx *sp,
	       bool values);

/* --- The generator (gen.c) --- */

void gen_start(uint64_t seed);
void gen_op(struct op *o);
void fill(unsigned char *buf, size_t len, uint64_t seed);
extern bool names_valid;	/* until an operation may change names */

/* Recent setxattr paths and names, for get and remove to find them. */
#define XRING 8
struct xring_entry {
	char path[PB];
	char name[300];
	int xuser;
};
extern struct xring_entry xring[XRING];
extern unsigned int xring_n;

/* --- The models (model.c) --- */

#define UX_NAMES	3
#define UX_VAL		200
#define UX_MAX		4096

struct ux {
	uint64_t ino;
	int name;
	unsigned int len;
	unsigned char val[UX_VAL];
	bool used;
};

enum { UXO_SET, UXO_GET, UXO_REMOVE };

struct ux *ux_find(uint64_t ino, int name);
unsigned int ux_names(uint64_t ino);
long ux_expect(int op, const struct statx *st, int perr, int uname,
	       const unsigned char *val, size_t len, int flags,
	       size_t size, long *argerr);
void ux_report(long want, long got, int e, long argerr);
void tobj_setup(const struct op *o, bool two);
void tobj_model(const struct statx *target, long want);
void tobj_report(void);
void victims_take(const char *a, const char *b);
void victims_reap(void);

/* --- The output (report.c) --- */

#define FNV0	0xcbf29ce484222325ULL
#define NERR 256

extern const char *const kname[NKIND];
extern unsigned int hist[NKIND][NERR];	/* [kind][0] counts successes */
extern unsigned int op_ok;		/* successes in this operation */

uint64_t fnv(const void *p, size_t len, uint64_t h);
void check_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *errname(int e);
void count(enum kind k, long r, int e);
void res(enum kind k, long r, int e);
const char *pp(const char *s);
void hdr(const struct op *o);
int xstat(int fd, const char *path, int flags, struct statx *st);
bool is_now(const struct statx_timestamp *t);
int tcmp(const struct statx_timestamp *a, const struct statx_timestamp *b);
void check_btime(const struct statx *st);
void put_stat(const struct statx *st);
void show(const char *p);
void show_fd(int fd);
void parent_of(const char *p, char *out);
void show_with_parent(const char *p);
char dtype(unsigned char t);

/* --- The tree (dump.c) --- */

struct dent {
	char name[NAME_MAX + 1];
	unsigned char type;
};

#define MAXDENT 512

extern struct dent dents[MAXDENT];
int list_dir(int fd, struct dent *d);
void dump(const char *why);

#endif
