import Foundation

/// One allocation site's share of one memory row: a row of `memprofile.csv`, which a run of the
/// memory suite on jemalloc writes beside `results.csv` (``HeapProfiles``).
///
/// For the row `memory/store-lifecycle/observable/fresh_bytes_per_object objects=10000`, the rows
/// of its profile say, per allocating function, how many of its bytes per object that function
/// allocated (`bytes_per_unit`) in how many allocations (`allocations_per_unit`). A site is the
/// first function on the stack that is not the allocator or the Swift runtime's allocation entry
/// points (`swift_allocObject`, `swift_slowAlloc`); `caller` is the first function beyond it
/// outside the runtime and the standard library, the code that asked (an array's buffer is
/// allocated by the standard library for a strategy's `append`). A row's sites sum to its figure:
/// bytes for a metric of bytes, allocations for one of allocations.
///
/// Columns are only ever added at the end.
public struct MemoryProfileRow: Sendable, Equatable {
    /// The memory row explained (its metric and unit included).
    public var key: RowKey
    public var group: CostGroup
    /// The allocating function, demangled; for a `group` of `error`, why no profile was made.
    public var site: String
    /// The first function beyond the site outside the Swift runtime and standard library; empty
    /// where there is none (the site is already such code).
    public var caller: String
    /// The site's bytes per unit of the row (per object, view, write or instance): in use for a
    /// row of live bytes, allocated for a row of allocations or allocated bytes.
    public var bytesPerUnit: Double?
    /// The site's allocations per unit, counted the same way.
    public var allocationsPerUnit: Double?
    /// The file name of the object the site's code is in (`libswiftObservation.so`, `obsbench`).
    public var object: String

    public init(key: RowKey, group: CostGroup, site: String, caller: String, bytesPerUnit: Double?, allocationsPerUnit: Double?, object: String) {
        self.key = key
        self.group = group
        self.site = site
        self.caller = caller
        self.bytesPerUnit = bytesPerUnit
        self.allocationsPerUnit = allocationsPerUnit
        self.object = object
    }

    /// A row that says why `key`'s profile could not be made.
    public static func error(key: RowKey, message: String) -> MemoryProfileRow {
        MemoryProfileRow(key: key, group: .error, site: message, caller: "", bytesPerUnit: nil, allocationsPerUnit: nil, object: "")
    }

    /// The share of the row's figure this site holds: its allocations for a metric counting
    /// allocations, else its bytes.
    public var figure: Double? {
        key.metric.countsAllocations ? allocationsPerUnit : bytesPerUnit
    }

    /// The header of `memprofile.csv`, in order.
    public static let columns = [
        "suite", "workload", "strategy", "executor", "objects", "subscribers", "metric", "unit", "group", "site", "caller",
        "bytes_per_unit", "allocations_per_unit", "object",
    ]

    public var fields: [String] {
        func number(_ value: Double?) -> String { value.map { NumberFormat.csv(($0 * 1_000).rounded() / 1_000) } ?? "" }
        return [
            key.suite, key.workload, key.strategy, key.executor, String(key.objects), String(key.subscribers), key.metric.name, key.unit,
            group.rawValue, site, caller, number(bytesPerUnit), number(allocationsPerUnit), object,
        ]
    }

    /// Reads `memprofile.csv`; errors name the file, the line and the reason.
    public static func read(file path: String) throws -> [MemoryProfileRow] {
        try parse(CSVFile.text(atPath: path), file: path)
    }

    public static func parse(_ text: String, file: String = "<text>") throws -> [MemoryProfileRow] {
        let csv = try CSVFile(parsing: text, file: file)
        guard csv.header.fields.starts(with: columns) else {
            throw csv.headerError("the header is not memprofile.csv's: \(columns.joined(separator: ","))")
        }
        return try csv.rows(named: columns) { record throws(ResultsReader.ReadError) in
            try record.expectFields(atLeast: columns.count)
            let fields = record.fields
            guard let group = CostGroup(rawValue: fields[8]) else { throw record.error("unknown group '\(fields[8])'") }
            let key = RowKey(
                suite: fields[0], workload: fields[1], strategy: fields[2], executor: fields[3], metric: Metric.named(fields[6], unit: fields[7]), unit: fields[7],
                objects: try record.count(4), subscribers: try record.count(5), concurrency: 1)
            return MemoryProfileRow(
                key: key, group: group, site: fields[9], caller: fields[10], bytesPerUnit: try record.optionalNumber(11),
                allocationsPerUnit: try record.optionalNumber(12), object: fields[13])
        }
    }
}
