import CLayout

/// One of the memory layouts an instruction count is made under (`OBSBENCH_LAYOUT=N`).
///
/// A count of synchronous code repeats exactly in one binary, yet moves by a few percent between
/// two builds of the same code: hash tables keyed by addresses (Observation's registrar keys its
/// observers by key path, whose hash includes a metadata address; the runtime's caches) collide
/// differently when objects lie elsewhere. One layout is one accident. So the instruction mode
/// counts each row under several layouts, each worker with its own seed, and reports their mean,
/// with the spread between them as the row's uncertainty (Curtsinger and Berger's Stabilizer,
/// ASPLOS 2013, made the same point by randomising layout).
///
/// A seed moves three things (`obsbench_layout_plan_of` derives them, in `Sources/CLayout`):
/// - the executable, its libraries and the heap, by whole pages: the worker is started through
///   the dynamic loader with Valgrind's `--aspace-minaddr` at a seeded address, and the loader
///   maps the executable there, so code and constant addresses (a computed property's key path
///   is identified by one) differ as they do between builds (``minimumAddress(seed:)``);
/// - the heap, by 16 B to 125 KiB: a padding allocation made by a C constructor before `main`,
///   so before any record, key path or metadata of the measured code;
/// - the main thread's stack, by 16 B to 4 KiB (``runOnShiftedStack(_:)``).
///
/// The same seed gives the same addresses under `setarch -R`:
///
/// ```sh
/// OBSBENCH_LAYOUT=3 setarch -R obsbench self-check layout
/// # seed 3 heap-padding 48864 stack-padding 3664 object 0x555555d57890 stack 0x7fffffffd2e0 image 0x555555554000
/// ```
///
/// Under Valgrind, `obsbench run` adds the address (`CallgrindInvocation.command`):
///
/// ```sh
/// OBSBENCH_LAYOUT=3 setarch -R valgrind --tool=callgrind --aspace-minaddr=0x… /lib64/ld-linux-x86-64.so.2 obsbench …
/// ```
public enum LayoutSeed {
    /// The environment variable a worker's seed comes in.
    public static let environmentVariable = "OBSBENCH_LAYOUT"

    /// This process's seed, or nil when it runs in the binary's own layout.
    public static var seed: Int? {
        let seed = obsbench_layout_seed()
        return seed == 0 ? nil : Int(seed)
    }

    /// Bytes the heap was moved by (0 without a seed).
    public static var heapPadding: Int { Int(obsbench_layout_heap_padding()) }

    /// Bytes the main thread's stack is moved by (0 without a seed).
    public static var stackPadding: Int { Int(obsbench_layout_stack_padding()) }

    /// 64 pseudo-random bits for draw `draw` of a counted row in this layout, the same for the
    /// same seed and draw (`obsbench_layout_draw_bits`).
    public static func drawBits(draw: Int) -> UInt64 {
        UInt64(obsbench_layout_draw_bits(UInt(draw)))
    }

    /// Bytes layout `seed` moves the heap by.
    public static func heapPadding(seed: Int) -> Int {
        Int(obsbench_layout_plan_of(UInt(seed)).heap_padding)
    }

    /// Bytes layout `seed` moves the main thread's stack by.
    public static func stackPadding(seed: Int) -> Int {
        Int(obsbench_layout_plan_of(UInt(seed)).stack_padding)
    }

    /// Where Valgrind may start mapping a worker of layout `seed` (`--aspace-minaddr`).
    public static func minimumAddress(seed: Int) -> UInt {
        UInt(obsbench_layout_plan_of(UInt(seed)).minimum_address)
    }

    /// The environment that gives a worker layout `seed` (1, 2, …).
    public static func environment(seed: Int) -> [String: String] {
        [environmentVariable: String(seed)]
    }

    /// Runs `body` on the main thread's stack moved by ``stackPadding``; never returns.
    public static func runOnShiftedStack(_ body: @convention(c) () -> Void) -> Never {
        obsbench_layout_run_on_shifted_stack(body)
        fatalError("the main run loop returned")
    }
}
