import Foundation

/// `memprofile.csv` read back beside `results.csv`: per memory row, its figure, its allocation
/// sites and what they sum to (`obsbench profile --memory`, the report's "Where the bytes go");
/// whether every row's sites sum to its figure (``check``); and between two runs, the sites that
/// moved (`obsbench profile --memory --diff`).
///
/// A row's sites come from a second worker (``HeapProfiles``), so they sum to its figure exactly
/// only where the figure repeats between processes: a synchronous strategy's rows and exact
/// counts of the isolation kinds. An asynchronous strategy allocates on its delivery's own
/// schedule (GRDB's reader threads, an `AsyncSequence`'s tasks); its sites then sum to what the
/// profiled run allocated, which is shown beside the figure and not held to it.
///
/// ```swift
/// let summary = try MemoryProfileSummary.load("results/latest")
/// summary.rows.first { $0.key.strategy == "observable" }?.sites.first?.site  // "Observation.ObservationRegistrar.init() -> …"
/// summary.check().filter { $0.held && !$0.agrees }                              // [] when every held row sums to its figure
/// ```
public struct MemoryProfileSummary: Sendable {
    /// One memory row: its figure and its sites.
    public struct Row: Sendable {
        public var key: RowKey
        /// The row's figure in `results.csv`; nil when the run has no such row.
        public var figure: Double?
        /// Largest share first.
        public var sites: [MemoryProfileRow]
        /// Why no profile was made, for an error row.
        public var error: String?
        /// Whether the row's figure repeats between processes, so its sites must sum to it.
        public var held: Bool

        /// What the sites sum to (bytes, or allocations for a metric of allocations).
        public var total: Double { sites.reduce(0) { $0 + ($1.figure ?? 0) } }

        /// Whether the sites sum to the figure within ``MemoryProfileSummary/tolerance`` (or
        /// half a unit, for a figure near zero).
        public var agrees: Bool {
            guard let figure, error == nil else { return false }
            return abs(total - figure) <= max(abs(figure) * MemoryProfileSummary.tolerance, 0.5)
        }

        /// Bytes (or allocations) per group, largest first.
        public var groups: [(group: CostGroup, value: Double)] {
            Dictionary(grouping: sites, by: \.group).map { group, sites in (group, sites.reduce(0) { $0 + ($1.figure ?? 0) }) }
                .sorted { (abs($0.value), $1.group.rawValue) > (abs($1.value), $0.group.rawValue) }
        }
    }

    /// How far a held row's sites may sum from its figure: 1%.
    public static let tolerance = 0.01

    /// The profiled rows, in `memprofile.csv`'s order.
    public var rows: [Row]
    /// The run folder read.
    public var source: String

    public init(profile: [MemoryProfileRow], results: [ResultRow], metadata: RunMetadata? = nil, source: String = "") {
        self.source = source
        let figures = Dictionary(results.filter { !$0.isError }.compactMap { row in row.value.map { (RowKey(row), $0) } }, uniquingKeysWith: { a, _ in a })
        var order: [RowKey] = []
        var byKey: [RowKey: Row] = [:]
        for site in profile {
            // memprofile.csv names no concurrency; a memory row's is 1.
            let key = site.key
            if byKey[key] == nil {
                order.append(key)
                byKey[key] = Row(key: key, figure: figures[key], sites: [], error: nil, held: Self.holds(key, metadata: metadata))
            }
            if site.group == .error { byKey[key]?.error = site.site } else { byKey[key]?.sites.append(site) }
        }
        rows = order.compactMap { byKey[$0] }.map { row in
            var row = row
            row.sites.sort { (abs($0.figure ?? 0), $1.site) > (abs($1.figure ?? 0), $0.site) }
            return row
        }
    }

    /// Reads a run folder's `memprofile.csv`, `results.csv` and `run.json`.
    public static func load(_ path: String) throws -> MemoryProfileSummary {
        let results = try RunResults.load(path)
        let folder = URL(fileURLWithPath: results.source).deletingLastPathComponent()
        let file = folder.appendingPathComponent(ResultsDirectory.FileName.memoryProfile).path
        guard FileManager.default.fileExists(atPath: file) else {
            throw ResultsReader.ReadError(
                file: file, line: 0,
                reason: "missing: heap profiles come with the memory suite on jemalloc, unless --no-heap-profiles (\(JemallocLibrary.installHint))")
        }
        return MemoryProfileSummary(profile: try MemoryProfileRow.read(file: file), results: results.rows, metadata: results.metadata, source: folder.path)
    }

