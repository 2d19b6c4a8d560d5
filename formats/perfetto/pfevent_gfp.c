/*
 * gfp_flags printed as the kernel's flag names, the way Perfetto's to_ftrace
 * does for any field called gfp_flags (its types/gfp_flags.cc): the mask
 * table of the kernel version (3.4, 3.10, 4.4 or 4.14 layouts, 4.4 when the
 * version is unknown), composite masks first, each matching mask cleared and
 * named, leftover bits as 0xHEX, 0 as GFP_NOWAIT.  The masks are the
 * kernel's __GFP_* values of each era (include/linux/gfp.h).
 */
#include "pfevent_int.h"

struct gfp { uint32_t mask; const char *name; };

/* Shorthands of the 3.x and 4.4 layouts. */
#define W 0x10u         /* 3.x __GFP_WAIT */
#define IO 0x40u
#define FS 0x80u
#define HW 0x20000u
#define HM 0x02u
#define MV 0x08u
#define R44 (0x400000u | 0x2000000u)    /* 4.4 __GFP_RECLAIM */
#define R414 (0x400000u | 0x1000000u)   /* 4.14 __GFP_RECLAIM */

static const struct gfp v3_4[] = {
    {W | IO | FS | HW | HM | MV | 0x4000u | 0x10000u | 0x1000u | 0x200u | 0x400000u,
     "GFP_TRANSHUGE"},
    {W | IO | FS | HW | HM | MV, "GFP_HIGHUSER_MOVABLE"}, {W | IO | FS | HW | HM, "GFP_HIGHUSER"},
    {W | IO | FS | HW, "GFP_USER"}, {W | IO | FS | 0x80000u, "GFP_TEMPORARY"},
    {W | IO | FS, "GFP_KERNEL"}, {W | IO, "GFP_NOFS"}, {0x20u, "GFP_ATOMIC"}, {W, "GFP_NOIO"},
    {0x20u, "GFP_HIGH"}, {W, "GFP_WAIT"}, {IO, "GFP_IO"}, {0x100u, "GFP_COLD"},
    {0x200u, "GFP_NOWARN"}, {0x400u, "GFP_REPEAT"}, {0x800u, "GFP_NOFAIL"},
    {0x1000u, "GFP_NORETRY"}, {0x4000u, "GFP_COMP"}, {0x8000u, "GFP_ZERO"},
    {0x10000u, "GFP_NOMEMALLOC"}, {0x20000u, "GFP_HARDWALL"}, {0x40000u, "GFP_THISNODE"},
    {0x80000u, "GFP_RECLAIMABLE"}, {MV, "GFP_MOVABLE"}, {0, "GFP_NOTRACK"},
    {0x400000u, "GFP_NO_KSWAPD"}, {0x800000u, "GFP_OTHER_NODE"}, {0, NULL},
};

static const struct gfp v3_10[] = {
    {W | IO | FS | HW | HM | MV | 0x4000u | 0x10000u | 0x1000u | 0x200u | 0x400000u,
     "GFP_TRANSHUGE"},
    {W | IO | FS | HW | HM | MV, "GFP_HIGHUSER_MOVABLE"}, {W | IO | FS | HW | HM, "GFP_HIGHUSER"},
    {W | IO | FS | HW, "GFP_USER"}, {W | IO | FS | 0x80000u, "GFP_TEMPORARY"},
    {W | IO | FS, "GFP_KERNEL"}, {W | IO, "GFP_NOFS"}, {0x20u, "GFP_ATOMIC"}, {W, "GFP_NOIO"},
    {0x20u, "GFP_HIGH"}, {W, "GFP_WAIT"}, {IO, "GFP_IO"}, {0x100u, "GFP_COLD"},
    {0x200u, "GFP_NOWARN"}, {0x400u, "GFP_REPEAT"}, {0x800u, "GFP_NOFAIL"},
    {0x1000u, "GFP_NORETRY"}, {0x4000u, "GFP_COMP"}, {0x8000u, "GFP_ZERO"},
    {0x10000u, "GFP_NOMEMALLOC"}, {0x2000u, "GFP_MEMALLOC"}, {0x20000u, "GFP_HARDWALL"},
    {0x40000u, "GFP_THISNODE"}, {0x80000u, "GFP_RECLAIMABLE"}, {0x100000u, "GFP_KMEMCG"},
    {MV, "GFP_MOVABLE"}, {0x200000u, "GFP_NOTRACK"}, {0x400000u, "GFP_NO_KSWAPD"},
    {0x800000u, "GFP_OTHER_NODE"}, {0, NULL},
};

