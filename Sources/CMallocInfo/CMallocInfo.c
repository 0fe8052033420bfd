#include "CMallocInfo.h"
#include <stdlib.h> /* defines __GLIBC__ on glibc systems */

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <malloc.h>

size_t obsbench_glibc_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

int obsbench_glibc_mallinfo2_available(void) { return 1; }
#else
size_t obsbench_glibc_bytes_in_use(void) { return 0; }
int obsbench_glibc_mallinfo2_available(void) { return 0; }
#endif