    /// Whether `key`'s figure repeats between processes: a strategy that delivers synchronously
    /// (or an unknown one, held to the rule), or no strategy with an exact count.
    static func holds(_ key: RowKey, metadata: RunMetadata?) -> Bool {
        if key.strategy == RowKey.noStrategy { return key.metric.gate == .count }
        return RunMetadata.descriptor(of: key.strategy, in: [metadata])?.capabilities.delivery != .asynchronous
    }

    /// Every profiled row with a figure, and whether its sites agree with it.
    public func check() -> [Row] { rows.filter { $0.figure != nil } }

    /// One row as text: its figure, what its sites sum to, and its top sites.
    public static func text(_ row: Row, top: Int) -> String {
        let isCount = row.key.metric.countsAllocations
        func value(_ number: Double) -> String { isCount ? NumberFormat.count(number) : NumberFormat.bytes(number) }
        var lines = [row.key.description]
        if let error = row.error { return (lines + ["  \(error)", ""]).joined(separator: "\n") }
        let figure = row.figure.map { "\(NumberFormat.count($0)) \(row.key.unit)" } ?? "no figure in results.csv"
        let agreement =
            row.agrees
            ? "its sites sum to \(value(row.total))"
            : row.held
                ? "its sites sum to \(value(row.total)): more than \(NumberFormat.percent(tolerance)) apart"
                : "the profiled run's sites sum to \(value(row.total)) (delivered asynchronously: not held to the figure)"
        lines.append("  \(figure); \(agreement)")
        let table = TextTable(
            header: [isCount ? "allocations" : "bytes", isCount ? "bytes" : "allocations", "group", "site (the code that asked)"],
            rows: row.sites.prefix(top).map { site in
                let other = isCount ? site.bytesPerUnit.map(NumberFormat.bytes) : site.allocationsPerUnit.map(NumberFormat.count)
                let name = ProfileSummary.shortName(site.site) + (site.caller.isEmpty ? "" : " (\(ProfileSummary.shortName(site.caller, width: 40)))")
                return [site.figure.map(value) ?? "", other ?? "", site.group.rawValue, name]
            } + (row.sites.count > top ? [["", "", "", "… \(row.sites.count - top) more sites"]] : []),
            alignment: .right([0, 1]), indent: "  ")
        return (lines + [table.text()]).joined(separator: "\n")
    }

    /// A site whose share of a row moved between two runs.
    public struct Mover: Sendable {
        public var site: String
        public var group: CostGroup
        public var before, after: Double
    }

    /// A row whose figure moved between two runs, and its sites that moved, most first.
    public struct Change: Sendable {
        public var key: RowKey
        public var before, after: Double
        public var movers: [Mover]
    }

    /// The rows whose figure moved between two runs by more than `minimumChange` (a fraction),
    /// each with the sites that moved most.
    public static func diff(base: MemoryProfileSummary, current: MemoryProfileSummary, minimumChange: Double) -> [Change] {
        let before = Dictionary(base.rows.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        func sums(_ row: Row) -> [String: Mover] {
            var result: [String: Mover] = [:]
            for site in row.sites {
                result[site.site, default: Mover(site: site.site, group: site.group, before: 0, after: 0)].after += site.figure ?? 0
            }
            return result
        }
        return current.rows.compactMap { row -> Change? in
            guard let old = before[row.key], row.error == nil, old.error == nil else { return nil }
            let from: Double = old.figure ?? old.total
            let to: Double = row.figure ?? row.total
            guard abs(to - from) > max(abs(from) * minimumChange, 0.5) else { return nil }
            var movers = sums(row)
            for (site, old) in sums(old) {
                movers[site, default: Mover(site: site, group: old.group, before: 0, after: 0)].before = old.after
            }
            let moved = movers.values.filter { $0.before != $0.after }.sorted { abs($0.after - $0.before) > abs($1.after - $1.before) }
            return Change(key: row.key, before: from, after: to, movers: moved)
        }
    }
}
