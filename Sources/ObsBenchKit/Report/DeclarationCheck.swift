import ObservationStrategies

/// What a run measured that contradicts what a strategy declares (its `Capabilities`, from
/// `run.json`'s `strategy_details`, else the built-in descriptor): the run's own version of the
/// conformance kit's failures, said in the suite's summary table and in the report.
///
/// Two contradictions are measured: torn states shown by one observation in the consistency suite
/// (`torn_observations`, `torn_per_1000_transactions` above 0, in any round) under a strategy
/// declaring `transactional: true`. Two observations combined latest (`combined_*`) may tear in
/// any store, so they contradict nothing. And re-runs that reached a view after `write` returned
/// (latency's `reruns_after_write_returned` above 0) under `delivery: .synchronous`; after a
/// transaction or a background commit they are not measured by any row: the conformance kit's
/// rule 1b holds a store to that declaration (``unmeasured``).
///
/// ```swift
/// let check = DeclarationCheck(rows: rows, metadata: metadata)
/// for contradiction in check.contradictions(in: "consistency") { print(contradiction) }
/// ```
public struct DeclarationCheck: Sendable {
    /// One declaration a run's rows contradict.
    public struct Contradiction: Sendable, Hashable, CustomStringConvertible {
        public var strategy: String
        /// The suite whose rows contradict it.
        public var suite: String
        /// The declaration as the descriptor spells it: "transactional: true".
        public var declaration: String
        /// What was measured, with the workloads that showed it.
        public var measured: String
        /// What to change: the store, or the declaration.
        public var remedy: String

        public var description: String { "\(strategy) declares \(declaration), but \(measured): \(remedy)" }
    }

    /// Every contradiction, in the order of the rows' strategies.
    public let contradictions: [Contradiction]

    /// What no row of a run measures, said where contradictions are listed.
    public static let unmeasured =
        "re-runs delivered after a transaction or a background commit returned, under delivery: .synchronous, are not measured by any row of a run (latency's write-observed counts them for single writes): the conformance kit's rule 1b checks that declaration"

    /// The contradictions in `rows`, each strategy's declarations from `descriptor` (a strategy it
    /// does not know contradicts nothing).
    public init(rows: [ResultRow], descriptor: (String) -> StrategyDescriptor?) {
        var found: [Contradiction] = []
        var strategies: [String] = []
        for row in rows where !strategies.contains(row.strategy) { strategies.append(row.strategy) }
        for strategy in strategies {
            guard let capabilities = descriptor(strategy)?.capabilities else { continue }
            if capabilities.transactional, let torn = Self.tornStates(rows, strategy) { found.append(torn) }
            if capabilities.delivery == .synchronous, let late = Self.lateReruns(rows, strategy) { found.append(late) }
        }
        contradictions = found
    }

    /// The contradictions in `rows`, declarations from `run.json` (else the built-in strategies).
    public init(rows: [ResultRow], metadata: RunMetadata?) {
        self.init(rows: rows) { RunMetadata.descriptor(of: $0, in: [metadata]) }
    }

    /// The contradictions in `rows`, declarations from `descriptors` (else the built-in strategies).
    public init(rows: [ResultRow], descriptors: [StrategyDescriptor]) {
        self.init(rows: rows) { name in descriptors.first { $0.name == name } ?? RunMetadata.descriptor(of: name, in: []) }
    }

    /// The contradictions `suite`'s rows make.
    public func contradictions(in suite: String) -> [Contradiction] {
        contradictions.filter { $0.suite == suite }
    }

    /// The contradictions of `strategy`.
    public func contradictions(of strategy: String) -> [Contradiction] {
        contradictions.filter { $0.strategy == strategy }
    }

    /// The footnote of a summary table for `contradiction`.
    public static func footnote(_ contradiction: Contradiction) -> String {
        "contradicts its declaration: \(contradiction)"
    }

    /// Re-runs that reached `strategy`'s view after `write` returned (latency's write-observed,
    /// `reruns_after_write_returned` above 0 in any round), as one contradiction of synchronous
    /// delivery; nil when the row shows none, or the run has no such row.
    static func lateReruns(_ rows: [ResultRow], _ strategy: String) -> Contradiction? {
        let suite = Suite.latency.name
        guard
            let row = rows.first(where: {
                $0.suite == suite && $0.strategy == strategy && $0.metric == .rerunsAfterWriteReturned && ($0.statistics?.max ?? 0) > 0
            }), let worst = row.statistics?.max
        else { return nil }
        return Contradiction(
            strategy: strategy, suite: suite, declaration: "delivery: .synchronous",
            measured: "\(NumberFormat.count(worst)) re-runs per write reached its view only after write returned (\(row.workload))",
            remedy: "re-run views before write returns, or declare delivery: .asynchronous")
    }

    /// Torn states shown by one observation in `strategy`'s consistency rows, per workload, as one
    /// contradiction of `transactional: true`; nil when every such row shows none.
    static func tornStates(_ rows: [ResultRow], _ strategy: String) -> Contradiction? {
        let suite = Suite.consistency.name
        let torn = rows.filter {
            $0.suite == suite && $0.strategy == strategy && [Metric.tornObservations, .tornPer1000Transactions].contains($0.metric) && ($0.statistics?.max ?? 0) > 0
        }
        guard !torn.isEmpty else { return nil }
        var workloads: [String] = []
        for row in torn where !workloads.contains(row.workload) { workloads.append(row.workload) }
        let shown = workloads.map { workload -> String in
            func worst(_ metric: Metric) -> (value: Double, rounds: Int)? {
                torn.first { $0.workload == workload && $0.metric == metric }.flatMap { row in row.statistics.map { ($0.max, row.rounds) } }
            }
            let count = worst(.tornObservations)
            let rate = worst(.tornPer1000Transactions)
            let rounds = max(count?.rounds ?? 1, rate?.rounds ?? 1)
            let parts =
                [count.map { "\(NumberFormat.count($0.value)) torn" }, rate.map { "\(NumberFormat.count($0.value)) per 1000 transactions" }].compactMap { $0 }
            return "\(workload) (\(parts.joined(separator: ", "))\(rounds > 1 ? ", the most of its \(rounds) rounds" : ""))"
        }
        return Contradiction(
            strategy: strategy, suite: suite, declaration: "transactional: true",
            measured: "one observation showed states that existed at no commit boundary in " + shown.joined(separator: " and "),
            remedy: "make its commits atomic (commitFromBackground included), or declare transactional: false")
    }
}
