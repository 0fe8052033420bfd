import Foundation

/// One function's share of one counted row: a row of `profile.csv`, which every
/// `--measure instructions` run writes beside `results.csv`.
///
/// For the row `latency/write-unobserved/observable`, the rows of its profile say, per function,
/// how many of its Ir/op are that function's own (`self_ir_per_op`) and how many run under it
/// (`inclusive_ir_per_op`). The self costs of a row sum to its `instructions` median. The
/// retains and releases each function made per operation (`retains_per_op`, `releases_per_op`)
/// sum, the same way, to the row's `retains` and `releases` (``ReferenceCounts``).
///
/// Columns are only ever added at the end.
public struct ProfileRow: Sendable, Equatable {
    public var suite: String
    public var workload: String
    public var strategy: String
    public var executor: String
    public var concurrency: Int
    public var group: CostGroup
    /// The demangled symbol; for a `group` of `error`, why the profile could not be made.
    public var function: String
    /// Instructions per operation in the function's own code; nil in an error row.
    public var selfPerOperation: Double?
    /// Instructions per operation in the function and what it called; nil in an error row, and
    /// where that is not the operation's own (``InclusiveCost``: a function on a cycle of calls,
    /// a frame the loop runs in), so that a value given is within 0…the row's Ir/op.
    public var inclusivePerOperation: Double?
    public var objects: Int
    public var subscribers: Int
    /// The file name of the object the function's code is in (`libswiftCore.so`, `obsbench`).
    public var object: String
    /// Calls the function made into the runtime's retain (release) entry points per operation; nil
    /// in an error row and in a `profile.csv` written before the columns existed.
    public var retainsPerOperation: Double?
    public var releasesPerOperation: Double?

    public init(
        key: RowKey, group: CostGroup, function: String, selfPerOperation: Double?, inclusivePerOperation: Double?, object: String,
        retainsPerOperation: Double? = nil, releasesPerOperation: Double? = nil
    ) {
        suite = key.suite
        workload = key.workload
        strategy = key.strategy
        executor = key.executor
        concurrency = key.concurrency
        objects = key.objects
        subscribers = key.subscribers
        self.group = group
        self.function = function
        self.selfPerOperation = selfPerOperation
        self.inclusivePerOperation = inclusivePerOperation
        self.object = object
        self.retainsPerOperation = retainsPerOperation
        self.releasesPerOperation = releasesPerOperation
    }

    /// A row that says why `key`'s profile could not be made.
    public static func error(key: RowKey, message: String) -> ProfileRow {
        ProfileRow(key: key, group: .error, function: message, selfPerOperation: nil, inclusivePerOperation: nil, object: "")
    }

    /// The `instructions` row of `results.csv` this profile divides.
    public var key: RowKey {
        RowKey(
            suite: suite, workload: workload, strategy: strategy, executor: executor, metric: .instructions, unit: Metric.instructions.unit,
            objects: objects, subscribers: subscribers, concurrency: concurrency)
    }

    /// The header of `profile.csv`, in order.
    public static let columns = baseColumns + ["retains_per_op", "releases_per_op"]

    /// The columns every `profile.csv` has, those written before retains and releases were added.
    static let baseColumns = [
        "suite", "workload", "strategy", "executor", "concurrency", "group", "function", "self_ir_per_op", "inclusive_ir_per_op",
        "objects", "subscribers", "object",
    ]

    public var fields: [String] {
        func number(_ value: Double?) -> String { value.map { NumberFormat.csv(($0 * 1_000).rounded() / 1_000) } ?? "" }
        return [
            suite, workload, strategy, executor, String(concurrency), group.rawValue, function, number(selfPerOperation), number(inclusivePerOperation),
            String(objects), String(subscribers), object, number(retainsPerOperation), number(releasesPerOperation),
        ]
    }

    /// Reads `profile.csv`; errors name the file, the line and the reason.
    public static func read(file path: String) throws -> [ProfileRow] {
        try parse(CSVFile.text(atPath: path), file: path)
    }

    public static func parse(_ text: String, file: String = "<text>") throws -> [ProfileRow] {
        let csv = try CSVFile(parsing: text, file: file)
        guard csv.header.fields.starts(with: baseColumns) else {
            throw csv.headerError("the header is not profile.csv's: \(columns.joined(separator: ","))")
        }
        // Columns added later, read where the header has them.
        let expected = csv.header.fields.starts(with: columns) ? columns.count : baseColumns.count
        return try csv.rows(named: columns) { record throws(ResultsReader.ReadError) in
            try record.expectFields(atLeast: expected)
            let fields = record.fields
            guard let group = CostGroup(rawValue: fields[5]) else { throw record.error("unknown group '\(fields[5])'") }
            let key = RowKey(
                suite: fields[0], workload: fields[1], strategy: fields[2], executor: fields[3], metric: .instructions, unit: Metric.instructions.unit,
                objects: try record.count(9), subscribers: try record.count(10), concurrency: try record.count(4))
            return ProfileRow(
                key: key, group: group, function: fields[6], selfPerOperation: try record.optionalNumber(7), inclusivePerOperation: try record.optionalNumber(8),
                object: fields[11], retainsPerOperation: expected > 12 ? try record.optionalNumber(12) : nil,
                releasesPerOperation: expected > 13 ? try record.optionalNumber(13) : nil)
        }
    }
}
