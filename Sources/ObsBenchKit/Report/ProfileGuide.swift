import Foundation
import ObservationStrategies

/// The short guide at the top of a report: for a few application profiles, the strategies this
/// run's numbers rank, best first, and what decided it.
///
/// A profile ranks a strategy only when three things hold:
/// - its declared capabilities (`run.json`'s `strategy_details`, or the built-in descriptor for an
///   older run) promise what the profile needs: every profile needs views that re-run (`plain` is
///   the floor, not a choice), and "views must never see half a change" needs transactions. What
///   strategies that do not promise it showed is listed apart, as observed, never ranked;
/// - the run has every row the profile names as deciding (`needs`), for that strategy: a store whose
///   views cost their subscription is not crowned from its in-view reads when the `subscription`
///   suite was not run; the entry says what was lacking;
/// - what decides is what was measured: a strategy keeping bytes outside the measured heap
///   (`BytesOutsideHeap`) is not ranked on heap bytes, and one declaring transactions that showed a
///   torn state, or whose views never re-ran in the consistency workloads, is not ranked on them;
///   nor is one whose views observed fewer than ``minimumObservedStates`` states ("not enough
///   observed"). "Each change shown" needs a store that does not coalesce; "many small views" is
///   decided by what re-running a view costs (the scaling suite's cost per view), measured alike
///   for stores with and without tracking scopes.
///
/// Each strategy left out is named with why (`leftOut`).
public struct ProfileGuide: Sendable {
    /// A row a profile needs from every strategy it ranks: suite, workload and metric.
    public struct Need: Sendable, Hashable, CustomStringConvertible {
        public var suite: String
        public var workload: String
        public var metric: Metric

        public init(_ suite: Suite, _ workload: String, _ metric: Metric) {
            self.suite = suite.name
            self.workload = workload
            self.metric = metric
        }

        public var description: String { "\(suite)/\(workload) \(metric)" }
    }

    /// One profile: what it needs, what decides it, and the strategies ranked by that.
    public struct Entry: Sendable {
        public var profile: String
        /// The metric that decides, in words.
        public var decidedBy: String
        /// What a strategy must declare to be ranked, said of it ("observes (re-runs views)",
        /// "declares transactions (capabilities.transactional)").
        public var promise: String
        /// The rows every ranked strategy has in this run.
        public var needs: [Need]
        /// Strategies that promise the property and have every row, best first, with the value as
        /// text; empty when none does (`remark` says why).
        public var ranking: [(strategy: String, value: String)]
        /// Each ranked strategy's deciding figure, the one it is ranked by (lower is better in
        /// every profile): what the report's table of ratios divides by the winner's.
        public var scores: [String: Double] = [:]
        /// Strategies that promise the property but are not ranked, each with why (rows missing,
        /// bytes outside the heap, a promise this run contradicted).
        public var leftOut: [(strategy: String, reason: String)]
        /// What strategies that observe but do not promise the property showed here: facts, not a
        /// ranking (only profiles whose promise is more than observing fill it).
        public var observed: [(strategy: String, value: String)]
        /// Why nobody is ranked, when nobody is.
        public var remark: String?
        /// Why the first and second cannot be told apart, where the worker processes do not
        /// support the order (``ProfileGuide/tie(_:_:rounds:)``): the guide then names them tied.
        public var tie: String?
    }

    /// Why `first` (ranked ahead) and `next` cannot be told apart by the worker processes that
    /// measured their deciding rows, or nil where they can: at least
    /// ``FloorComparison/minimumPairedRounds`` rounds, paired by number, each put `first` ahead, the
    /// rule the tables use. `rounds` gives a strategy's deciding value in each round (its rows'
    /// per-round medians, summed where the profile sums rows); nil where those are not known.
    static func tie(_ first: String, _ next: String, rounds: (String) -> [Int: Double]?) -> String? {
        guard let a = rounds(first), let b = rounds(next) else { return "the processes behind \(first) and \(next) are not known" }
        let paired = a.keys.filter { b[$0] != nil }.sorted()
        guard paired.count >= FloorComparison.minimumPairedRounds else {
            return paired.count <= 1 ? "one process each: not shown to repeat" : "\(paired.count) rounds, fewer than \(FloorComparison.minimumPairedRounds)"
        }
        let ahead = paired.filter { a[$0]! < b[$0]! }.count
        return ahead == paired.count ? nil : "rounds disagree: \(first) ahead in \(ahead) of \(paired.count) rounds"
    }

