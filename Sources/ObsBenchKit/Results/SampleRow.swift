/// One raw sample of one measurement: a row of `samples.csv`, kept for the gate's significance tests.
///
/// A sample carries the full key of the row it belongs to (``rowKey``), so rows that differ only in
/// executor, objects or concurrency (hops rows at several caller counts, isolation kinds) keep
/// their samples apart. A `samples.csv` written before those columns existed gives samples with
/// only a partial key (``executor``, ``objects`` and ``concurrency`` nil): ``SampleAttribution``
/// ties them to a row only where one row matches.
public struct SampleRow: Sendable, Equatable {
    public var runID: String
    public var suite: String
    public var workload: String
    public var strategy: String
    public var metric: Metric
    public var unit: String
    public var index: Int
    public var value: Double
    /// Which worker round (1-based) took the sample; a timing suite pools several rounds.
    public var round: Int
    /// The subscriber count of the row the sample belongs to (a sweep has one row per count). In
    /// a file without the full key, a strategy-less row's samples (hops, store isolation, the
    /// pool) carry the row's callers (`concurrency`) here instead.
    public var subscribers: Int
    /// The row's executor, objects and concurrency; nil in a sample read from a `samples.csv`
    /// written before samples carried them (or merged from one).
    public var executor: String?
    public var objects: Int?
    public var concurrency: Int?

    /// A sample of the row `key`.
    public init(runID: String, key: RowKey, index: Int, value: Double, round: Int = 1) {
        self.init(
            runID: runID, suite: key.suite, workload: key.workload, strategy: key.strategy, metric: key.metric, unit: key.unit, index: index, value: value,
            round: round, subscribers: key.subscribers)
        rowKey = key
    }

    /// A sample with a partial key, as a `samples.csv` without the executor, objects and
    /// concurrency columns gives it.
    public init(runID: String, suite: String, workload: String, strategy: String, metric: Metric, unit: String, index: Int, value: Double, round: Int = 1, subscribers: Int = 0) {
        self.runID = runID
        self.suite = suite
        self.workload = workload
        self.strategy = strategy
        self.metric = metric
        self.unit = unit
        self.index = index
        self.value = value
        self.round = round
        self.subscribers = subscribers
    }

    /// The full key of the row the sample belongs to; nil for a sample with a partial key. Setting
    /// it gives the sample that row's full key (nil: a partial key).
    public var rowKey: RowKey? {
        get {
            guard let executor, let objects, let concurrency else { return nil }
            return RowKey(
                suite: suite, workload: workload, strategy: strategy, executor: executor, metric: metric, unit: unit, objects: objects,
                subscribers: subscribers, concurrency: concurrency)
        }
        set {
            guard let newValue else {
                (executor, objects, concurrency) = (nil, nil, nil)
                return
            }
            suite = newValue.suite
            workload = newValue.workload
            strategy = newValue.strategy
            metric = newValue.metric
            unit = newValue.unit
            subscribers = newValue.subscribers
            executor = newValue.executor
            objects = newValue.objects
            concurrency = newValue.concurrency
        }
    }

    /// `samples.csv`'s columns. Columns are only added at the end, so readers that go by column
    /// name read every version: `round` and `subscribers` came later than the first eight, and the
    /// row's `executor`, `objects` and `concurrency` last.
    public static let columns = [
        "run_id", "suite", "workload", "strategy", "metric", "unit", "sample", "value", "round", "subscribers", "executor", "objects", "concurrency",
    ]
    /// How many of ``columns`` a file written before samples carried the full key has (at most).
    public static let partialKeyColumns = 10

    /// The sample as a line of `samples.csv`; a partial key's missing columns are empty.
    public var fields: [String] {
        [
            runID, suite, workload, strategy, metric.name, unit, String(index), NumberFormat.csv(value), String(round), String(subscribers), executor ?? "",
            objects.map(String.init) ?? "", concurrency.map(String.init) ?? "",
        ]
    }
}

/// Ties samples to the rows they belong to, once, where a run's samples are indexed.
///
/// A sample with the full key belongs to the row of that key. A sample read from a `samples.csv`
/// written before samples carried the full key names its row only by suite, workload, strategy,
/// metric and subscriber count (a strategy-less row's callers, for hops, store isolation and the
/// pool: ``WorkloadOutput/labelAsHop(executor:callers:)`` put them there). It is tied to a row
/// only where exactly one of the rows given matches; where several do (hops rows at several
/// executors or caller counts), its samples cannot be told apart, and no such row gets any
/// (``unattributable``).
public struct SampleAttribution: Sendable {
    /// Each row's samples, in the order given; a row without samples is absent.
    public private(set) var samples: [RowKey: [SampleRow]] = [:]
    /// Rows whose samples, without the full key, matched other rows too: they get none.
    public private(set) var unattributable: Set<RowKey> = []

    /// Attributes `samples` among `rows` (the rows samples may belong to; duplicates count as one
    /// row each, as they cannot be told apart either).
    public init(rows: [RowKey], samples: [SampleRow]) {
        var full: [RowKey: [SampleRow]] = [:]
        var partial: [PartialKey: [SampleRow]] = [:]
        for sample in samples {
            if let key = sample.rowKey {
                full[key, default: []].append(sample)
            } else {
                partial[PartialKey(sample), default: []].append(sample)
            }
        }
        var rowsPerPartialKey: [PartialKey: Int] = [:]
        if !partial.isEmpty {
            for row in rows { rowsPerPartialKey[PartialKey(row), default: 0] += 1 }
        }
        for row in Set(rows) {
            var own = full[row] ?? []
            if !partial.isEmpty, let matched = partial[PartialKey(row)], !matched.isEmpty {
                if rowsPerPartialKey[PartialKey(row)] == 1 {
                    own += matched
                } else {
                    unattributable.insert(row)
                }
            }
            if !own.isEmpty { self.samples[row] = own }
        }
    }

    /// What tied a sample to its row before samples carried the full key.
    struct PartialKey: Hashable {
        var suite, workload, strategy: String
        var metric: Metric
        var subscribers: Int

        init(_ sample: SampleRow) {
            suite = sample.suite
            workload = sample.workload
            strategy = sample.strategy
            metric = sample.metric
            subscribers = sample.subscribers
        }

        /// A strategy-less row's samples carried its callers in `subscribers`.
        init(_ row: RowKey) {
            suite = row.suite
            workload = row.workload
            strategy = row.strategy
            metric = row.metric
            subscribers = row.strategy == RowKey.noStrategy ? row.concurrency : row.subscribers
        }
    }
}
