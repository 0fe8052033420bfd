#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif

/// The design notes' option B: an actor owns the state; each record then publishes the metrics
/// to a `@MainActor` publisher for the UI (one hop to the main actor per record).
actor ActorIssueStore: IssueStore {
    private var log = IssueLog()
    private let publisher: IssuesPublisher

    init(publisher: IssuesPublisher) {
        self.publisher = publisher
    }

    func record(_ issue: ParseIssue) async {
        log.append(issue)
        await publishChanges(log.metrics, count: log.issues.count)
    }

    func metricsSnapshot() -> IssueMetrics {
        log.metrics
    }

    @MainActor private func publishChanges(_ metrics: IssueMetrics, count: Int) {
        publisher.metrics = metrics
        publisher.issueCount = count
    }

    @MainActor func metricsPublisher() -> AnyPublisher<IssueMetrics, Never> {
        publisher.$metrics.eraseToAnyPublisher()
    }
}
