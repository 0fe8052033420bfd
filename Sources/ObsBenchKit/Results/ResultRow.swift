/// One measured statistic: a row of `results.csv` (long format).
///
/// The column order is the contract with `plot-scripts/` and the gate: columns are only ever
/// added at the end, never renamed or reordered.
public struct ResultRow: Sendable {
    public var runID: String
    public var suite: String
    public var workload: String
    public var strategy: String
    /// Where the measured code ran, e.g. `main-actor`.
    public var executor: String
    public var objects: Int
    public var subscribers: Int
    public var concurrency: Int
    /// What was measured, e.g. ``Metric/latency``; ``Metric/error`` for a worker that failed (see `note`).
    public var metric: Metric
    /// The unit of every statistic in the row, e.g. `ns/op`.
    public var unit: String
    public var statistics: Statistics?
    /// Free text: how the value was obtained, or why a worker failed.
    public var note: String
    /// How many worker processes (rounds) the row pools: a timing suite runs every strategy in
    /// several interleaved rounds so each one's samples span the whole run.
    public var rounds: Int
    /// The Callgrind dumps an instruction row's per-function profile is made from: set in the
    /// worker that counted it, for the parent (`ProfileManifest`); not a column.
    public var profileDumps: ProfileDumps?
    /// Each worker process's (round's) own value, by round number: its median for a timing, its
    /// value for a count, a layout's count under Callgrind. The process is the unit of
    /// replication: every comparison between rows is made from these (``FloorComparison``,
    /// ``HarnessShare``), never from samples pooled across processes. nil where not known. Not a
    /// column: ``RoundMerger`` sets it from the rounds' rows, and ``RunResults/load(_:)`` from
    /// `samples.csv` (``withRoundValues(_:samples:)``); ``==`` ignores it.
    public var roundValues: [Int: Double]?

    public init(
        runID: String, suite: String, workload: String, strategy: String, executor: String, objects: Int, subscribers: Int, concurrency: Int, metric: Metric, unit: String,
        statistics: Statistics?, note: String = "", rounds: Int = 1
    ) {
        self.runID = runID
        self.suite = suite
        self.workload = workload
        self.strategy = strategy
        self.executor = executor
        self.objects = objects
        self.subscribers = subscribers
        self.concurrency = concurrency
        self.metric = metric
        self.unit = unit
        self.statistics = statistics
        self.note = note
        self.rounds = rounds
    }

    /// The row of `key` (every column that says which row it is) in run `runID`.
    public init(runID: String, key: RowKey, statistics: Statistics?, note: String = "", rounds: Int = 1) {
        self.init(
            runID: runID, suite: key.suite, workload: key.workload, strategy: key.strategy, executor: key.executor, objects: key.objects,
            subscribers: key.subscribers, concurrency: key.concurrency, metric: key.metric, unit: key.unit, statistics: statistics, note: note,
            rounds: rounds)
    }

    /// The header of `results.csv`, in order.
    public static let columns = [
        "run_id", "suite", "workload", "strategy", "executor", "objects", "subscribers", "concurrency",
        "metric", "unit", "samples", "median", "p10", "p90", "p99", "min", "max", "mean", "ci95_low", "ci95_high",
        "note", "rounds",
    ]

    /// A row saying a worker failed: no statistics, the reason in `note`.
    public static func error(runID: String, suite: String, strategy: String, message: String) -> ResultRow {
        ResultRow(
            runID: runID, suite: suite, workload: RowKey.allWorkloads, strategy: strategy, executor: "", objects: 0, subscribers: 0, concurrency: 0, metric: .error, unit: "",
            statistics: nil, note: message)
    }

    public var isError: Bool { metric == .error }

    /// The rounds' values in round order; empty where not known.
    public var orderedRoundValues: [Double] {
        (roundValues ?? [:]).sorted { $0.key < $1.key }.map(\.value)
    }

    /// Whether every round (process) that measured the row gave the same value, and more than one
    /// did: only such a count is exact. One process's count is not known to repeat.
    public var isRepeatedExactly: Bool {
        guard rounds > 1, let statistics else { return false }
        return statistics.max - statistics.min <= max(abs(statistics.max), 1) * 1e-9
    }

    /// `rows` with ``roundValues`` recovered from `samples` (each round's median, ``SampleAttribution``);
    /// a row without samples of its own measured in one round gets that round's value; any other
    /// row keeps what it had.
    public static func withRoundValues(_ rows: [ResultRow], samples: [SampleRow]) -> [ResultRow] {
        let attribution = SampleAttribution(rows: rows.filter { !$0.isError && $0.statistics != nil }.map(RowKey.init), samples: samples)
        return rows.map { row in
            guard !row.isError, row.roundValues == nil, let value = row.value else { return row }
            var row = row
            if let own = attribution.samples[RowKey(row)], !own.isEmpty {
                var values: [Int: Double] = [:]
                for (round, samples) in Dictionary(grouping: own, by: \.round) {
                    let sorted = samples.map(\.value).sorted()
                    guard sorted.allSatisfy(\.isFinite) else { continue }
                    values[round] = Statistics.percentile(sorted, 0.5)
                }
                row.roundValues = values
            } else if row.rounds == 1 {
                row.roundValues = [1: value]
            }
            return row
        }
    }