    /// Per-round values summed over several rows (the rounds every one has); nil where any is not known.
    static func summed(_ parts: [[Int: Double]?]) -> [Int: Double]? {
        guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else { return nil }
        let rounds = parts.map { Set($0!.keys) }.reduce(Set(parts[0]!.keys)) { $0.intersection($1) }
        return Dictionary(uniqueKeysWithValues: rounds.map { round in (round, parts.reduce(0) { $0 + $1![round]! }) })
    }

    public var entries: [Entry]

    /// - Parameter metadata: the run's `run.json`: its strategy details say what each strategy
    ///   promises (a strategy it does not describe, in an older run, is looked up among the built-in
    ///   ones), and its suites which suites were run.
    public init(rows: [ResultRow], metadata: RunMetadata? = nil) {
        let evidence = Evidence(rows: rows, metadata: metadata)
        var entries: [Entry] = []

        let lifecycle = Need(.memory, StoreLifecycleWorkload().name, .freshBytesPerObject)
        let commonN = evidence.commonLargest(lifecycle, \.objects)
        entries.append(
            evidence.entry(
                profile: "Many objects, few views (a large store, a screen shows a handful)",
                decidedBy: "bytes per object on the heap" + (commonN.map { " with N = \($0), the largest every strategy reached" } ?? ""),
                needs: [lifecycle]
            ) { strategy, descriptor in
                guard let commonN, let bytes = evidence.value(lifecycle, strategy, objects: commonN) else { return .lacking("no \(lifecycle) row at N = \(commonN ?? 0)") }
                if let outside = BytesOutsideHeap.note(for: descriptor) {
                    return .notRanked("\(NumberFormat.bytes(bytes)) per object on the heap, but \(outside): not ranked on heap bytes")
                }
                return .ranked(bytes, NumberFormat.bytes(bytes))
            })

        // One record shown in many places is the `shared` topology: every view reads the field
        // written. Compared at the largest S every strategy reached.
        let shared = Need(.scaling, SubscriberScalingWorkload(topology: .shared).name, .latency)
        let commonS = evidence.commonLargest(shared, \.subscribers)
        entries.append(
            evidence.entry(
                profile: "Few objects, many views (one record shown in many places)",
                decidedBy: "a write until all S views reading the written field have re-run" + (commonS.map { " (S = \($0))" } ?? ""),
                needs: [shared], rounds: { evidence.rounds(shared, $0, subscribers: commonS) }
            ) { strategy, _ in
                guard let commonS, let latency = evidence.value(shared, strategy, subscribers: commonS) else { return .lacking("no \(shared) row at S = \(commonS ?? 0)") }
                return .ranked(latency, NumberFormat.nanoseconds(latency))
            })

        entries.append(Self.crossFieldEntry(evidence))

        let subscription = Need(.subscription, SubscribeUnsubscribeWorkload().name, .latency)
        /// A profile decided by one latency workload's median; `perView` adds the subscription's cost.
        /// `everyChange`: the profile shows every change, so a strategy declaring that it coalesces
        /// (several writes may reach a view as one re-run) is not ranked, whatever its time.
        func latencyEntry(_ profile: String, decidedBy: String, workload: String, perView: Bool, unit: String = "", everyChange: Bool = false) -> Entry {
            let decisive = Need(.latency, workload, .latency)
            let promise = everyChange ? "observes and does not coalesce (capabilities.coalesces: false)" : "observes (re-runs views)"
            return evidence.entry(
                profile: profile, decidedBy: decidedBy, promise: promise, needs: [decisive] + (perView ? [subscription] : []), rounds: { evidence.rounds(decisive, $0) }
            ) { strategy, descriptor in
                if everyChange, descriptor.capabilities.coalesces {
                    return .notRanked("declares that it coalesces (capabilities.coalesces): several writes may reach a view as one re-run, so not every change is shown")
                }
                let latency = evidence.value(decisive, strategy)!
                let text = NumberFormat.nanoseconds(latency) + unit
                guard perView else { return .ranked(latency, text) }
                return .ranked(latency, "\(text); subscribe + unsubscribe \(NumberFormat.nanoseconds(evidence.value(subscription, strategy)!))")
            }
        }
        entries.append(
            latencyEntry(
                "Read-heavy views (bodies read many fields)",
                decidedBy:
                    "each further field read inside an open tracking scope (the scope's own cost is the next profile's), shown with what a view costs to subscribe and unsubscribe",
                workload: ReadInsideViewWorkload().name, perView: true, unit: " per read"))
        entries.append(Self.manySmallViewsEntry(evidence, subscription: subscription))
        entries.append(
            latencyEntry(
                "Write-heavy, each change shown (a live editor, a progress display)",
                decidedBy: "a write until the one view reading it has re-run (strategies that coalesce show fewer changes: not ranked)",
                workload: WriteObservedWorkload().name, perView: false, everyChange: true))
        entries.append(Self.burstEntry(evidence))
        entries.append(Self.filteredListEntry(evidence))
        self.entries = entries
    }

