/// One worker process of a run: one suite, measured one way, against one strategy (none, for a
/// suite that measures no strategy), in one round; in the instruction mode a round is a memory
/// layout. ``RunPlan/jobs`` lists them all; a shard runs some (``RunShard``).
public struct RunJob: Codable, Sendable, Hashable, CustomStringConvertible {
    public var suite: String
    public var measure: CostMeasure
    /// The strategy's name; nil for a suite that measures no strategy.
    public var strategy: String?
    /// From 1.
    public var round: Int
    /// How many rounds the suite runs each strategy in, measured this way.
    public var rounds: Int

    public init(suite: String, measure: CostMeasure, strategy: String?, round: Int, rounds: Int) {
        self.suite = suite
        self.measure = measure
        self.strategy = strategy
        self.round = round
        self.rounds = rounds
    }

    /// The `strategy` column of the job's rows.
    public var strategyName: String { strategy ?? RowKey.noStrategy }

    /// E.g. `latency (instructions) · observable, round 2/5`.
    public var description: String {
        (measure == .instructions ? "\(suite) (instructions)" : suite) + " · " + strategyName + (rounds > 1 ? ", round \(round)/\(rounds)" : "")
    }
}
