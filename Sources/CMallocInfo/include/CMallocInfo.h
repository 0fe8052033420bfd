#ifndef OBSBENCH_CMALLOCINFO_H
#define OBSBENCH_CMALLOCINFO_H

#include <stddef.h>

/// Bytes glibc malloc has handed out and not taken back (mallinfo2: uordblks + hblkhd), or 0
/// where glibc's mallinfo2 is not available. Swift cannot call mallinfo2 directly: its struct
/// is not in the Glibc module.
size_t obsbench_glibc_bytes_in_use(void);

/// 1 when obsbench_glibc_bytes_in_use reads real counters on this platform, 0 otherwise.
int obsbench_glibc_mallinfo2_available(void);

/// The environment variable naming the folder a heap-profiling memory worker dumps into.
#define OBSBENCH_HEAP_PROFILES_VARIABLE "OBSBENCH_HEAP_PROFILES"

/// 1 when this process runs on jemalloc with heap profiling on (`MALLOC_CONF=prof:true,…`) and
/// OBSBENCH_HEAP_PROFILES names a folder: obsbench_heap_profile_dump then writes profiles there.
/// Resolves everything the dump needs, so a dump allocates nothing the profile would count.
int obsbench_heap_profile_prepare(void);

/// Writes jemalloc's heap profile now (the `prof.dump` mallctl) to FOLDER/NNNNNN.heap, numbered
/// from 0 in the order taken, and returns its number; -1 when not prepared or the dump failed.
/// Called from one thread at a time (a memory workload's readings).
long obsbench_heap_profile_dump(void);

#endif
