#ifndef OBSBENCH_CCALLGRIND_H
#define OBSBENCH_CCALLGRIND_H

/// Callgrind's client requests, for obsbench's instruction mode. Each is a few no-op
/// instructions when the process does not run under Valgrind, and does nothing at all when
/// <valgrind/callgrind.h> was not found at build time (Debian's `valgrind` package ships it).

/// 1 if <valgrind/callgrind.h> was found when this was compiled, else 0.
int obsbench_callgrind_compiled_in(void);

/// How many Valgrinds the process runs under (0: none), as RUNNING_ON_VALGRIND says.
unsigned obsbench_running_on_valgrind(void);

/// CALLGRIND_ZERO_STATS: resets every counter of every thread.
void obsbench_callgrind_zero_stats(void);

/// CALLGRIND_DUMP_STATS_AT(label): writes the counts since the last zero or dump to a new
/// profile file whose `desc: Trigger:` line names `label`, and resets them.
void obsbench_callgrind_dump_stats_at(const char *label);

/// CALLGRIND_TOGGLE_COLLECT: switches counting off (or back on) for the calling thread, so that a
/// dump can hold the sum of several windows and nothing run between them.
void obsbench_callgrind_toggle_collect(void);

#endif
