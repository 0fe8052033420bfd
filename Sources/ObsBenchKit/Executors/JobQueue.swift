import Foundation

/// The queue both custom executors share: jobs handed in by `enqueue`, taken by the executor's own
/// threads, which sleep on a condition variable while it is empty.
final class JobQueue: @unchecked Sendable {
    // @unchecked Sendable: `jobs` and `stopping` are only touched under `condition`'s lock.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopping = false

    /// Adds a job and wakes one waiting thread.
    func push(_ job: UnownedJob) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Waits for work and takes every queued job (`all`) or the first; nil once shut down and empty.
    func take(all: Bool) -> [UnownedJob]? {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty && !stopping { condition.wait() }
        if jobs.isEmpty { return nil }
        if !all { return [jobs.removeFirst()] }
        defer { jobs.removeAll(keepingCapacity: true) }
        return jobs
    }

    /// Lets every thread finish the queued jobs and return from `take` with nil.
    func shutdown() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }
}