    /// A searched, filtered, sorted list with a view per row (the design notes' property
    /// inspector, whose `makeProperties()` searches, filters and sorts): ranked by the derived
    /// suite's filtered-sorted writes, each timed until every view reading the list or a row has
    /// caught up, summed over the five (a task leaving the list, one moving in it, a field nothing
    /// shows, a value written again, the query changed), in the strategy's usual derivation; shown
    /// with the view re-runs they caused and how many of them showed nothing new.
    ///
    /// A strategy's cost is net of the harness where the run has its concrete loops
    /// (``ConcreteDerivedLoop``: the same writes on its concrete types, as an app would write them)
    /// for all five writes; else its rows through the harness, said so. A harness view body costs
    /// almost nothing, an app's row view does not: the entry says what a view body would have to
    /// cost for another strategy to win, the cost difference over the difference in avoidable
    /// re-runs (what that cost multiplies).
    static func filteredListEntry(_ evidence: Evidence) -> Entry {
        let writes = FilteredSortedWorkload.Write.allCases.map { FilteredSortedWorkload($0).name }
        let latencies = writes.map { Need(.derived, $0, .latency) }
        let concrete = writes.map { Need(.derived, DerivedRows.concreteName($0), .latency) }
        let reruns = writes.map { Need(.derived, $0, .rerunsPerWrite) }
        let avoidable = writes.map { Need(.derived, $0, .avoidableRerunsPerWrite) }
        var judged: [String: (total: Double, avoidable: Double)] = [:]
        /// The rows a strategy's cost sums: its concrete loops' where it has all five, else its rows through the harness.
        func costRows(_ strategy: String) -> (rows: [Need], netOfHarness: Bool) {
            let netOfHarness = concrete.allSatisfy { evidence.value($0, strategy) != nil }
            return (netOfHarness ? concrete : latencies, netOfHarness)
        }
        var entry = evidence.entry(
            profile: "A searched, filtered, sorted list (the design notes' property inspector)",
            decidedBy:
                "the derived suite's five filtered-sorted writes (membership, order, an unread field, the same value, the query), each until every view of the list and its rows has caught up, summed, net of the harness where the strategy's concrete loops measured them (the same writes on its own types, as an app writes them); in the strategy's usual derivation, with the view re-runs they caused and how many showed nothing new",
            needs: latencies + reruns + avoidable,
            rounds: { strategy in ProfileGuide.summed(costRows(strategy).rows.map { evidence.rounds($0, strategy) }) }
        ) { strategy, _ in
            let (rows, netOfHarness) = costRows(strategy)
            let total = rows.compactMap { evidence.value($0, strategy) }.reduce(0, +)
            let rerunCount = reruns.compactMap { evidence.value($0, strategy) }.reduce(0, +)
            let avoidableCount = avoidable.compactMap { evidence.value($0, strategy) }.reduce(0, +)
            judged[strategy] = (total, avoidableCount)
            let source = netOfHarness ? "its concrete loops, net of the harness" : "through the harness: no concrete loop"
            return .ranked(
                total,
                "\(NumberFormat.nanoseconds(total)) for the five writes (\(source)); \(NumberFormat.count(rerunCount)) view re-runs, \(NumberFormat.count(avoidableCount)) of them avoidable"
            )
        }
        if let winner = entry.ranking.first?.strategy, let won = judged[winner], entry.remark == nil {
            entry.remark = Self.bodyCostFlip(winner: winner, won, others: entry.ranking.dropFirst().compactMap { ranked in judged[ranked.strategy].map { (ranked.strategy, $0) } })
        }
        return entry
    }