static const struct gfp v4_4[] = {
    {(R44 | IO | FS | HW | HM | MV | 0x4000u | 0x10000u | 0x1000u | 0x200u) & ~0x2000000u,
     "GFP_TRANSHUGE"},
    {R44 | IO | FS | HW | HM | MV, "GFP_HIGHUSER_MOVABLE"}, {R44 | IO | FS | HW | HM, "GFP_HIGHUSER"},
    {R44 | IO | FS | HW, "GFP_USER"}, {R44 | IO | FS | 0x10u, "GFP_TEMPORARY"},
    {R44 | IO | FS, "GFP_KERNEL"}, {R44 | IO, "GFP_NOFS"},
    {0x20u | 0x80000u | 0x2000000u, "GFP_ATOMIC"}, {R44, "GFP_NOIO"}, {0x20u, "GFP_HIGH"},
    {0x80000u, "GFP_ATOMIC"}, {IO, "GFP_IO"}, {0x100u, "GFP_COLD"}, {0x200u, "GFP_NOWARN"},
    {0x400u, "GFP_REPEAT"}, {0x800u, "GFP_NOFAIL"}, {0x1000u, "GFP_NORETRY"},
    {0x4000u, "GFP_COMP"}, {0x8000u, "GFP_ZERO"}, {0x10000u, "GFP_NOMEMALLOC"},
    {0x2000u, "GFP_MEMALLOC"}, {0x20000u, "GFP_HARDWALL"}, {0x40000u, "GFP_THISNODE"},
    {0x10u, "GFP_RECLAIMABLE"}, {MV, "GFP_MOVABLE"}, {0x200000u, "GFP_NOTRACK"},
    {0x400000u, "GFP_DIRECT_RECLAIM"}, {0x2000000u, "GFP_KSWAPD_RECLAIM"},
    {0x800000u, "GFP_OTHER_NODE"}, {0, NULL},
};

static const struct gfp v4_14[] = {
    {((R414 | IO | FS | HW | HM | MV | 0x4000u | 0x10000u | 0x200u) & ~R414) | 0x400000u,
     "GFP_TRANSHUGE"},
    {(R414 | IO | FS | HW | HM | MV | 0x4000u | 0x10000u | 0x200u) & ~R414,
     "GFP_TRANSHUGE_LIGHT"},
    {R414 | IO | FS | HW | HM | MV, "GFP_HIGHUSER_MOVABLE"},
    {R414 | IO | FS | HW | HM, "GFP_HIGHUSER"}, {R414 | IO | FS | HW, "GFP_USER"},
    {R414 | IO | FS | 0x100000u, "GFP_KERNEL_ACCOUNT"}, {R414 | IO | FS, "GFP_KERNEL"},
    {R414 | IO, "GFP_NOFS"}, {0x20u | 0x80000u | 0x1000000u, "GFP_ATOMIC"}, {R414, "GFP_NOIO"},
    {0x1000000u, "GFP_NOWAIT"}, {0x01u, "GFP_DMA"}, {0x02u, "__GFP_HIGHMEM"},
    {0x04u, "GFP_DMA32"}, {0x20u, "__GFP_HIGH"}, {0x80000u, "__GFP_ATOMIC"},
    {IO, "__GFP_IO"}, {FS, "__GFP_FS"}, {0x100u, "__GFP_COLD"}, {0x200u, "__GFP_NOWARN"},
    {0x400u, "__GFP_RETRY_MAYFAIL"}, {0x800u, "__GFP_NOFAIL"}, {0x1000u, "__GFP_NORETRY"},
    {0x4000u, "__GFP_COMP"}, {0x8000u, "__GFP_ZERO"}, {0x10000u, "__GFP_NOMEMALLOC"},
    {0x2000u, "__GFP_MEMALLOC"}, {0x20000u, "__GFP_HARDWALL"}, {0x40000u, "__GFP_THISNODE"},
    {0x10u, "__GFP_RECLAIMABLE"}, {MV, "__GFP_MOVABLE"}, {0x100000u, "__GFP_ACCOUNT"},
    {0x800000u, "__GFP_WRITE"}, {R414, "__GFP_RECLAIM"}, {0x400000u, "__GFP_DIRECT_RECLAIM"},
    {0x1000000u, "__GFP_KSWAPD_RECLAIM"}, {0, NULL},
};

static int version_below(const struct pfevent_ctx *c, int major, int minor)
{
    int ma = c->kernel_major, mi = c->kernel_minor;
    if (ma == 0 && mi == 0) {
        ma = 4;
        mi = 4;
    }
    return ma < major || (ma == major && mi < minor);
}

void pfevent_gfp(struct pfw *w, uint64_t flags)
{
    const struct gfp *t;
    int any = 0;

    if (flags == 0) {
        pfw_str(w, "GFP_NOWAIT");
        return;
    }
    t = version_below(w->c, 3, 10) ? v3_4
        : version_below(w->c, 4, 4) ? v3_10
        : version_below(w->c, 4, 14) ? v4_4 : v4_14;
    for (; t->name; t++) {
        if ((flags & t->mask) != t->mask)
            continue;
        flags &= ~(uint64_t)t->mask;
        if (any)
            pfw_put(w, "|", 1);
        pfw_str(w, t->name);
        any = 1;
    }
    if (flags) {
        if (any)
            pfw_put(w, "|", 1);
        pfw_put(w, "0x", 2);
        pfw_hex(w, flags);
    }
}
