import Dispatch
import ObservationStrategies
import Synchronization

/// How wide the cooperative pool is, and what blocking it costs: the distinct threads that ran
/// 1,000 short pool jobs (the width seen), then, with B pool tasks blocked in a synchronous wait
/// (`DispatchSemaphore.wait`, B = 1 … cores + 1), how long a new job waits to start. The blocked
/// tasks are released `holdMilliseconds` after they were started; a job that cannot start before
/// then waits almost that long.
public struct PoolWidthWorkload: Workload {
    public let name = "pool-width"
    public let summary = "threads that ran 1,000 pool jobs; start delay of a new job while B = 1 … cores + 1 pool tasks block in a synchronous wait"

    /// Its rows count the runtime's or dispatch's threads, whose timing moves them.
    public let measuredThreads = MeasuredThreads.poolThreads

    public init() {}

    static let holdMilliseconds = 20

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        var output = WorkloadOutput()
        let threads = ThreadSet()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<1_000 {
                group.addTask {
                    threads.insert(ProcessCounters.currentThreadID())
                    CPUWork.spin(nanoseconds: 20_000)
                }
            }
        }
        var width = context.countRow(
            workload: name, objects: 0, subscribers: 0, metric: .poolThreadsObserved, value: Double(threads.count),
            note: "distinct threads that ran 1,000 pool jobs of 20 µs; \(CPUWork.cores) cores")
        width.labelAsHop(executor: "cooperative-pool", callers: 0)
        output.rows.append(width)
        for blocked in 1...(CPUWork.cores + 1) {
            var delays: [Double] = []
            for _ in 0..<(context.quick ? 5 : 11) {
                let release = DispatchSemaphore(value: 0)
                let started = StartedCount()
                // Armed before the tasks block: where the main actor itself runs on the pool's
                // threads (a process drained by dispatch_main, such as the test runner), it could
                // not arm it once they all block.
                let releaser = Self.signal(release, times: blocked, afterMilliseconds: Self.holdMilliseconds)
                for _ in 0..<blocked {
                    Task.detached {
                        started.increment()
                        release.wait()
                    }
                }
                // Wait until the blocked tasks hold their threads (or as many as the pool lets start).
                let deadline = MonotonicClock.now() + 200_000_000
                while started.value < min(blocked, CPUWork.cores), MonotonicClock.now() < deadline { await Task.yield() }
                let begin = MonotonicClock.now()
                let startedAt = await Task.detached { MonotonicClock.now() }.value
                delays.append(Double(startedAt - begin))
                // Let every blocked task finish before the next trial.
                while started.value < blocked { await Task.yield() }
                releaser.wait()
            }
            output.append(
                context.latencyTrialsOutput(
                    workload: name, trials: delays, executor: "blocked-pool-tasks", callers: blocked,
                    note:
                        "start delay of a new pool job while \(blocked) pool task(s) block in DispatchSemaphore.wait, released \(Self.holdMilliseconds) ms after they started; \(CPUWork.cores) cores; \(delays.count) trials"
                ))
        }
        return output
    }

    /// A serial queue of our own, which targets an overcommitting root queue: it gets a thread
    /// even while the pool's threads (the non-overcommitting global queues') are all blocked.
    static let releaser = DispatchQueue(label: "obsbench.pool.releaser")

    /// Signals `semaphore` `times` times after a delay, from `releaser`. Nonisolated, so the
    /// block is not a main-actor closure (the runtime's isolation check would trap off the main thread).
    static func signal(_ semaphore: DispatchSemaphore, times: Int, afterMilliseconds delay: Int) -> DispatchWorkItem {
        let item = DispatchWorkItem { for _ in 0..<times { semaphore.signal() } }
        releaser.asyncAfter(deadline: .now() + .milliseconds(delay), execute: item)
        return item
    }
}

/// How many blocked tasks have started.
final class StartedCount: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .acquiring) }
    func increment() { count.add(1, ordering: .acquiringAndReleasing) }
}