    /// What a view body would have to cost, per run, for another ranked strategy to beat `winner`
    /// over the five writes: each avoidable re-run runs one more body, so a strategy with fewer of
    /// them wins once (its cost − the winner's) / (the winner's avoidable re-runs − its own) is
    /// paid per body. The lowest such cost, and who would win then.
    static func bodyCostFlip(winner: String, _ won: (total: Double, avoidable: Double), others: [(String, (total: Double, avoidable: Double))]) -> String {
        let flips = others.compactMap { strategy, judged -> (cost: Double, strategy: String, fewer: Double)? in
            let fewer = won.avoidable - judged.avoidable
            guard fewer > 0 else { return nil }
            return (max(0, judged.total - won.total) / fewer, strategy, fewer)
        }
        guard let flip = flips.min(by: { $0.cost < $1.cost }) else {
            return
                "no ranked strategy re-runs fewer views showing nothing new than \(winner): in an app, where each re-run is a view body that costs something, its lead only grows"
        }
        return
            "the harness's view bodies cost almost nothing; in an app, a view body costing more than \(NumberFormat.nanoseconds(flip.cost)) per run makes \(flip.strategy) the winner (\(NumberFormat.count(flip.fewer)) fewer avoidable re-runs over the five writes than \(winner))"
    }

    /// Many small views, each re-run often: ranked by what re-running one view costs, b of the
    /// line latency = a + b·S of the scaling suite's `shared` sweep (S views read the written
    /// field, so a write re-runs every one of them, until all have). That is measured the same way
    /// for every store, with or without tracking scopes: latency's view-scope is not (for a store
    /// without tracking scopes it is a locked read: a store of one's own was crowned at 55 ns
    /// while re-running one of its views cost 36 µs). Shown with what a view costs to subscribe and
    /// unsubscribe.
    static func manySmallViewsEntry(_ evidence: Evidence, subscription: Need) -> Entry {
        let rerun = Need(.scaling, SubscriberScalingWorkload(topology: .shared).name, .costPerView)
        return evidence.entry(
            profile: "Many small views (each body reads a field or two, re-rendered often)",
            decidedBy:
                "what re-running one view costs: b of latency = a + b·S over the \(rerun.workload) sweep (a write re-runs all S views reading the written field, timed until all have), measured alike for stores with and without tracking scopes; shown with what a view costs to subscribe and unsubscribe",
            needs: [rerun, subscription]
        ) { strategy, _ in
            guard let row = evidence.measured(rerun, strategy).first, let perView = row.value else { return .lacking("no \(rerun) row") }
            let interval = row.interval.map { " [\(NumberFormat.nanoseconds($0.low)), \(NumberFormat.nanoseconds($0.high))]" } ?? ""
            if let bounds = row.interval, bounds.low <= 0 {
                return .notRanked("its cost per view re-run, \(NumberFormat.nanoseconds(perView))\(interval), is not beyond noise: its 95% interval reaches 0")
            }
            let subscribing = evidence.value(subscription, strategy).map { "; subscribe + unsubscribe \(NumberFormat.nanoseconds($0))" } ?? ""
            return .ranked(perView, "\(NumberFormat.nanoseconds(perView))\(interval) per view re-run\(subscribing)")
        }
    }

