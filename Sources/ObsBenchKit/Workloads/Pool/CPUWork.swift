import Dispatch
import Foundation

/// CPU-bound work with no suspension point: spins on the clock for a fixed time, as a parse or
/// an image decode occupies its thread. Where it runs is the question (`ComputePlacement`).
enum CPUWork {
    /// Busy for `nanoseconds` on the calling thread; never suspends.
    static func spin(nanoseconds: UInt64) {
        let end = MonotonicClock.now() &+ nanoseconds
        var counter = 0
        while MonotonicClock.now() < end { counter &+= 1 }
        blackHole(counter)
    }

    /// Cores the machine offers, as the cooperative pool sizes itself.
    static var cores: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// Sleeps the calling thread (lets the compute just started take its threads).
    static func sleep(milliseconds: Int) {
        usleep(useconds_t(milliseconds * 1_000))
    }
}

/// Where K CPU-bound tasks run while the pool suite probes latency.
public enum ComputePlacement: String, Sendable, CaseIterable {
    /// K `Task.detached` on the cooperative pool.
    case pool
    /// K tasks preferring a custom `TaskExecutor` with its own two threads (SE-0417).
    case taskExecutor = "task-executor"
    /// One `DispatchQueue.concurrentPerform` of K iterations, started from a global queue.
    case concurrentPerform = "concurrent-perform"

    /// Starts `count` pieces of work of `nanoseconds` each; returns once all have finished.
    /// `finished` is called at the end of each piece, on its thread (a test counts them).
    func run(_ count: Int, nanoseconds: UInt64, executor: ThreadPoolTaskExecutor, finished: @escaping @Sendable () -> Void = {}) async {
        guard count > 0 else { return }
        switch self {
        case .pool:
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<count {
                    group.addTask {
                        CPUWork.spin(nanoseconds: nanoseconds)
                        finished()
                    }
                }
            }
        case .taskExecutor:
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<count {
                    group.addTask(executorPreference: executor) {
                        CPUWork.spin(nanoseconds: nanoseconds)
                        finished()
                    }
                }
            }
        case .concurrentPerform:
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    DispatchQueue.concurrentPerform(iterations: count) { _ in
                        CPUWork.spin(nanoseconds: nanoseconds)
                        finished()
                    }
                    continuation.resume()
                }
            }
        }
    }
}

/// A default actor the probes call into: it runs on the cooperative pool.
actor PoolProbeActor {
    private var calls = 0
    func touch() -> Int {
        calls += 1
        return calls
    }
}
