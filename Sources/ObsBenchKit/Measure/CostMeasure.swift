/// How a run measures the cost of an operation.
///
/// - `time`: wall-clock nanoseconds per operation. What a user feels, waiting, cache misses and
///   contention included; it moves with whatever else the machine is doing.
/// - `instructions`: instructions per operation counted by Valgrind's Callgrind: a synchronous
///   strategy's worker's main thread, any other worker's every thread (``CountedThreads``). Exact
///   and repeatable on a shared machine, so a CI gate can judge small changes; blind to waiting,
///   cache misses and contention.
public enum CostMeasure: String, Sendable, CaseIterable, Codable {
    case time
    case instructions

    /// The metric a workload's cost per operation is reported as.
    public var metric: Metric {
        switch self {
        case .time: .latency
        case .instructions: .instructions
        }
    }
}
