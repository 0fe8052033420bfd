import Dispatch

#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif

/// The design notes' "as-is" store: state guarded by a private serial `DispatchQueue`; writes
/// `queue.async`, reads `queue.sync`, both with a fast path when already on the queue (found with
/// `DispatchSpecificKey`); the UI's publisher is updated with `DispatchQueue.main.async`.
///
/// `@unchecked Sendable` because that is how such a store is written, and it is safe here: `log`
/// is only touched inside blocks running on `queue` (serial), and `publisher` is main-actor
/// isolated and only touched on the main queue.
final class QueueIssueStore: IssueStore, @unchecked Sendable {
    private let queue = DispatchQueue(label: "obsbench.issue-store")
    private let key = DispatchSpecificKey<UInt8>()
    private var log = IssueLog()
    private let publisher: IssuesPublisher

    init(publisher: IssuesPublisher) {
        self.publisher = publisher
        queue.setSpecific(key: key, value: 1)
    }

    /// Whether the caller is already running on the store's queue.
    var isOnQueue: Bool { DispatchQueue.getSpecific(key: key) != nil }

    func record(_ issue: ParseIssue) async {
        recordSync(issue)
    }

    /// `record`, callable from a block already on the queue (the fast path) or from anywhere.
    func recordSync(_ issue: ParseIssue) {
        performOnQueue { [self] in
            log.append(issue)
            let metrics = log.metrics
            let count = log.issues.count
            let publisher = self.publisher
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    publisher.metrics = metrics
                    publisher.issueCount = count
                }
            }
        }
    }

    func metricsSnapshot() async -> IssueMetrics {
        metricsSnapshotSync()
    }

    /// The metrics through `queue.sync`, or directly when already on the queue: calling it from a
    /// block on the queue must not deadlock.
    func metricsSnapshotSync() -> IssueMetrics {
        readOnQueue { log.metrics }
    }

    /// Runs `body` on the queue and waits for it (a caller's way onto the queue, for tests).
    func onQueue<T>(_ body: () -> T) -> T {
        queue.sync(execute: body)
    }

    @MainActor func metricsPublisher() -> AnyPublisher<IssueMetrics, Never> {
        publisher.$metrics.eraseToAnyPublisher()
    }

    private func performOnQueue(_ action: @escaping @Sendable () -> Void) {
        if isOnQueue { action() } else { queue.async(execute: action) }
    }

    private func readOnQueue<T>(_ action: () -> T) -> T {
        if isOnQueue { return action() }
        return queue.sync(execute: action)
    }
}
