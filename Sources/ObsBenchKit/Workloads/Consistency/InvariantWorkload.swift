import ObservationStrategies

/// Can a view show a state that never existed? One or two writers commit changes to the tasks
/// from background tasks, concurrently, each commit through the strategy's own API
/// (`commitFromBackground`: a main-actor store gets one main-actor job per commit, GRDB a write
/// transaction on the writer's thread), the way a sync engine or a network response delivers
/// changes. Views on the main actor show the completed count and the top five by priority
/// (`ShownState`), and every state a view showed is checked against the states that existed at a
/// commit boundary (`CommitLog`).
///
/// Two kinds of view see the same commits: one observation deriving both parts from one read
/// (`invariant-*`), and two observations combined as `combineLatest` combines two publishers or
/// two `ValueObservation`s (`combined-*`), the design notes' contrast. Whatever a strategy shows
/// is the finding; nothing is handed to one strategy that another does not get.
public struct InvariantWorkload: Workload {
    /// How the view gets the count and the list.
    public enum Views: String, Sendable, CaseIterable {
        /// One observation reads every field and derives both.
        case oneObservation = "invariant"
        /// A count observation and a list observation, combined latest.
        case combinedObservations = "combined"
    }

    public let writers: Int
    public let views: Views
    public var name: String { "\(views.rawValue)-\(writers == 1 ? "1-writer" : "\(writers)-writers")" }
    public var summary: String {
        let who = writers == 1 ? "one background writer commits" : "\(writers) concurrent background writers commit"
        return switch views {
        case .oneObservation: "\(who) changes; one observation derives the completed count and top 5: shown states that never existed"
        case .combinedObservations: "\(who) changes; the count and the top 5 from two observations combined latest: shown states that never existed"
        }
    }

    public init(writers: Int, views: Views = .oneObservation) {
        self.writers = writers
        self.views = views
    }

    /// The metrics this workload's torn states are reported under: one observation's are exact
    /// counts the gate holds; two combined observations' depend on which of the two views re-runs
    /// first after a commit (hash order, thread timing), so they are reported, not judged.
    public var tornMetric: Metric { views == .oneObservation ? .tornObservations : .combinedTornObservations }
    public var tornPer1000Metric: Metric { views == .oneObservation ? .tornPer1000Transactions : .combinedTornPer1000Transactions }

    /// Commits per writer, full and `--quick`.
    public static func commitsPerWriter(quick: Bool) -> Int { quick ? 200 : 1_000 }

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        let records = max(context.objects, 8 * writers)
        let initial = TaskRecord.sample(count: records)
        let checker = ConsistencyChecker(records: records)
        let log = CommitLog(records: initial, checker: checker)
        let store = try context.measuredStrategy().makeStore(initial)
        let list = try store.subscribe(checker.listSpec)
        let count = views == .combinedObservations ? try store.subscribe(checker.countSpec) : nil
        await store.settle()
        let commits = Self.commitsPerWriter(quick: context.quick)
        let begin = MonotonicClock.now()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                // Each writer owns a contiguous slice of the records.
                let slice = initial.filter { ($0.id - 1) * writers / records == writer }
                group.addTask {
                    var script = CommitScript(slice: slice, seed: UInt64(writer + 1))
                    for _ in 0..<commits {
                        let writes = script.next()
                        try await store.commitFromBackground(writes) { log.record(writes) }
                    }
                }
            }
            try await group.waitForAll()
        }
        await store.settle()
        let elapsed = Double(MonotonicClock.now() - begin)
        let handles = [list] + (count.map { [$0] } ?? [])
        let viewStates = handles.map(\.snapshot)
        let (listState, countState) = (viewStates[0], count == nil ? nil : viewStates[1])
        for view in handles { store.unsubscribe(view) }
        await store.tearDown()
        if let failure = viewStates.lazy.compactMap(\.failure).first { throw WorkloadError.viewFailed(failure) }
        let finalShown = checker.shown(list: listState.lastSeen)
        let granularity = try context.measuredStrategy().descriptor.capabilities.granularity
        guard granularity == .none || finalShown == log.finalState else {
            throw WorkloadError.viewFailed(
                "after settle() the view showed \(finalShown.map(String.init(describing:)) ?? "values of the wrong shape"), not the last commit's \(log.finalState)")
        }
        let shown = countState.map { checker.shownStates(count: $0, list: listState) } ?? checker.shownStates(list: listState)
        let boundaries = log.boundaryStates
        let torn = checker.tornStates(shown, boundaries: boundaries)
        let committed = log.commits
        let reruns = viewStates.reduce(0) { $0 + $1.reruns }
        let notifications = viewStates.reduce(0) { $0 + $1.notifications }
        let how = "\(writers) background writer(s) × \(commits) commits via commitFromBackground"
        let what = views == .oneObservation ? "one observation" : "two observations combined latest"
        let boundaryCounts = Set(boundaries.map(\.completed))
        let wrongCount = torn.filter { state in state.map { !boundaryCounts.contains($0.completed) } ?? true }.count
        func row(_ metric: Metric, _ value: Double, _ note: String) -> ResultRow {
            var row = context.countRow(workload: name, objects: records, subscribers: viewStates.count, metric: metric, value: value, note: note)
            row.concurrency = writers
            return row
        }
        return WorkloadOutput(rows: [
            row(.transactions, Double(committed), "\(how); \(NumberFormat.fixed(elapsed / 1e6, digits: 1)) ms in all"),
            row(.rerunsPerTransaction, Double(reruns) / Double(committed), "\(reruns) view re-runs (\(what))"),
            row(.notificationsPerTransaction, Double(notifications) / Double(committed), "\(notifications) notifications (\(what); below 1: coalesced)"),
            row(
                tornMetric, Double(torn.count),
                "states shown that existed at no commit boundary, out of \(shown.count) shown (\(what)); \(wrongCount) of them with a count no boundary had"
                    + (reruns == 0 ? "; the views never re-ran, so nothing was checked" : "")),
            row(tornPer1000Metric, Double(torn.count) * 1_000 / Double(committed), "\(what); \(how)"),
        ])
    }
}
