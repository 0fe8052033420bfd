#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif

/// The design notes' option A: a `@MainActor` `ObservableObject` whose `@Published` properties
/// are the store's state; records and reads are direct calls on the main actor (a hop to it from
/// anywhere else).
@MainActor
final class MainActorIssueStore: ObservableObject, IssueStore {
    @Published private(set) var metrics = IssueMetrics()
    @Published private(set) var issueCount = 0
    private var log = IssueLog()

    func record(_ issue: ParseIssue) {
        log.append(issue)
        metrics = log.metrics
        issueCount = log.issues.count
    }

    func metricsSnapshot() -> IssueMetrics {
        metrics
    }

    func metricsPublisher() -> AnyPublisher<IssueMetrics, Never> {
        $metrics.eraseToAnyPublisher()
    }
}
