/// One raw sample of one measurement: a row of `samples.csv`, kept for the gate's significance tests.
public struct SampleRow: Sendable, Equatable {
    public var runID: String
    public var suite: String
    public var workload: String
    public var strategy: String
    public var metric: String
    public var unit: String
    public var index: Int
    public var value: Double
    /// Which worker round (1-based) took the sample; a timing suite pools several rounds.
    public var round: Int
    /// The subscriber count of the row the sample belongs to (a sweep has one row per count).
    public var subscribers: Int

    public init(runID: String, suite: String, workload: String, strategy: String, metric: String, unit: String, index: Int, value: Double, round: Int = 1, subscribers: Int = 0) {
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

    public static let columns = ["run_id", "suite", "workload", "strategy", "metric", "unit", "sample", "value", "round", "subscribers"]

    public var fields: [String] {
        [runID, suite, workload, strategy, metric, unit, String(index), NumberFormat.csv(value), String(round), String(subscribers)]
    }
}
