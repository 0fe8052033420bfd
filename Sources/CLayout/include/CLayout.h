#ifndef OBSBENCH_CLAYOUT_H
#define OBSBENCH_CLAYOUT_H

/// obsbench's memory layouts (`OBSBENCH_LAYOUT=N`, N ≥ 1): before the process's `main` runs, a
/// constructor reads the seed and leaves a padding allocation of a seed-derived size on the heap,
/// so that every record, key path and runtime metadata made afterwards lies at other addresses;
/// `obsbench_layout_run_on_shifted_stack` moves the main thread's stack by a seed-derived amount.
/// Hash tables keyed by addresses (Observation's registrar, the runtime's caches) then collide
/// differently, as they do between two builds of the same code. Without the variable nothing is
/// allocated and nothing moves. The same seed gives the same layout under `setarch -R`.
///
/// The same constructor reads `OBSBENCH_TABLE_SEEDS=address`: under
/// `SWIFT_DETERMINISTIC_HASHING=1` (a fixed execution seed) every Swift hash table of one size
/// gets the same per-table seed, so every record's observer table collides alike; with the
/// variable each table made afterwards is seeded by its storage address, as the standard library
/// does in a normal run, and the counts still repeat under `setarch -R`.

/// What a seed moves, in bytes: the heap (a padding allocation, 16 B to 125 KiB in steps of
/// 16), the main thread's stack (16 B to 4 KiB), and where Valgrind may start mapping the
/// process (`--aspace-minaddr`, which moves the executable, its libraries and the heap by whole
/// pages: 4 MiB plus 0 to 4,095 pages).
struct obsbench_layout_plan {
    unsigned long heap_padding;
    unsigned long stack_padding;
    unsigned long minimum_address;
};

/// The plan of `seed` (≥ 1); the same seed always gives the same plan.
struct obsbench_layout_plan obsbench_layout_plan_of(unsigned long seed);

/// The seed read from OBSBENCH_LAYOUT at start-up, or 0 when unset or not a positive integer.
unsigned long obsbench_layout_seed(void);

/// 64 pseudo-random bits from the seed and `draw`, the same for the same pair: how the heap is
/// shaken before draw number `draw` of a counted row (`InstructionCounter`).
unsigned long obsbench_layout_draw_bits(unsigned long draw);

/// The bytes of heap padding the seed asked for (0 without a seed).
unsigned long obsbench_layout_heap_padding(void);

/// The bytes the main thread's stack is moved by (0 without a seed).
unsigned long obsbench_layout_stack_padding(void);

/// Calls `body` with the stack moved down by `obsbench_layout_stack_padding()` bytes; `body`
/// need not return.
void obsbench_layout_run_on_shifted_stack(void (*body)(void));

#endif
