import Foundation

/// Retains and releases per operation of one counted row, from the call counts Callgrind records
/// in the row's dumps (`calls=N` lines): the same difference that gives the row's Ir/op, applied
/// to the calls made into the Swift runtime's strong reference-counting entry points.
///
/// - **What counts.** A retain is a call into ``retainEntryPoints`` (`swift_retain`,
///   `swift_retain_n`, `swift_bridgeObjectRetain`, `swift_bridgeObjectRetain_n`, and their
///   `swift_nonatomic_` and `swift_unknownObject` forms where the runtime has them), a release
///   one into ``releaseEntryPoints``. Each call counts once: Callgrind sees calls, not arguments,
///   so `swift_retain_n(object, 3)` is one retain. A call the runtime makes from one entry point
///   into another (`swift_bridgeObjectRetain` passing its object on to `swift_retain`) is not
///   counted again. Calls from the rest of the runtime are (`swift_arrayInitWithCopy` retaining
///   each element it copies: each is a retain the program asked for). Unowned and weak reference
///   counts (`swift_unownedRetain`, `swift_weakLoadStrong`) are other counts and are left out.
/// - **The difference.** Per calling function, (its calls in the long loop − in the short one) /
///   operations, minus the same of the empty loop; the functions' shares sum to the row's figure,
///   as their own Ir sums to its Ir/op.
/// - **Which dumps.** Callgrind counts a call even while it is not collecting
///   (`CALLGRIND_TOGGLE_COLLECT`), and `CALLGRIND_ZERO_STATS` clears costs but not call counts:
///   a call site's count restarts only at a dump that prints it, one with a cost at that site.
///   A synchronous strategy's drawn row sums 80 counted loops per dump with counting switched
///   off around them (``InstructionCounter/count(drawing:records:scale:label:)``), so its dumps'
///   counts also hold the calls of the records' set-ups, warm-ups and tear-downs, which differ
///   between the long and the short pass (observable's `write-observed`: 40.90 retains/op from
///   those dumps against 41 counted exactly). Such a row's calls therefore come from four dumps
///   of their own (``CallCountDumps``): record 1 counted in full, as an asynchronous strategy's
///   rows are, with nothing uncounted inside a window. Every other row's come from its own four
///   dumps, whose windows are counted whole.
///
/// ```swift
/// let counts = ReferenceCounts(operation: (short, long), empty: (emptyShort, emptyLong), operations: 400)
/// counts.retains    // 2.0 for observable's read-untracked: the registrar and the key path
/// ```
public struct ReferenceCounts: Sendable, Equatable, Codable {
    /// Retains per operation.
    public var retains: Double
    /// Releases per operation.
    public var releases: Double
    /// The retains and releases each calling function made per operation (those with any).
    public var byFunction: [FunctionID: PerFunction]
    /// Whether the calls were counted in dumps of their own (record 1 counted in full) rather than
    /// in the row's (a drawn row).
    public var fromCallCountDumps: Bool

    /// One function's retains and releases per operation.
    public struct PerFunction: Sendable, Equatable, Codable {
        public var retains: Double
        public var releases: Double

        public init(retains: Double, releases: Double) {
            self.retains = retains
            self.releases = releases
        }
    }

    /// Whether an entry point takes or drops a strong reference.
    public enum Kind: Sendable, Equatable {
        case retain, release
    }

    /// The strong-retain entry points counted (those this platform's runtime lacks never appear).
    public static let retainEntryPoints: Set<String> = entryPoints(retain: true)
    /// The strong-release entry points counted.
    public static let releaseEntryPoints: Set<String> = entryPoints(retain: false)

    private static func entryPoints(retain: Bool) -> Set<String> {
        let verb = retain ? "etain" : "elease"
        var names: Set<String> = []
        for base in ["swift_r\(verb)", "swift_bridgeObjectR\(verb)", "swift_unknownObjectR\(verb)"] {
            for name in [base, base.replacingOccurrences(of: "swift_", with: "swift_nonatomic_")] {
                names.insert(name)
                names.insert(name + "_n")
            }
        }
        return names
    }

    /// Whether `symbol` (as Callgrind names it, perhaps with a `@…` version) is a retain or a
    /// release entry point; nil for any other function.
    public static func kind(of symbol: String) -> Kind? {
        let name = symbol.firstIndex(of: "@").map { String(symbol[..<$0]) } ?? symbol
        if retainEntryPoints.contains(name) { return .retain }
        if releaseEntryPoints.contains(name) { return .release }
        return nil
    }