    /// The row's value, the one tables, charts and the gate use: the median of its samples; for a
    /// count made under Callgrind in several memory layouts (``LayoutSeed``), the mean of the
    /// layouts' values, whose spread (`min`, `max`) is the row's uncertainty.
    public var value: Double? {
        guard let statistics else { return nil }
        return isMeanOverLayouts ? statistics.mean : statistics.median
    }

    /// The row's uncertainty as an interval around ``value``: the layouts' range for a mean over
    /// layouts, else the median's bootstrap 95% interval; nil for an exact value (a count, or
    /// layouts that all agree).
    public var interval: (low: Double, high: Double)? {
        guard let statistics else { return nil }
        let interval = isMeanOverLayouts ? (statistics.min, statistics.max) : (statistics.ci95Low, statistics.ci95High)
        return interval.0 == interval.1 ? nil : interval
    }

    /// For a count made on many records in each layout (a synchronous strategy's drawn latency
    /// rows, ``Counted/records``), how many: its note says "mean over records 1–80". nil for a
    /// count of record 1 alone (`--objects 1` draws one record), and for every other row.
    public var drawnRecords: Int? {
        guard Metric.countedUnderCallgrind.contains(metric), let range = note.range(of: Counted.drawnNotePrefix),
            let records = Int(note[range.upperBound...].prefix { $0.isASCII && $0.isNumber }), records > 1
        else { return nil }
        return records
    }

    /// Whether the row is a count made under Callgrind in more than one memory layout (its
    /// statistics are over the layouts' values, one each).
    public var isMeanOverLayouts: Bool {
        rounds > 1 && Metric.countedUnderCallgrind.contains(metric)
    }

    /// Whether a timing does not differ from the empty loop's: at least a tenth of its samples
    /// were no slower than the empty loop (`p10` ≤ 0; each sample's net time is clamped at 0) and
    /// its median is below ``indistinguishableBelowNanoseconds``, a sixth of one clock cycle at
    /// 3 GHz: the instructions left, if any, run in the empty loop's shadow. The optimiser has
    /// reduced such a loop to nothing measurable: it is printed as ``indistinguishableText``, said
    /// in its note, drawn without a bar (plot-scripts/plot.py applies the same rule), and never a
    /// ratio's floor. Instruction counts are exact and never are.
    public var isIndistinguishableFromEmptyLoop: Bool {
        guard metric == .latency, let statistics else { return false }
        return statistics.p10 <= 0 && statistics.median < Self.indistinguishableBelowNanoseconds
    }

    /// The median (ns/op) under which a timing with `p10` ≤ 0 does not differ from the empty loop.
    public static let indistinguishableBelowNanoseconds = 0.05

    /// What tables print for a value that ``isIndistinguishableFromEmptyLoop``.
    public static let indistinguishableText = "≈ empty loop"

    /// Added to the note of a row that ``isIndistinguishableFromEmptyLoop``.
    static let indistinguishableNote =
        "not distinguishable from the empty loop: a tenth of the samples were no slower (p10 ≤ 0) and the median is under 0.05 ns; no ratio is taken against it"

    /// The row with ``indistinguishableNote`` added to its note when the rule holds.
    public func notingIndistinguishable() -> ResultRow {
        guard isIndistinguishableFromEmptyLoop, !note.contains(Self.indistinguishableNote) else { return self }
        var row = self
        row.note += (note.isEmpty ? "" : "; ") + Self.indistinguishableNote
        return row
    }

    /// The row's fields as text, in `columns` order.
    public var fields: [String] {
        let stats = statistics
        func number(_ value: Double?) -> String { value.map(NumberFormat.csv) ?? "" }
        return [
            runID, suite, workload, strategy, executor, String(objects), String(subscribers), String(concurrency),
            metric.name, unit, stats.map { String($0.count) } ?? "0",
            number(stats?.median), number(stats?.p10), number(stats?.p90), number(stats?.p99),
            number(stats?.min), number(stats?.max), number(stats?.mean), number(stats?.ci95Low), number(stats?.ci95High),
            note, String(rounds),
        ]
    }
}

extension ResultRow: Equatable {
    /// Every column and the profile dumps; not ``roundValues``, which are derived (from the rounds'
    /// rows or from `samples.csv`) and not written to `results.csv`.
    public static func == (lhs: ResultRow, rhs: ResultRow) -> Bool {
        lhs.runID == rhs.runID && lhs.suite == rhs.suite && lhs.workload == rhs.workload && lhs.strategy == rhs.strategy && lhs.executor == rhs.executor
            && lhs.objects == rhs.objects && lhs.subscribers == rhs.subscribers && lhs.concurrency == rhs.concurrency && lhs.metric == rhs.metric
            && lhs.unit == rhs.unit && lhs.statistics == rhs.statistics && lhs.note == rhs.note && lhs.rounds == rhs.rounds && lhs.profileDumps == rhs.profileDumps
    }
}
