import ObservationStrategies

/// Which threads of a worker Callgrind counts (their instructions and cache events: Callgrind
/// counts calls on every thread whatever it collects, so a row's retains and releases may include
/// another thread's).
///
/// A synchronous strategy's operations run on the thread that calls them, the worker's main
/// thread (``ObservationStrategies/Delivery/synchronous``: delivered before the write returns, on
/// the writing thread). Its worker counts that thread alone. Every other thread of the process
/// belongs to libdispatch and the Swift runtime. Their work follows the wall clock, not the
/// operation: the worker pool's monitor wakes each second to read `/proc` (`fscanf`), the pool
/// starts or ends a thread. Counted with the rest, a second's tick falling in one process's counted
/// window and not in another's moved plain's drawn rows by up to 1.1% between two processes of one
/// binary in one layout (write-observed 502.5 against 508.0 Ir/op), beyond their layouts' spread.
/// Asynchronous strategies, and suites that measure no strategy (cross-thread hops), deliver on
/// other threads: their workers count every thread.
public enum CountedThreads: String, Sendable {
    /// Every thread of the process (Callgrind's default).
    case all
    /// The worker's main thread alone: the others never switch counting on.
    case mainThread = "main"

    /// The threads a worker of `strategy` counts (nil: a suite that measures no strategy).
    public static func counted(for strategy: StrategyEntry?) -> CountedThreads {
        strategy?.descriptor.capabilities.delivery == .synchronous ? .mainThread : .all
    }

    /// Callgrind's options for it: threads start not counting, and the worker's main thread
    /// switches counting on (``Callgrind/countMainThreadAloneIfAsked()``). Recorded in `run.json`
    /// through ``rule``, not in ``InstructionFacts/options`` (which every worker gets).
    var options: [String] {
        self == .mainThread ? ["--collect-atstart=no"] : []
    }

    /// What a counted row's note says of it.
    var note: String {
        self == .mainThread ? "Callgrind, the main thread alone" : "Callgrind, every thread"
    }

    /// The rule as `run.json` records it (``InstructionFacts/countedThreads``).
    public static let rule =
        "synchronous strategies: the worker's main thread alone (--collect-atstart=no; the main thread switches counting on); "
        + "asynchronous strategies and suites that measure no strategy: every thread"
}
