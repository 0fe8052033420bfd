/// Which of a run's rows to find: every field given must equal the row's, and a field left nil
/// matches any. The one way the suites' tables, the harness share, the reference-count table and
/// the profile guide look rows up.
///
/// ```swift
/// let write = rows.first(RowQuery(suite: "latency", workload: "write-unobserved", strategy: "observable", metric: .instructions))
/// let sweep = rows.matching(RowQuery(suite: "scaling", strategy: "published", metric: .latency, valued: true))
/// ```
public struct RowQuery: Sendable, Equatable {
    public var suite, workload, strategy, executor: String?
    /// An error row's metric is ``Metric/error``, so a query naming another metric never finds one.
    public var metric: Metric?
    public var objects, subscribers, concurrency: Int?
    /// Only rows with a value (``ResultRow/value``): not an error row, nor one that measured nothing.
    public var valued: Bool

    public init(
        suite: String? = nil, workload: String? = nil, strategy: String? = nil, executor: String? = nil, metric: Metric? = nil, objects: Int? = nil,
        subscribers: Int? = nil, concurrency: Int? = nil, valued: Bool = false
    ) {
        self.suite = suite
        self.workload = workload
        self.strategy = strategy
        self.executor = executor
        self.metric = metric
        self.objects = objects
        self.subscribers = subscribers
        self.concurrency = concurrency
        self.valued = valued
    }

    /// Whether `row` is one of the rows asked for.
    public func matches(_ row: ResultRow) -> Bool {
        func same<Value: Equatable>(_ wanted: Value?, _ actual: Value) -> Bool { wanted.map { $0 == actual } ?? true }
        return same(suite, row.suite) && same(workload, row.workload) && same(strategy, row.strategy) && same(executor, row.executor)
            && same(metric, row.metric) && same(objects, row.objects) && same(subscribers, row.subscribers) && same(concurrency, row.concurrency)
            && (!valued || (!row.isError && row.value != nil))
    }
}

extension Sequence where Element == ResultRow {
    /// The first row `query` asks for, in the rows' order.
    public func first(_ query: RowQuery) -> ResultRow? { first(where: query.matches) }

    /// Every row `query` asks for, in the rows' order.
    public func matching(_ query: RowQuery) -> [ResultRow] { filter(query.matches) }
}
