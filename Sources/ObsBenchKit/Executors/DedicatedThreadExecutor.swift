import Foundation
import ObservationStrategies

/// A `SerialExecutor` that runs every job on one dedicated thread of its own: what an actor
/// with `unownedExecutor` pointing here runs on (SE-0392). A hop to it is a hand-off to that
/// thread, woken through a condition variable when it sleeps.
public final class DedicatedThreadExecutor: SerialExecutor, Sendable {
    private let jobs = JobQueue()
    private let runningThreadID = Locked<Int?>(nil)

    /// The id (`ProcessCounters.currentThreadID()`) of the thread that runs the jobs, once started.
    public var threadID: Int? { runningThreadID.withLock { $0 } }

    public init(name: String) {
        let thread = Thread { [unowned self] in self.runLoop() }
        thread.name = name
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        jobs.push(UnownedJob(job))
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Lets the thread finish the jobs it has and exit.
    public func shutdown() {
        jobs.shutdown()
    }

    private func runLoop() {
        runningThreadID.withLock { $0 = ProcessCounters.currentThreadID() }
        while let batch = jobs.take(all: true) {
            for job in batch { job.runSynchronously(on: asUnownedSerialExecutor()) }
        }
    }
}

/// A `TaskExecutor` backed by a fixed pool of threads of its own, for
/// `withTaskExecutorPreference` (SE-0417): tasks that prefer it run their nonisolated code on
/// these threads instead of the cooperative pool.
public final class ThreadPoolTaskExecutor: TaskExecutor, Sendable {
    private let jobs = JobQueue()
    private let runningThreadIDs = Locked<Set<Int>>([])
    public let width: Int

    /// The ids (`ProcessCounters.currentThreadID()`) of the threads that run the jobs, once started.
    public var threadIDs: Set<Int> { runningThreadIDs.withLock { $0 } }

    public init(name: String, threads width: Int) {
        self.width = width
        for index in 0..<width {
            let thread = Thread { [unowned self] in self.runLoop() }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        jobs.push(UnownedJob(job))
    }

    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    /// Lets every thread finish the queued jobs and exit.
    public func shutdown() {
        jobs.shutdown()
    }

    private func runLoop() {
        runningThreadIDs.withLock { _ = $0.insert(ProcessCounters.currentThreadID()) }
        while let next = jobs.take(all: false) {
            for job in next { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
}
