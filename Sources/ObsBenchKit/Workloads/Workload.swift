import ObservationStrategies

/// What a workload needs to run against one strategy inside one worker process.
public struct WorkloadContext: Sendable {
    public var runID: String
    public var suite: String
    public var strategy: StrategyEntry
    public var sampler: SamplerSettings
    /// Records in the store the workload builds.
    public var objects: Int
    /// Store sizes a sweeping workload (memory) uses: `--objects` alone when given, else the suite's.
    public var objectSweep: [Int]
    /// Whether the run is `--quick` (sweeps stop earlier).
    public var quick: Bool
    /// The largest subscriber count a subscriber sweep (scaling) reaches; nil means its default.
    public var subscribers: Int?

    public init(runID: String, suite: String, strategy: StrategyEntry, sampler: SamplerSettings, objects: Int, objectSweep: [Int]? = nil, quick: Bool = false, subscribers: Int? = nil) {
        self.runID = runID
        self.suite = suite
        self.strategy = strategy
        self.sampler = sampler
        self.objects = objects
        self.objectSweep = objectSweep ?? [objects]
        self.quick = quick
        self.subscribers = subscribers
    }

    /// A fresh store of `objects` records of this context's strategy.
    @MainActor
    public func makeStore() throws -> any ObservationStrategy {
        try strategy.makeStore(TaskRecord.sample(count: objects))
    }
}

/// What a workload measured: result rows and the raw samples behind them.
public struct WorkloadOutput: Sendable {
    public var rows: [ResultRow] = []
    public var samples: [SampleRow] = []

    public init(rows: [ResultRow] = [], samples: [SampleRow] = []) {
        self.rows = rows
        self.samples = samples
    }

    public mutating func append(_ other: WorkloadOutput) {
        rows += other.rows
        samples += other.samples
    }
}

/// One measured scenario that runs against any strategy through the `ObservationStrategy` protocol
/// only. One workload per file; a suite is a list of them.
public protocol Workload: Sendable {
    /// The name in `results.csv`'s `workload` column.
    var name: String { get }
    /// One line for `obsbench list`: what is measured, and up to where.
    var summary: String { get }
    @MainActor func run(_ context: WorkloadContext) async throws -> WorkloadOutput
}

extension WorkloadContext {
    /// Rows for a sampled latency: the per-operation statistics, and the loop overhead that was
    /// subtracted from them (measured in this process), plus the raw samples.
    func latencyOutput(workload: String, subscribers: Int, sampled: Sampled, note: String) -> WorkloadOutput {
        let row = ResultRow(
            runID: runID, suite: suite, workload: workload, strategy: strategy.name, executor: "main-actor",
            objects: objects, subscribers: subscribers, concurrency: 1, metric: "latency", unit: "ns/op",
            statistics: Statistics(sampled.nanosecondsPerOperation),
            note: "\(note); \(sampled.batchSize) ops per sample; loop overhead subtracted")
        let overhead = ResultRow(
            runID: runID, suite: suite, workload: workload, strategy: strategy.name, executor: "main-actor",
            objects: objects, subscribers: subscribers, concurrency: 1, metric: "loop_overhead", unit: "ns/op",
            statistics: Statistics(exact: sampled.loopOverheadNanoseconds),
            note: "empty loop of the same shape, median of 15 batches; subtracted from latency")
        let samples = sampled.nanosecondsPerOperation.enumerated().map { index, value in
            SampleRow(runID: runID, suite: suite, workload: workload, strategy: strategy.name, metric: "latency", unit: "ns/op", index: index, value: value, subscribers: subscribers)
        }
        return WorkloadOutput(rows: [row, overhead], samples: samples)
    }

    /// A row for an exact count (deterministic: the gate compares it strictly). A nil value is a
    /// row that says, in its note, why the count could not be measured here.
    func countRow(workload: String, objects: Int? = nil, subscribers: Int, metric: String, unit: String, value: Double?, note: String) -> ResultRow {
        ResultRow(
            runID: runID, suite: suite, workload: workload, strategy: strategy.name, executor: "main-actor",
            objects: objects ?? self.objects, subscribers: subscribers, concurrency: 1, metric: metric, unit: unit,
            statistics: value.map { Statistics(exact: $0) }, note: note)
    }
}

/// Why a workload could not produce a number.
public enum WorkloadError: Error, CustomStringConvertible {
    /// The strategy ended a view's subscription with an error while it was being measured.
    case viewFailed(String)
    /// This platform offers no way to measure what the workload measures.
    case notMeasurable(String)

    public var description: String {
        switch self {
        case .viewFailed(let message): "the measured view failed: \(message)"
        case .notMeasurable(let message): "not measurable here: \(message)"
        }
    }
}
