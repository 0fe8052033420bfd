#include "CLayout.h"

#include <alloca.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static unsigned long seed;
static unsigned long heap_padding;
static unsigned long stack_padding;
static void *volatile padding_block;

/// The standard library's hashing parameters (SwiftShims' `_SwiftHashingParameters`, exported by
/// libswiftCore): the execution seed and whether hash tables are seeded deterministically.
struct obsbench_swift_hashing_parameters {
    uint64_t seed0;
    uint64_t seed1;
    _Bool deterministic;
};
extern struct obsbench_swift_hashing_parameters _swift_stdlib_Hashing_parameters;

/// SplitMix64: a seed's sizes, spread over their whole range whichever seeds are asked for.
static uint64_t mix(uint64_t value) {
    value += 0x9E3779B97F4A7C15ull;
    value = (value ^ (value >> 30)) * 0xBF58476D1CE4E5B9ull;
    value = (value ^ (value >> 27)) * 0x94D049BB133111EBull;
    return value ^ (value >> 31);
}

/// Runs before `main` (priority 101, the first a program may use), so before any Swift record,
/// key path or metadata of the measured code exists. The padding stays allocated for the life of
/// the process. Sizes are multiples of 16 (malloc's alignment) below glibc's 128 KiB mmap
/// threshold, so the padding comes from the same heap as what follows it.
__attribute__((constructor(101))) static void obsbench_layout_start(void) {
    // SWIFT_DETERMINISTIC_HASHING=1 fixes the execution seed (0) and also gives every hash table
    // of one size the same seed. With OBSBENCH_TABLE_SEEDS=address each table made from now on
    // is seeded by its storage's address again, as in a program run without the variable, while
    // the execution seed stays fixed. Tables made before keep the seed stored in them, so
    // nothing already hashed moves.
    const char *tables = getenv("OBSBENCH_TABLE_SEEDS");
    if (tables != NULL && strcmp(tables, "address") == 0) _swift_stdlib_Hashing_parameters.deterministic = 0;
    const char *text = getenv("OBSBENCH_LAYOUT");
    if (text == NULL || *text == '\0') return;
    char *end = NULL;
    unsigned long value = strtoul(text, &end, 10);
    if (end == NULL || *end != '\0' || value == 0) return;
    seed = value;
    struct obsbench_layout_plan plan = obsbench_layout_plan_of(value);
    heap_padding = plan.heap_padding;
    stack_padding = plan.stack_padding;
    padding_block = malloc(heap_padding);
    if (padding_block != NULL) memset(padding_block, 0, 1);
}

struct obsbench_layout_plan obsbench_layout_plan_of(unsigned long value) {
    uint64_t bits = mix(value), more = mix(bits);
    struct obsbench_layout_plan plan;
    plan.heap_padding = 16 * (1 + (bits % 8000));             // 16 B to 125 KiB
    plan.stack_padding = 16 * (1 + ((bits >> 32) % 256));     // 16 B to 4 KiB
    plan.minimum_address = 0x400000 + 0x1000 * (more % 4096);  // 4 MiB + 0 to 4,095 pages
    return plan;
}

unsigned long obsbench_layout_draw_bits(unsigned long draw) { return mix(mix(seed) ^ draw); }

unsigned long obsbench_layout_seed(void) { return seed; }
unsigned long obsbench_layout_heap_padding(void) { return heap_padding; }
unsigned long obsbench_layout_stack_padding(void) { return stack_padding; }

void obsbench_layout_run_on_shifted_stack(void (*body)(void)) {
    volatile char *moved = alloca(stack_padding + 1);
    moved[0] = 0;
    body();
    moved[0] = 1;  // keeps the frame (and the moved stack) alive across the call
}