    public init(retains: Double, releases: Double, byFunction: [FunctionID: PerFunction] = [:], fromCallCountDumps: Bool = false) {
        self.retains = retains
        self.releases = releases
        self.byFunction = byFunction
        self.fromCallCountDumps = fromCallCountDumps
    }

    /// The calls of four parsed dumps over `operations` operations: (long − short) / operations of
    /// the measured loop, minus the same of the empty loop.
    public init(
        operation: (short: CallgrindProfile, long: CallgrindProfile), empty: (short: CallgrindProfile, long: CallgrindProfile), operations: Int,
        fromCallCountDumps: Bool = false
    ) {
        var calls: [FunctionID: (retains: Int64, releases: Int64)] = [:]
        for (dump, sign) in zip([operation.long, operation.short, empty.long, empty.short], [Int64(1), -1, -1, 1]) {
            for (caller, cost) in dump.functions where Self.kind(of: caller.name) == nil {
                for (callee, count) in cost.callCounts {
                    switch Self.kind(of: callee.name) {
                    case .retain: calls[caller, default: (0, 0)].retains += sign * count
                    case .release: calls[caller, default: (0, 0)].releases += sign * count
                    case nil: break
                    }
                }
            }
        }
        let length = Double(max(operations, 1))
        byFunction = calls.compactMapValues { retains, releases in
            retains == 0 && releases == 0 ? nil : PerFunction(retains: Double(retains) / length, releases: Double(releases) / length)
        }
        retains = Double(calls.values.reduce(0) { $0 + $1.retains }) / length
        releases = Double(calls.values.reduce(0) { $0 + $1.releases }) / length
        self.fromCallCountDumps = fromCallCountDumps
    }

    /// The mean of one row's counts in several memory layouts (a function absent from a layout
    /// counts 0 there).
    public init(meanOf layouts: [ReferenceCounts]) {
        precondition(!layouts.isEmpty, "a mean of no counts")
        let count = Double(layouts.count)
        retains = layouts.reduce(0) { $0 + $1.retains } / count
        releases = layouts.reduce(0) { $0 + $1.releases } / count
        var merged: [FunctionID: PerFunction] = [:]
        for layout in layouts {
            for (id, counts) in layout.byFunction {
                merged[id, default: PerFunction(retains: 0, releases: 0)].retains += counts.retains / count
                merged[id, default: PerFunction(retains: 0, releases: 0)].releases += counts.releases / count
            }
        }
        byFunction = merged
        fromCallCountDumps = layouts.contains(where: \.fromCallCountDumps)
    }
}

extension ReferenceCounts {
    /// What a `retains` or `releases` row's note says of how it was counted.
    var note: String {
        let source =
            fromCallCountDumps
            ? "record 1 counted in full in dumps of its own (a drawn row's dumps also count the calls of the records' set-ups and tear-downs: Callgrind counts calls while not collecting)"
            : "the row's own dumps"
        return
            "calls into swift_retain and swift_release and their _n, bridgeObject, unknownObject and nonatomic forms per operation (an _n call counts once; the runtime's calls from one of them into another not again), from Callgrind's call counts: (calls at the long loop − at the short one) / operations, the empty loop's removed, as the row's Ir/op; \(source)"
    }

    /// The `retains` and `releases` rows of the counted rows among `rows` that `profiles` have
    /// call counts for: the same row key apart from the metric, in the same worker's run.
    public static func rows(profiles: [OperationProfile], counted rows: [ResultRow]) -> [ResultRow] {
        let byKey = Dictionary(profiles.compactMap { profile in profile.referenceCounts.map { (profile.key, $0) } }, uniquingKeysWith: { first, _ in first })
        return rows.filter { $0.metric == .instructions }.flatMap { row -> [ResultRow] in
            guard let counts = byKey[RowKey(row)] else { return [] }
            return [(Metric.retains, counts.retains), (Metric.releases, counts.releases)].map { metric, value in
                ResultRow(
                    runID: row.runID, suite: row.suite, workload: row.workload, strategy: row.strategy, executor: row.executor, objects: row.objects,
                    subscribers: row.subscribers, concurrency: row.concurrency, metric: metric, unit: metric.unit, statistics: Statistics(exact: value),
                    note: counts.note, rounds: row.rounds)
            }
        }
    }
}

extension ReferenceCounts {
    /// A count per operation as tables print it: whole where it is ("41"), else to at most three
    /// decimals ("2.018": a mean over layouts, or calls of other threads).
    public static func text(_ value: Double) -> String {
        let rounded = (value * 1_000).rounded() / 1_000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        var text = String(format: "%.3f", rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
