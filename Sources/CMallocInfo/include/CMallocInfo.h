#ifndef OBSBENCH_CMALLOCINFO_H
#define OBSBENCH_CMALLOCINFO_H

#include <stddef.h>

/// Bytes glibc malloc has handed out and not taken back (mallinfo2: uordblks + hblkhd), or 0
/// where glibc's mallinfo2 is not available. Swift cannot call mallinfo2 directly: its struct
/// is not in the Glibc module.
size_t obsbench_glibc_bytes_in_use(void);

/// 1 when obsbench_glibc_bytes_in_use reads real counters on this platform, 0 otherwise.
int obsbench_glibc_mallinfo2_available(void);

#endif
