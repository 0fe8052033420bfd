#include "CCallgrind.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define OBSBENCH_HAS_CALLGRIND 1
#endif
#endif

#ifndef OBSBENCH_HAS_CALLGRIND
#define OBSBENCH_HAS_CALLGRIND 0
#endif

int obsbench_callgrind_compiled_in(void) { return OBSBENCH_HAS_CALLGRIND; }

#if OBSBENCH_HAS_CALLGRIND
unsigned obsbench_running_on_valgrind(void) { return RUNNING_ON_VALGRIND; }
void obsbench_callgrind_zero_stats(void) { CALLGRIND_ZERO_STATS; }
void obsbench_callgrind_dump_stats_at(const char *label) { CALLGRIND_DUMP_STATS_AT(label); }
void obsbench_callgrind_toggle_collect(void) { CALLGRIND_TOGGLE_COLLECT; }
#else
unsigned obsbench_running_on_valgrind(void) { return 0; }
void obsbench_callgrind_zero_stats(void) {}
void obsbench_callgrind_dump_stats_at(const char *label) { (void)label; }
void obsbench_callgrind_toggle_collect(void) {}
#endif
