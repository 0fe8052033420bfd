import ObservationStrategies

/// What names the thing a row measured, apart from its values and note: the key the round merger
/// pools rounds by, the comparison matches a baseline's rows by, the normalisation finds `plain`'s
/// floor by, and the exports name benchmarks by.
///
/// ```swift
/// RowKey(row).description  // "latency/write-observed/published/latency objects=1000 S=1 c=1"
/// RowKey(row).benchmark    // "latency/write-observed/published objects=1000 S=1 c=1"
/// ```
public struct RowKey: Hashable, Sendable, Codable, CustomStringConvertible {
    public var suite, workload, strategy, executor: String
    public var metric: Metric
    public var unit: String
    public var objects, subscribers, concurrency: Int

    public init(suite: String, workload: String, strategy: String, executor: String, metric: Metric, unit: String, objects: Int, subscribers: Int, concurrency: Int) {
        self.suite = suite
        self.workload = workload
        self.strategy = strategy
        self.executor = executor
        self.metric = metric
        self.unit = unit
        self.objects = objects
        self.subscribers = subscribers
        self.concurrency = concurrency
    }

    public init(_ row: ResultRow) {
        suite = row.suite
        workload = row.workload
        strategy = row.strategy
        executor = row.executor
        metric = row.metric
        unit = row.unit
        objects = row.objects
        subscribers = row.subscribers
        concurrency = row.concurrency
    }

    /// What was measured, without the metric: one benchmark, which may have several metrics.
    /// The executor is named where one workload measures several (isolation kinds).
    public var benchmark: String {
        "\(suite)/\(workload)/\(strategy) objects=\(objects) S=\(subscribers) c=\(concurrency)"
            + (executor == Self.mainActor || executor.isEmpty ? "" : " on \(executor)")
    }

    /// The benchmark and the metric, as the gate's report names a row.
    public var description: String {
        "\(suite)/\(workload)/\(strategy)/\(metric) objects=\(objects) S=\(subscribers) c=\(concurrency)"
            + (executor == Self.mainActor || executor.isEmpty ? "" : " on \(executor)")
    }

    /// The key without its suite (every row workload's name is one suite's), with the records as
    /// `N=`, and the concurrency and executor only where they are not the defaults: what the
    /// gate's table prints, where the width is short.
    ///
    /// ```swift
    /// RowKey(row).shortDescription  // "write-observed/published/latency N=1000 S=1"
    /// ```
    public var shortDescription: String {
        "\(workload)/\(strategy)/\(metric) N=\(objects) S=\(subscribers)" + (concurrency == 1 ? "" : " c=\(concurrency)")
            + (executor == Self.mainActor || executor.isEmpty ? "" : " on \(executor)")
    }

    /// The `plain` row of the same workload and size whose latency a timing is normalised by.
    var plainFloor: String { "\(suite)/\(workload) S=\(subscribers)" }

    /// The strategy every ratio is held against: `plain`, records with no observation at all.
    public static let floorStrategy = PlainStrategy.descriptor.name
    /// The `strategy` of a row that measures no strategy (a hop, an isolation primitive).
    public static let noStrategy = "-"
    /// The `executor` of a row measured on the main actor, the default; not named in descriptions.
    public static let mainActor = "main-actor"
    /// The `workload` of an error row that stands for every workload of its worker.
    public static let allWorkloads = "*"
}
