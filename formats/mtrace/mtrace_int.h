/*
 * Internals shared by the formats/mtrace/mtrace_*.c files (not a public API).
 *
 * Layers, bottom up:
 *   mtrace_table.c   method table (hash by id) and thread table (by u16 id)
 *   mtrace_key.c     key-section lines: *version, options, threads, methods
 *   mtrace_read.c    byte-stream decoder (init/feed/finish) -> records
 *   mtrace_run.c     reads a file or memory through the decoder
 *   mtrace_stack.c   per-thread call stacks, 32-bit time unwrapping
 *   mtrace_profile.c dmtracedump's accounting; mtrace_print.c prints it
 *   mtrace_graph.c   DOT call graph
 *   mtrace_tl.c      the timeline's two passes (mtrace_tl.h); its forms:
 *                    mtrace_json.c trace-event JSON, mtrace_atext.c atrace text
 */
#ifndef SYSTRACE_MTRACE_INT_H
#define SYSTRACE_MTRACE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "lib/dynbuf.h"
#include "lib/error.h"
#include "mtrace.h"
#include "lib/printf.h"

#define MT_NTHREADS 65536u
#define MT_MAX_LINE (1u << 20)          /* one key line */
#define MT_MAX_PACKET (64u << 20)       /* one streaming packet (summary) */
#define MT_MAX_METHODS (1u << 24)
#define MT_MAX_STRINGS ((size_t)1 << 30)
#define MT_MAX_UNKNOWN 65536u           /* distinct unknown ids kept apart */
#define MT_MAGIC 0x574F4C53u            /* "SLOW" */
#define MT_FILL_ID 0xEEEEEEECu          /* Dalvik's unwritten-buffer fill */

enum { MT_A_ENTER = 0, MT_A_EXIT = 1, MT_A_UNROLL = 2, MT_A_BAD = 3 };
enum { MT_CLK_UNKNOWN = 0, MT_CLK_CPU, MT_CLK_WALL };

#define MT_M_NONAME 1u      /* key line had only a name column */
#define MT_M_UNKNOWN 2u     /* id not declared (yet) */

struct mt_method {
    uint32_t id;                    /* method value, action bits clear */
    uint32_t cls, name, sig, file;  /* offsets into strings; 0 is "" */
    int32_t line;
    uint32_t flags;
};

struct mt_tinfo {                   /* indexed by the id in records */
    uint32_t name;                  /* string offset, 0 = unnamed */
    uint32_t full_id;               /* as written in the key */
    uint8_t named;                  /* 0 no, 1 key/summary, 2 packet */
};

struct mt_tables {
    struct mt_method *m;
    uint32_t nm, capm;
    uint32_t *hash;                 /* method index + 1; 0 = empty slot */
    uint32_t hmask;
    uint32_t nunknown;
    uint32_t unknown_shared;        /* lumped unknown entry + 1, or 0 */
    struct dynbuf str;
    struct mt_tinfo *thr[256];      /* pages of 256, by id >> 8 */
    /* key and data header */
    int key_version;
    int version;                    /* header, with 0xF0 when streaming */
    int streaming;
    int have_summary;
    unsigned rec_size;
    int ncol;                       /* time columns per record: 1 or 2 */
    int col_clock[2];
    int64_t start_us;
    int64_t elapsed_us;             /* elapsed-time-usec=, -1 if absent */
    long pid;
    int overflow;
    char vm[16];
    char clock[16];
};

struct mt_tables *mt_tables_new(void);
void mt_tables_free(struct mt_tables *t);
const char *mt_str(const struct mt_tables *t, uint32_t off);
enum st_err mt_add_str(struct mt_tables *t, const char *p, size_t n,
                       uint32_t *off);
/* Method by id; inserts or replaces names when `m` gives them. */
enum st_err mt_method_put(struct mt_tables *t, const struct mt_method *m,
                          uint32_t *idx);
/* Index for an id seen in a record (creating an unknown entry). */
enum st_err mt_method_ref(struct mt_tables *t, uint32_t id, uint32_t *idx);
long mt_method_find(const struct mt_tables *t, uint32_t id);
enum st_err mt_thread_name(struct mt_tables *t, uint32_t id,
                           const char *p, size_t n, int from_packet);
/* Thread-table entry for a record's thread id (all zero if unnamed). */
const struct mt_tinfo *mt_tinfo_of(const struct mt_tables *t, uint32_t id);
/* Decide the time columns once the version/record size/clock are known. */
void mt_tables_set_clocks(struct mt_tables *t);

/* ---- key lines (mtrace_key.c) ---- */
struct mt_mline {                   /* one parsed method line */
    uint32_t id;
    const char *f[5];               /* class, name, sig, file, line */
    size_t n[5];
    int nf;                         /* fields after the id: 1..5 */
};
int mt_parse_method_line(const char *p, size_t n, struct mt_mline *out);
int mt_parse_thread_line(const char *p, size_t n, uint32_t *id,
                         const char **name, size_t *namelen);

enum { MT_SEC_NONE, MT_SEC_VERSION, MT_SEC_OPTIONS, MT_SEC_THREADS,
       MT_SEC_METHODS, MT_SEC_END };
struct mt_keyp {
    int section;
    int summary;                    /* parsing a streaming summary */
    int replay;                     /* tables already filled: check only */
};
/* One line without its '\n'; errors go to err (no offset). */
enum st_err mt_key_line(struct mt_tables *t, struct mt_keyp *kp,
                        const char *p, size_t n, char *err, size_t errlen);
enum st_err mt_method_from_line(struct mt_tables *t, const char *p, size_t n,
                                char *err, size_t errlen);

