import Foundation
import Synchronization

/// A `SerialExecutor` that runs every job on one dedicated thread of its own: what an actor
/// with `unownedExecutor` pointing here runs on (SE-0392). A hop to it is a hand-off to that
/// thread, woken through a condition variable when it sleeps.
public final class DedicatedThreadExecutor: SerialExecutor, @unchecked Sendable {
    // @unchecked Sendable: `queue` and `stopping` are only touched under `condition`'s lock;
    // `thread` is set once in init and never read again.
    private let condition = NSCondition()
    private var queue: [UnownedJob] = []
    private var stopping = false
    private var thread: Thread?
    private var runningThreadID: Int?

    /// The id (`ProcessCounters.currentThreadID()`) of the thread that runs the jobs, once started.
    public var threadID: Int? {
        condition.lock()
        defer { condition.unlock() }
        return runningThreadID
    }

    public init(name: String) {
        let thread = Thread { [unowned self] in self.runLoop() }
        thread.name = name
        self.thread = thread
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        condition.lock()
        queue.append(unowned)
        condition.signal()
        condition.unlock()
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Lets the thread finish the jobs it has and exit.
    public func shutdown() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func runLoop() {
        condition.lock()
        runningThreadID = ProcessCounters.currentThreadID()
        condition.unlock()
        while true {
            condition.lock()
            while queue.isEmpty && !stopping { condition.wait() }
            if queue.isEmpty && stopping {
                condition.unlock()
                return
            }
            let jobs = queue
            queue.removeAll(keepingCapacity: true)
            condition.unlock()
            for job in jobs { job.runSynchronously(on: asUnownedSerialExecutor()) }
        }
    }
}

/// A `TaskExecutor` backed by a fixed pool of threads of its own, for
/// `withTaskExecutorPreference` (SE-0417): tasks that prefer it run their nonisolated code on
/// these threads instead of the cooperative pool.
public final class ThreadPoolTaskExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked Sendable: `queue` and `stopping` are only touched under `condition`'s lock;
    // `threads` is written once in init.
    private let condition = NSCondition()
    private var queue: [UnownedJob] = []
    private var stopping = false
    private var threads: [Thread] = []
    private var runningThreadIDs: Set<Int> = []
    public let width: Int

    /// The ids (`ProcessCounters.currentThreadID()`) of the threads that run the jobs, once started.
    public var threadIDs: Set<Int> {
        condition.lock()
        defer { condition.unlock() }
        return runningThreadIDs
    }

    public init(name: String, threads width: Int) {
        self.width = width
        for index in 0..<width {
            let thread = Thread { [unowned self] in self.runLoop() }
            thread.name = "\(name)-\(index)"
            threads.append(thread)
        }
        for thread in threads { thread.start() }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        condition.lock()
        queue.append(unowned)
        condition.signal()
        condition.unlock()
    }

    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    /// Lets every thread finish the queued jobs and exit.
    public func shutdown() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    private func runLoop() {
        condition.lock()
        runningThreadIDs.insert(ProcessCounters.currentThreadID())
        condition.unlock()
        while true {
            condition.lock()
            while queue.isEmpty && !stopping { condition.wait() }
            if queue.isEmpty && stopping {
                condition.unlock()
                return
            }
            let job = queue.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