    /// Bursts of writes where only the last state must be shown (a sync engine's batch, a slider
    /// dragged): ranked by the time a burst of 100 writes takes until the view shows the last
    /// (`write-burst-100`), with the re-runs it cost. Coalescing is what this profile rewards.
    static func burstEntry(_ evidence: Evidence) -> Entry {
        let size = WriteBurstWorkload.bursts.max() ?? 100
        let burst = Need(.latency, WriteBurstWorkload.rowName(size), .latency)
        let reruns = Need(.latency, WriteBurstWorkload.rowName(size), .rerunsPerBurst)
        return evidence.entry(
            profile: "Bursty writes, only the last state shown (a sync engine's batch, a slider dragged)",
            decidedBy: "a burst of \(size) writes to one record, settled once, until its one view shows the last (write-burst-\(size)), with the view's re-runs per burst",
            needs: [burst, reruns], rounds: { evidence.rounds(burst, $0) }
        ) { strategy, _ in
            let latency = evidence.value(burst, strategy)!
            return .ranked(latency, "\(NumberFormat.nanoseconds(latency)) per burst, \(NumberFormat.count(evidence.value(reruns, strategy)!)) re-runs")
        }
    }

    /// "Nothing torn" counts only from this many observed states or more: views re-run on
    /// transactions, over the two one-observation workloads (re-runs per transaction × transactions).
    /// A store that tears 3 times in 1,000 states is caught by 1,000 with 95% probability
    /// ((1 − 0.003)^1000 ≈ 0.05); by 2 (1-2 observed states per 200 commits, as in a quick run of a
    /// store that coalesces), almost never: such a store, tearing up to 15 times per 1,000
    /// transactions in other runs, was crowned in 2 of 6 quick runs. A quick run (200 commits per
    /// writer, at most 600 re-runs) never has enough.
    public static let minimumObservedStates = 1_000.0

    /// Views must never see half a change: only strategies declaring transactions are ranked, by
    /// the two-field transaction's latency, and only where the consistency workloads' views re-ran
    /// on at least ``minimumObservedStates`` transactions and saw nothing torn. The others'
    /// one-observation results are listed as observed.
    static func crossFieldEntry(_ evidence: Evidence) -> Entry {
        let workloads = [1, 2].map { InvariantWorkload(writers: $0, views: .oneObservation).name }
        let torn = workloads.map { Need(.consistency, $0, .tornObservations) }
        let reruns = workloads.map { Need(.consistency, $0, .rerunsPerTransaction) }
        let transactions = workloads.map { Need(.consistency, $0, .transactions) }
        let transaction = Need(.latency, TwoFieldTransactionWorkload().name, .latency)

        /// Torn states over both workloads, the re-runs per commit of each, and the states the
        /// views observed (re-runs), when all are measured.
        func consistency(_ strategy: String) -> (torn: Double, reruns: [Double], observed: Double)? {
            let tornValues = torn.compactMap { evidence.value($0, strategy) }
            let rerunValues = reruns.compactMap { evidence.value($0, strategy) }
            let committed = transactions.compactMap { evidence.value($0, strategy) }
            guard tornValues.count == torn.count, rerunValues.count == reruns.count, committed.count == transactions.count else { return nil }
            return (tornValues.reduce(0, +), rerunValues, zip(rerunValues, committed).reduce(0) { $0 + ($1.0 * $1.1).rounded() })
        }
        func described(_ found: (torn: Double, reruns: [Double], observed: Double)) -> String {
            "\(NumberFormat.count(found.torn)) torn states shown by one observation (\(workloads.joined(separator: ", "))), "
                + "\(found.reruns.map(NumberFormat.count).joined(separator: " and ")) view re-runs per commit, \(NumberFormat.count(found.observed)) states observed"
        }
        var entry = evidence.entry(
            profile: "Cross-field invariants (views must never see half a change)",
            decidedBy:
                "declared transactions, then the two-field transaction's latency; the consistency workloads must show nothing torn in at least \(NumberFormat.count(minimumObservedStates)) observed states (views re-run on transactions)",
            promise: "declares transactions (capabilities.transactional)", promised: \.transactional,
            needs: torn + reruns + transactions + [transaction], rounds: { evidence.rounds(transaction, $0) },
            contradicted: { strategy in
                // Before any row it lacks: a store that tore is not a candidate whatever else is missing.
                evidence.declarationCheck.contradictions(of: strategy).first.map {
                    "its run contradicts its declaration: \($0.declaration), but \($0.measured) (see the consistency table)"
                }
            },
            observed: { strategy in
                consistency(strategy).map(described) ?? "not measured by the consistency suite"
            }
        ) { strategy, _ in
            let found = consistency(strategy)!
            if found.torn > 0 { return .notRanked("declares transactions, yet \(described(found)): see the consistency table") }
            if found.reruns.contains(0) { return .notRanked("its views did not re-run in every consistency workload (\(described(found))), so nothing was checked") }
            if found.observed < minimumObservedStates {
                return .notRanked(
                    "\(notEnoughObserved): \(described(found)), fewer than the \(NumberFormat.count(minimumObservedStates)) needed to have seen tearing at 3 in 1,000")
            }
            let latency = evidence.value(transaction, strategy)!
            return .ranked(latency, NumberFormat.nanoseconds(latency))
        }
        if entry.ranking.isEmpty, !entry.leftOut.isEmpty, entry.leftOut.allSatisfy({ $0.reason.hasPrefix(notEnoughObserved) }) {
            entry.remark =
                "nobody is ranked: \(notEnoughObserved) (fewer than \(NumberFormat.count(minimumObservedStates)) views re-run on transactions; a --quick run has at most \(NumberFormat.count(Double(3 * InvariantWorkload.commitsPerWriter(quick: true)))))"
        }
        return entry
    }

