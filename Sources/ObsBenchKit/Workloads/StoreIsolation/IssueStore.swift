import ObservationStrategies

#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif

/// What the design notes' store records: a parse issue against some nodes.
public struct ParseIssue: Sendable, Hashable {
    public enum Severity: Sendable, Hashable { case error, warning, info }
    public var id: Int
    public var severity: Severity
    public var affectedNodeIDs: [Int64]

    /// The `index`th issue of a generated sequence: severities and nodes cycle.
    public static func generated(_ index: Int) -> ParseIssue {
        ParseIssue(id: index, severity: [.error, .warning, .info][index % 3], affectedNodeIDs: [Int64(index % 97), Int64(index % 13)])
    }
}

/// The store's summary, what a status bar shows.
public struct IssueMetrics: Sendable, Hashable {
    public var errorCount = 0
    public var warningCount = 0
    public var infoCount = 0
    public var deepestAffectedDepth = 0
    /// Issues recorded.
    public var total: Int { errorCount + warningCount + infoCount }

    public init() {}
}

/// The state every store keeps and the work every `record` does, whatever guards it: the issues,
/// an index by node, the counts and the metrics (the note's `append`).
struct IssueLog: Sendable {
    private(set) var issues: [ParseIssue] = []
    private var issuesByNodeID: [Int64: [ParseIssue]] = [:]
    private(set) var metrics = IssueMetrics()

    mutating func append(_ issue: ParseIssue) {
        issues.append(issue)
        for nodeID in issue.affectedNodeIDs { issuesByNodeID[nodeID, default: []].append(issue) }
        switch issue.severity {
        case .error: metrics.errorCount += 1
        case .warning: metrics.warningCount += 1
        case .info: metrics.infoCount += 1
        }
        metrics.deepestAffectedDepth = max(metrics.deepestAffectedDepth, issue.affectedNodeIDs.count)
    }
}

/// The main-actor object SwiftUI observes for the queue and actor stores (the note's
/// `ParseIssueStorePublisher`).
@MainActor
final class IssuesPublisher: ObservableObject {
    @Published var metrics = IssueMetrics()
    @Published var issueCount = 0
}

/// The three stores of the design notes' migration plan, over one API: record an issue, read a
/// metrics snapshot, and a main-actor publisher of the metrics for the UI.
protocol IssueStore: Sendable {
    /// Records one issue; returns once the store has accepted it (the queue store: once queued).
    func record(_ issue: ParseIssue) async
    /// The current metrics.
    func metricsSnapshot() async -> IssueMetrics
    /// What a main-actor view subscribes to.
    @MainActor func metricsPublisher() -> AnyPublisher<IssueMetrics, Never>
}

/// The stores compared, as the `executor` column names them.
public enum StoreKind: String, Sendable, CaseIterable {
    /// `ObservableObject` guarded by a serial `DispatchQueue`: `queue.async` writes, `queue.sync`
    /// reads with a same-queue fast path (the note's "as-is").
    case queue = "gcd-queue-store"
    /// `@MainActor` `ObservableObject` (the note's option A).
    case mainActor = "main-actor-store"
    /// An actor with a `@MainActor` publisher for the UI (the note's option B).
    case actor = "actor-store"

    /// A fresh, empty store of this kind.
    @MainActor
    func make() -> any IssueStore {
        switch self {
        case .queue: QueueIssueStore(publisher: IssuesPublisher())
        case .mainActor: MainActorIssueStore()
        case .actor: ActorIssueStore(publisher: IssuesPublisher())
        }
    }
}

/// A main-actor view of a store's metrics: counts what it has seen, and wakes a writer waiting
/// for a count.
@MainActor
final class IssuesView {
    let seen = SeenCount()
    private var cancellable: AnyCancellable?

    init(store: any IssueStore) {
        let seen = self.seen
        cancellable = store.metricsPublisher().sink { seen.update($0.total) }
    }
}

/// The highest count a view has seen, and at most one waiter for a count.
final class SeenCount: Sendable {
    private struct State {
        var seen = 0
        var waiter: (count: Int, continuation: CheckedContinuation<Void, Never>)?
    }

    private let state = Locked(State())

    var current: Int { state.withLock { $0.seen } }

    func update(_ count: Int) {
        let ready = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.seen = max(state.seen, count)
            guard let waiter = state.waiter, state.seen >= waiter.count else { return nil }
            state.waiter = nil
            return waiter.continuation
        }
        ready?.resume()
    }

    /// Returns once the view has seen `count`.
    func wait(until count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let already = state.withLock { state -> Bool in
                if state.seen >= count { return true }
                state.waiter = (count, continuation)
                return false
            }
            if already { continuation.resume() }
        }
    }
}