/* ---- decoder (mtrace_read.c) ---- */
struct mt_rec {
    uint32_t tid;
    uint32_t midx;
    uint32_t action;
    uint32_t t[2];                  /* raw columns A and B */
    uint64_t off;
};
struct mt_sink {
    void *ctx;
    enum st_err (*header)(void *ctx, struct mt_tables *t);
    enum st_err (*record)(void *ctx, const struct mt_rec *r);
};
struct mt_reader;
struct mt_reader *mt_reader_new(struct mt_tables *t, const struct mt_sink *s,
                                int replay, struct mtrace_info *info);
void mt_reader_free(struct mt_reader *r);
enum st_err mt_reader_feed(struct mt_reader *r, const void *p, size_t n);
enum st_err mt_reader_finish(struct mt_reader *r);
const char *mt_reader_error(const struct mt_reader *r);

/* Read a whole source through a fresh decoder (mtrace_run.c). */
enum st_err mt_run(const struct mtrace_src *src, struct mt_tables *t,
                   const struct mt_sink *s, int replay,
                   struct mtrace_info *info, char *err, size_t errlen);
void mt_err(char *err, size_t errlen, const char *fmt, ...)
    ST_PRINTF(3, 4);

/* ---- per-thread stacks (mtrace_stack.c) ---- */
struct mt_frame {
    uint32_t midx;
    uint32_t key;                   /* profile identity (unknowns lumped) */
    uint32_t rec;                   /* same key below this frame */
    uint32_t flags;
    uint64_t mask;                  /* bloom of keys in frames [0..this] */
    int64_t t[2];                   /* entry times, unwrapped */
};
struct mt_thread {
    struct mt_frame *f;
    uint32_t depth, cap, maxdepth;
    uint32_t id;
    int started;
    int64_t first[2], last[2];
    uint64_t nrec, same_ts;
    uint32_t *orph;                 /* JSON pass 1: frames open at start, */
    uint32_t norph, caporph;        /* innermost first */
    uint32_t spent_orph;
};
struct mt_threads {
    struct mt_thread **pg[256];     /* by id >> 8, pages made on demand */
    uint32_t *ids;                  /* ids with records */
    uint32_t n, capids;
    int clk[2];
    int ncol;
    int64_t wall_ref;
    int have_wall_ref;
};
enum st_err mt_threads_init(struct mt_threads *ts);
void mt_threads_setup(struct mt_threads *ts, const struct mt_tables *t);
void mt_threads_free(struct mt_threads *ts);
enum st_err mt_thread_get(struct mt_threads *ts, uint32_t tid,
                          struct mt_thread **out);
/* Sorts ts->ids; then ts->ids[k] for k < ts->n with mt_thread_at. */
void mt_threads_sort(struct mt_threads *ts);
struct mt_thread *mt_thread_at(const struct mt_threads *ts, uint32_t id);
void mt_thread_times(struct mt_threads *ts, struct mt_thread *th,
                     const uint32_t raw[2], int64_t out[2]);
enum st_err mt_push(struct mt_thread *th, uint32_t midx, uint32_t key,
                    const int64_t t[2]);
long mt_find(const struct mt_thread *th, uint32_t midx);
void mt_stack_info(const struct mt_threads *ts, struct mtrace_info *info);

/* ---- profile (mtrace_profile.c) ---- */
struct mt_stat {
    uint64_t excl, incl, top_excl, rec_incl;
    uint32_t calls[2];
    uint32_t index;                 /* rank by inclusive time */
    int skip;                       /* unknown id: counted under key 1 */
    uint32_t last_edge;             /* edge + 1 last used as the child */
    int64_t id;                     /* -2 toplevel, -1 unknown */
    const char *cls, *name, *sig;   /* name NULL: print class alone */
};
struct mt_edge {
    uint32_t parent, child;         /* stat keys */
    uint64_t ctime[2];              /* in parent's children[recursive] */
    uint32_t ccalls[2];
    uint64_t ptime[2];              /* in child's parents[recursive] */
    uint32_t pcalls[2];
};
struct mt_profile {
    struct mt_tables *tab;
    struct mt_threads th;
    int col;                        /* time column used */
    struct mt_stat *s;              /* key 0 toplevel, 1 unknown, 2+ method */
    uint32_t ns, caps;
    struct mt_edge *e;
    uint32_t ne, cape;
    uint32_t *ehash;
    uint32_t ehmask;
    uint32_t *by_parent, *by_child; /* edge numbers grouped by stat key */
    uint32_t *pstart, *cstart;      /* ns + 1 offsets into those */
    uint64_t total;
    struct mtrace_info *info;
    enum mtrace_clock want;
    char err[160];
};
enum st_err mt_profile_read(struct mt_profile *p, const struct mtrace_src *src,
                            enum mtrace_clock clock, struct mtrace_info *info,
                            char *err, size_t errlen);
void mt_profile_free(struct mt_profile *p);
/* Pointers to the listed stats in comparator order (caller frees). */
struct mt_stat **mt_profile_sorted(const struct mt_profile *p,
                                   int (*cmp)(const void *, const void *),
                                   uint32_t *n);
int mt_cmp_incl(const void *a, const void *b);
int mt_cmp_excl(const void *a, const void *b);
/* Edges of one stat (as parent or as child), sorted like dmtracedump. */
struct mt_rel { uint32_t key; uint64_t time; uint32_t calls; };
struct mt_rel *mt_profile_rel(const struct mt_profile *p, uint32_t key,
                              int children, int recursive, uint32_t *n);

enum st_err mt_print_text(const struct mt_profile *p, FILE *out);
enum st_err mt_print_tsv(const struct mt_profile *p, FILE *out);
enum st_err mt_print_dot(const struct mt_profile *p, FILE *out,
                         double threshold);

#endif