    /// How the guide says that too few states were observed to call a store untorn.
    public static let notEnoughObserved = "not enough observed"

    /// What the guide decided of one strategy for one profile.
    enum Judgement {
        /// Ranked by `key` (smaller is better), shown as `text`.
        case ranked(Double, String)
        /// Lacks a row the profile needs.
        case lacking(String)
        /// Has the rows, but they do not decide it here: why.
        case notRanked(String)
    }

    /// The run's rows and strategies, as every profile reads them.
    struct Evidence {
        let rows: [ResultRow]
        let metadata: RunMetadata?
        /// The strategies of the run (`-`, the store-isolation and pool suites' rows, excluded), in
        /// `run.json`'s order, then any only the rows name.
        let strategies: [String]

        /// What the rows contradict of the strategies' declarations.
        let declarationCheck: DeclarationCheck

        init(rows: [ResultRow], metadata: RunMetadata?) {
            self.rows = rows
            self.metadata = metadata
            declarationCheck = DeclarationCheck(rows: rows, metadata: metadata)
            var seen = Set<String>()
            strategies = ((metadata?.strategies ?? []) + rows.map(\.strategy)).filter { $0 != "-" && seen.insert($0).inserted }
        }

        func descriptor(_ strategy: String) -> StrategyDescriptor? {
            RunMetadata.descriptor(of: strategy, in: [metadata])
        }

        /// Rows of `need` for `strategy` that have a value.
        func measured(_ need: Need, _ strategy: String) -> [ResultRow] {
            rows.matching(RowQuery(suite: need.suite, workload: need.workload, strategy: strategy, metric: need.metric, valued: true))
        }

        /// The row of `need` for `strategy`, at a sweep point where given (else its first).
        func row(_ need: Need, _ strategy: String, objects: Int? = nil, subscribers: Int? = nil) -> ResultRow? {
            measured(need, strategy).first { row in objects.map { row.objects == $0 } ?? true && subscribers.map { row.subscribers == $0 } ?? true }
        }

        /// The value of `need` for `strategy`, at a sweep point where given (else its first row).
        func value(_ need: Need, _ strategy: String, objects: Int? = nil, subscribers: Int? = nil) -> Double? {
            row(need, strategy, objects: objects, subscribers: subscribers)?.value
        }

        /// Each round's (worker process's) value of `need` for `strategy`, at a sweep point where given.
        func rounds(_ need: Need, _ strategy: String, objects: Int? = nil, subscribers: Int? = nil) -> [Int: Double]? {
            row(need, strategy, objects: objects, subscribers: subscribers)?.roundValues
        }

        /// The largest sweep point every strategy that observes and has rows of `need` reached.
        func commonLargest(_ need: Need, _ point: KeyPath<ResultRow, Int>) -> Int? {
            strategies.filter { descriptor($0).map { $0.capabilities.granularity != .none } ?? false }
                .compactMap { measured(need, $0).map { $0[keyPath: point] }.max() }.min()
        }

        /// Whether the run included `suite` at all.
        func ran(_ suite: String) -> Bool {
            metadata?.suites.contains(suite) ?? false || rows.contains { $0.suite == suite }
        }

