import ObservationStrategies
import Synchronization

/// Round trips into one kind of isolation and back, with 1, 2, 8 and 64 concurrent callers:
/// per-caller latency, throughput, context switches per 1,000 hops, the threads the process has,
/// and how many distinct threads ran the callers (the pool width observed).
///
/// Callers are child tasks on the cooperative pool (or, for `task-executor`, tasks preferring a
/// thread-pool `TaskExecutor`); for `main-to-actor` they are main-actor tasks calling a default
/// actor (one caller: the main actor's own loop).
/// The harness only awaits; nothing it does blocks a pool thread (the `dispatch-queue-sync`
/// store does, by design: that is what a GCD store's synchronous read costs).
public struct RoundTripHopWorkload: Workload {
    /// Where the value lives and who calls it.
    public enum Kind: String, Sendable, CaseIterable {
        case defaultActor = "default-actor"
        case mainActor = "main-actor"
        case dedicatedThreadActor = "dedicated-thread-actor"
        case taskExecutorToActor = "task-executor-to-actor"
        case dispatchQueueSync = "dispatch-queue-sync"
        case mutex = "mutex"
        case mainToActor = "main-to-actor"

        var summary: String {
            switch self {
            case .defaultActor: "pool tasks call a default actor"
            case .mainActor: "pool tasks call the main actor (main thread, drained by the worker)"
            case .dedicatedThreadActor: "pool tasks call an actor whose executor is a dedicated thread (SE-0392)"
            case .taskExecutorToActor: "tasks preferring a TaskExecutor with threads of its own (SE-0417; 2 timed, 1 counted) call a default actor"
            case .dispatchQueueSync: "pool tasks read through a serial DispatchQueue's sync"
            case .mutex: "pool tasks read through a Mutex (no hop: the floor)"
            case .mainToActor: "main-actor tasks call a default actor"
            }
        }
    }

    public let kind: Kind
    public var name: String { "hop-\(kind.rawValue)" }
    public var summary: String { kind.summary }

    public static let concurrencies = [1, 2, 8, 64]
    /// Under `--measure instructions` only one caller is counted: Valgrind runs one thread at a
    /// time, so concurrent callers would measure its scheduler, not the hop.
    public let countsInstructions = true

    /// Its rows count the runtime's or dispatch's threads, whose timing moves them.
    public let measuredThreads = MeasuredThreads.poolThreads

    public init(kind: Kind) {
        self.kind = kind
    }

    /// The task executor's threads. Timed, two; counted, one: only one caller is counted, and
    /// with a second idle thread which of the two took each job was Valgrind's scheduling (it runs
    /// one thread at a time), which moved a pair's count between 4,500 and 5,400 Ir per round trip
    /// and the row's mean by up to 4.8% between runs of one binary. With one thread 15 pairs
    /// agreed within 1% (5,264 to 5,318 Ir): the hop itself, executor to actor and back.
    static func taskExecutorThreads(_ measure: CostMeasure) -> Int {
        measure == .instructions ? 1 : 2
    }

