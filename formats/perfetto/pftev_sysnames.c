/*
 * The names Perfetto gives a sys_stats meminfo or vmstat counter (its
 * counter_track name), by the key's enum value (MeminfoCounters,
 * VmstatCounters in ../shared/reference/perfetto-protos/): read from
 * Perfetto's trace processor v58.2 loading a trace with every key once.
 * meminfo's are /proc/meminfo's names, vmstat's /proc/vmstat's.
 */
#include "pftev_int.h"

static const char *const meminfo[39] = {
    NULL, "MemTotal", "MemFree", "MemAvailable", "Buffers", "Cached", "SwapCached", "Active",
    "Inactive", "Active(anon)", "Inactive(anon)", "Active(file)", "Inactive(file)",
    "Unevictable", "Mlocked", "SwapTotal", "SwapFree", "Dirty", "Writeback", "AnonPages",
    "Mapped", "Shmem", "Slab", "SReclaimable", "SUnreclaim", "KernelStack", "PageTables",
    "CommitLimit", "Committed_AS", "VmallocTotal", "VmallocUsed", "VmallocChunk", "CmaTotal",
    "CmaFree", "Gpu", "Zram", "Misc", "ION_heap", "ION_heap_pool",
};

static const char *const vmstat[189] = {
    NULL, "nr_free_pages", "nr_alloc_batch", "nr_inactive_anon", "nr_active_anon",
    "nr_inactive_file", "nr_active_file", "nr_unevictable", "nr_mlock", "nr_anon_pages",
    "nr_mapped", "nr_file_pages", "nr_dirty", "nr_writeback", "nr_slab_reclaimable",
    "nr_slab_unreclaimable", "nr_page_table_pages", "nr_kernel_stack", "nr_overhead",
    "nr_unstable", "nr_bounce", "nr_vmscan_write", "nr_vmscan_immediate_reclaim",
    "nr_writeback_temp", "nr_isolated_anon", "nr_isolated_file", "nr_shmem", "nr_dirtied",
    "nr_written", "nr_pages_scanned", "workingset_refault", "workingset_activate",
    "workingset_nodereclaim", "nr_anon_transparent_hugepages", "nr_free_cma", "nr_swapcache",
    "nr_dirty_threshold", "nr_dirty_background_threshold", "pgpgin", "pgpgout",
    "pgpgoutclean", "pswpin", "pswpout", "pgalloc_dma", "pgalloc_normal", "pgalloc_movable",
    "pgfree", "pgactivate", "pgdeactivate", "pgfault", "pgmajfault", "pgrefill_dma",
    "pgrefill_normal", "pgrefill_movable", "pgsteal_kswapd_dma", "pgsteal_kswapd_normal",
    "pgsteal_kswapd_movable", "pgsteal_direct_dma", "pgsteal_direct_normal",
    "pgsteal_direct_movable", "pgscan_kswapd_dma", "pgscan_kswapd_normal",
    "pgscan_kswapd_movable", "pgscan_direct_dma", "pgscan_direct_normal",
    "pgscan_direct_movable", "pgscan_direct_throttle", "pginodesteal", "slabs_scanned",
    "kswapd_inodesteal", "kswapd_low_wmark_hit_quickly", "kswapd_high_wmark_hit_quickly",
    "pageoutrun", "allocstall", "pgrotated", "drop_pagecache", "drop_slab",
    "pgmigrate_success", "pgmigrate_fail", "compact_migrate_scanned", "compact_free_scanned",
    "compact_isolated", "compact_stall", "compact_fail", "compact_success",
    "compact_daemon_wake", "unevictable_pgs_culled", "unevictable_pgs_scanned",
    "unevictable_pgs_rescued", "unevictable_pgs_mlocked", "unevictable_pgs_munlocked",
    "unevictable_pgs_cleared", "unevictable_pgs_stranded", "nr_zspages", "nr_ion_heap",
    "nr_gpu_heap", "allocstall_dma", "allocstall_movable", "allocstall_normal",
    "compact_daemon_free_scanned", "compact_daemon_migrate_scanned", "nr_fastrpc",
    "nr_indirectly_reclaimable", "nr_ion_heap_pool", "nr_kernel_misc_reclaimable",
    "nr_shadow_call_stack_bytes", "nr_shmem_hugepages", "nr_shmem_pmdmapped",
    "nr_unreclaimable_pages", "nr_zone_active_anon", "nr_zone_active_file",
    "nr_zone_inactive_anon", "nr_zone_inactive_file", "nr_zone_unevictable",
    "nr_zone_write_pending", "oom_kill", "pglazyfree", "pglazyfreed", "pgrefill",
    "pgscan_direct", "pgscan_kswapd", "pgskip_dma", "pgskip_movable", "pgskip_normal",
    "pgsteal_direct", "pgsteal_kswapd", "swap_ra", "swap_ra_hit", "workingset_restore",
    "allocstall_device", "allocstall_dma32", "balloon_deflate", "balloon_inflate",
    "balloon_migrate", "cma_alloc_fail", "cma_alloc_success", "nr_file_hugepages",
    "nr_file_pmdmapped", "nr_foll_pin_acquired", "nr_foll_pin_released",
    "nr_sec_page_table_pages", "nr_shadow_call_stack", "nr_swapcached",
    "nr_throttled_written", "pgalloc_device", "pgalloc_dma32", "pgdemote_direct",
    "pgdemote_kswapd", "pgreuse", "pgscan_anon", "pgscan_file", "pgskip_device",
    "pgskip_dma32", "pgsteal_anon", "pgsteal_file", "thp_collapse_alloc",
    "thp_collapse_alloc_failed", "thp_deferred_split_page", "thp_fault_alloc",
    "thp_fault_fallback", "thp_fault_fallback_charge", "thp_file_alloc", "thp_file_fallback",
    "thp_file_fallback_charge", "thp_file_mapped", "thp_migration_fail",
    "thp_migration_split", "thp_migration_success", "thp_scan_exceed_none_pte",
    "thp_scan_exceed_share_pte", "thp_scan_exceed_swap_pte", "thp_split_page",
    "thp_split_page_failed", "thp_split_pmd", "thp_swpout", "thp_swpout_fallback",
    "thp_zero_page_alloc", "thp_zero_page_alloc_failed", "vma_lock_abort", "vma_lock_miss",
    "vma_lock_retry", "vma_lock_success", "workingset_activate_anon",
    "workingset_activate_file", "workingset_nodes", "workingset_refault_anon",
    "workingset_refault_file", "workingset_restore_anon", "workingset_restore_file",
};

const char *pftev_sysname(int is_vmstat, uint64_t key)
{
    if (is_vmstat)
        return key < sizeof(vmstat) / sizeof(*vmstat) ? vmstat[key] : NULL;
    return key < sizeof(meminfo) / sizeof(*meminfo) ? meminfo[key] : NULL;
}