        /// Why `strategy` lacks some of `needs`; nil when it has them all.
        func lacking(_ needs: [Need], _ strategy: String) -> String? {
            var reasons: [String] = []
            for need in needs where measured(need, strategy).isEmpty {
                if !ran(need.suite) {
                    reasons.append("the \(need.suite) suite was not run")
                } else if rows.contains(where: { $0.suite == need.suite && $0.strategy == strategy && $0.isError }) {
                    reasons.append("its \(need.suite) worker failed")
                } else {
                    reasons.append("no \(need) row")
                }
            }
            var seen = Set<String>()
            let distinct = reasons.filter { seen.insert($0).inserted }
            return distinct.isEmpty ? nil : distinct.joined(separator: "; ")
        }

        /// One profile's entry: every strategy of the run that observes is judged by `judge` if it
        /// promises the property, its run does not contradict that promise (`contradicted` says
        /// how, naming the declaration) and it has every row of `needs`; those that observe without the
        /// promise are described by `observed`; `plain` and the like (no observation) are left out
        /// silently, as the report's introduction says.
        func entry(
            profile: String, decidedBy: String, promise: String = "observes (re-runs views)", promised: (Capabilities) -> Bool = { _ in true },
            needs: [Need], rounds: ((String) -> [Int: Double]?)? = nil, contradicted: (String) -> String? = { _ in nil },
            observed describe: ((String) -> String)? = nil, judge: (String, StrategyDescriptor) -> Judgement
        ) -> Entry {
            var ranked: [(key: Double, strategy: String, value: String)] = []
            var leftOut: [(strategy: String, reason: String)] = []
            var observed: [(strategy: String, value: String)] = []
            var promising = 0
            for strategy in strategies {
                guard let descriptor = descriptor(strategy) else {
                    leftOut.append((strategy, "its capabilities are unknown: run.json does not describe it and it is not built in"))
                    continue
                }
                guard descriptor.capabilities.granularity != .none else { continue }
                guard promised(descriptor.capabilities) else {
                    if let describe { observed.append((strategy, describe(strategy))) }
                    continue
                }
                promising += 1
                if let reason = contradicted(strategy) {
                    leftOut.append((strategy, reason))
                    continue
                }
                if let reason = lacking(needs, strategy) {
                    leftOut.append((strategy, "lacks its deciding rows: \(reason)"))
                    continue
                }
                switch judge(strategy, descriptor) {
                case .ranked(let key, let text): ranked.append((key, strategy, text))
                case .lacking(let reason): leftOut.append((strategy, "lacks its deciding rows: \(reason)"))
                case .notRanked(let reason): leftOut.append((strategy, reason))
                }
            }
            let ranking = ranked.sorted { $0.key < $1.key }.map { (strategy: $0.strategy, value: $0.value) }
            var remark: String?
            if promising == 0 {
                remark = "no strategy in this run \(promise): nobody is ranked"
            } else if ranking.isEmpty {
                let missingEverywhere = needs.filter { need in strategies.allSatisfy { measured(need, $0).isEmpty } }
                if missingEverywhere.isEmpty {
                    remark = "nobody is ranked: every strategy that promises it was left out (see below)"
                } else {
                    let notRun = Set(missingEverywhere.map(\.suite)).filter { !ran($0) }.sorted()
                    remark =
                        "nobody is ranked: the run has no \(missingEverywhere.map(\.description).joined(separator: ", ")) row"
                        + (notRun.isEmpty ? "" : " (\(notRun.map { "the \($0) suite was not run" }.joined(separator: "; ")))")
                }
            }
            // A timed profile names a winner only where the processes support it against the next;
            // one decided by exact counts (bytes) or a fit with its own interval keeps its order.
            let tie = rounds.flatMap { rounds in ranking.count >= 2 ? ProfileGuide.tie(ranking[0].strategy, ranking[1].strategy, rounds: rounds) : nil }
            return Entry(
                profile: profile, decidedBy: decidedBy, promise: promise, needs: needs, ranking: ranking,
                scores: Dictionary(ranked.map { ($0.strategy, $0.key) }, uniquingKeysWith: { first, _ in first }), leftOut: leftOut,
                observed: observed, remark: remark, tie: tie)
        }
    }
}