    /// What a task-executor hop's counted row (and the hops table) says of its executor.
    static let countedThreadsNote = "counted on an executor of 1 thread: with 2, which of them took each job was Valgrind's scheduling"

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        let dedicated = kind == .dedicatedThreadActor ? DedicatedThreadExecutor(name: "obsbench-actor") : nil
        let executorThreads = Self.taskExecutorThreads(context.measure)
        let pool = kind == .taskExecutorToActor ? ThreadPoolTaskExecutor(name: "obsbench-executor", threads: executorThreads) : nil
        defer {
            dedicated?.shutdown()
            pool?.shutdown()
        }
        let store: any HopStore =
            switch kind {
            case .defaultActor, .taskExecutorToActor, .mainToActor: DefaultActorStore()
            case .mainActor: MainActorStore()
            case .dedicatedThreadActor: DedicatedThreadActorStore(executor: dedicated!)
            case .dispatchQueueSync: DispatchQueueStore()
            case .mutex: MutexStore()
            }
        let settings = context.hopSampler
        let threadsNote = pool != nil && context.measure == .instructions ? "; \(Self.countedThreadsNote)" : ""
        var output = WorkloadOutput()
        for callers in context.measure == .instructions ? [1] : Self.concurrencies {
            let threads = ThreadSet()
            var hops = 0
            let before = ProcessCounters.read()
            let measured = try await context.measureCost(
                { iterations in
                    hops += iterations * callers
                    if kind == .mainToActor && callers == 1 {
                        threads.insert(ProcessCounters.currentThreadID())
                        for _ in 0..<iterations { blackHole(await store.read()) }
                    } else if kind == .mainToActor {
                        await Self.mainActorCallers(callers, iterations: iterations, threads: threads) { await store.read() }
                    } else {
                        await Self.callers(callers, iterations: iterations, preferring: pool, threads: threads) { await store.read() }
                    }
                },
                emptyBatch: { iterations in
                    if kind == .mainToActor && callers == 1 {
                        for index in 0..<iterations { blackHole(index) }
                    } else if kind == .mainToActor {
                        await Self.mainActorCallers(callers, iterations: iterations, threads: nil) { 1 }
                    } else {
                        await Self.callers(callers, iterations: iterations, preferring: pool, threads: nil) { 1 }
                    }
                }, sampler: settings, label: "\(name) c=\(callers)")
            let after = ProcessCounters.read()
            var latency = context.latencyOutput(
                workload: name, subscribers: 0, measured: measured,
                note: "\(kind.summary)\(threadsNote); \(callers) concurrent caller(s); per round trip as each caller sees it")
            latency.labelAsHop(executor: kind.rawValue, callers: callers)
            output.append(latency)
            guard case .time(let sampled) = measured else { continue }
            func row(_ metric: Metric, _ value: Double?, _ note: String) -> ResultRow {
                var row = context.countRow(workload: name, objects: 0, subscribers: 0, metric: metric, value: value, note: note)
                row.labelAsHop(executor: kind.rawValue, callers: callers)
                return row
            }
            let median = Statistics.percentile(sampled.nanosecondsPerOperation.sorted(), 0.5)
            let unavailable = "not measurable here: getrusage failed"
            output.rows += [
                row(.throughput, median > 0 ? Double(callers) * 1e9 / median : nil, "callers / median round trip"),
                row(
                    .voluntarySwitchesPer1000Hops,
                    before.flatMap { b in after.map { Double($0.voluntarySwitches - b.voluntarySwitches) * 1_000 / Double(max(hops, 1)) } },
                    before == nil
                        ? unavailable
                        : "getrusage(RUSAGE_SELF): every thread the process had, exited ones included, over the whole measurement (warm-up and the empty loop's task spawns included), \(hops) hops"
                ),
                row(
                    .involuntarySwitchesPer1000Hops,
                    before.flatMap { b in after.map { Double($0.involuntarySwitches - b.involuntarySwitches) * 1_000 / Double(max(hops, 1)) } },
                    before == nil ? unavailable : "getrusage(RUSAGE_SELF): every thread the process had, over the whole measurement, \(hops) hops"),
                row(.threads, after?.threads.map(Double.init), after?.threads == nil ? "not measurable here: no /proc/self/task" : "threads in the process after the measurement"),
                row(.callerThreadsObserved, Double(threads.count), "distinct threads the callers ran on (the pool width they got)"),
            ]
        }
        return output
    }

    /// Runs `callers` child tasks, each making `iterations` calls of `body`; records the thread
    /// each caller started on in `threads`.
    static func callers(_ callers: Int, iterations: Int, preferring executor: ThreadPoolTaskExecutor?, threads: ThreadSet?, _ body: @escaping @Sendable () async -> Int) async {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<callers {
                let loop: @Sendable () async -> Void = {
                    threads?.insert(ProcessCounters.currentThreadID())
                    for _ in 0..<iterations { blackHole(await body()) }
                }
                if let executor {
                    group.addTask(executorPreference: executor, operation: loop)
                } else {
                    group.addTask(operation: loop)
                }
            }
        }
    }
}

extension RoundTripHopWorkload {
    /// Runs `callers` main-actor tasks, each making `iterations` calls of `body`, and waits for all.
    static func mainActorCallers(_ callers: Int, iterations: Int, threads: ThreadSet?, _ body: @escaping @Sendable () async -> Int) async {
        let loop: @MainActor @Sendable () async -> Void = {
            threads?.insert(ProcessCounters.currentThreadID())
            for _ in 0..<iterations { blackHole(await body()) }
        }
        let tasks = (0..<callers).map { _ in Task { @MainActor in await loop() } }
        for task in tasks { await task.value }
    }
}

/// The distinct threads callers ran on.
final class ThreadSet: Sendable {
    private let ids = Locked<Set<Int>>([])
    func insert(_ id: Int) { ids.withLock { _ = $0.insert(id) } }
    var count: Int { ids.withLock { $0.count } }
}
