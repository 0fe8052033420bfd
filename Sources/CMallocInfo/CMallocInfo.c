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

#if defined(__linux__)
#include <dlfcn.h>
#include <stdio.h>

typedef int (*obsbench_mallctl_fn)(const char *, void *, size_t *, void *, size_t);

static obsbench_mallctl_fn heap_profile_mallctl = NULL;
static const char *heap_profile_folder = NULL;
static long heap_profile_next = 0;

int obsbench_heap_profile_prepare(void) {
    const char *folder = getenv(OBSBENCH_HEAP_PROFILES_VARIABLE);
    if (folder == NULL || folder[0] == '\0') return 0;
    obsbench_mallctl_fn mallctl = (obsbench_mallctl_fn)dlsym(RTLD_DEFAULT, "mallctl");
    if (mallctl == NULL) return 0;
    _Bool active = 0;
    size_t length = sizeof(active);
    if (mallctl("opt.prof", &active, &length, NULL, 0) != 0 || !active) return 0;
    heap_profile_mallctl = mallctl;
    heap_profile_folder = folder;
    return 1;
}

long obsbench_heap_profile_dump(void) {
    if (heap_profile_mallctl == NULL) return -1;
    char path[4096];
    long number = heap_profile_next;
    if (snprintf(path, sizeof(path), "%s/%06ld.heap", heap_profile_folder, number) >= (int)sizeof(path)) return -1;
    const char *pointer = path;
    if (heap_profile_mallctl("prof.dump", NULL, NULL, &pointer, sizeof(pointer)) != 0) return -1;
    heap_profile_next = number + 1;
    return number;
}
#else
int obsbench_heap_profile_prepare(void) { return 0; }
long obsbench_heap_profile_dump(void) { return -1; }
#endif
