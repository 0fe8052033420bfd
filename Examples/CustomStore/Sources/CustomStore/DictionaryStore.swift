import ObservationStrategies

/// A persistence layer of the kind obsbench's design notes start from, written outside obsbench:
/// records in a plain dictionary keyed by id, and views told of changes through per-record
/// callbacks (`RecordCenter`), the way code built on `NotificationCenter` is.
///
/// A write posts for its record, so every view that read any field of it re-runs (object
/// granularity), synchronously. A transaction applies every write first and then posts once per
/// record it touched, so no view sees it half-applied.
///
/// It conforms to obsbench's `ObservationStrategy`; that is all it takes to measure it:
///
/// ```swift
/// ObsBench.main(strategies: StrategyRegistry.all + [StrategyEntry(DictionaryStore.self)])
/// ```
@MainActor
public final class DictionaryStore: ObservationStrategy {
    nonisolated public static let descriptor = StrategyDescriptor(
        name: "dictionary-callbacks",
        summary: "records in a [Int: Record] dictionary; per-record callbacks re-run every view of a record written (an example from Examples/CustomStore)",
        dependency: "none (Examples/CustomStore)",
        capabilities: Capabilities(granularity: .object, deduplicates: false, delivery: .synchronous, transactional: true, coalesces: false)
    )

    /// A record as the store keeps it.
    struct Record {
        var title: String
        var isComplete: Bool
        var priority: Int

        func value(of field: TaskField) -> FieldValue {
            switch field {
            case .title: .title(title)
            case .isComplete: .isComplete(isComplete)
            case .priority: .priority(priority)
            }
        }

        mutating func apply(_ value: FieldValue) {
            switch value {
            case .title(let title): self.title = title
            case .isComplete(let isComplete): self.isComplete = isComplete
            case .priority(let priority): self.priority = priority
            }
        }
    }

    private var records: [Int: Record]
    private let count: Int
    private let center = RecordCenter()
    private var subscriptions: [ObjectIdentifier: (view: ViewHandle, tokens: [RecordCenter.Token])] = [:]

    public init(records: [TaskRecord]) throws {
        self.records = Dictionary(uniqueKeysWithValues: zip(1..., try [Record](validating: records)))
        count = records.count
    }

    private func record(_ id: Int) throws -> Record {
        guard let record = records[id] else { throw StrategyError.unknownRecord(id: id, validRange: count > 0 ? 1...count : nil) }
        return record
    }

    public func read(_ field: TaskField, of id: Int) throws -> FieldValue {
        try record(id).value(of: field)
    }

    public func readInsideView(_ field: TaskField, of id: Int, times: Int) throws -> FieldValue {
        var value = try read(field, of: id)
        for _ in 1..<max(times, 1) { value = try read(field, of: id) }
        return value
    }

    public func write(_ value: FieldValue, to id: Int) throws {
        _ = try record(id)
        records[id]!.apply(value)
        center.post(record: id)
    }

    public func transaction(_ writes: [FieldWrite]) throws {
        for write in writes { _ = try record(write.id) }
        for write in writes { records[write.id]!.apply(write.value) }
        var posted = Set<Int>()
        for write in writes where posted.insert(write.id).inserted { center.post(record: write.id) }
    }

    public func subscribe(_ spec: ViewSpec) throws -> ViewHandle {
        guard !spec.reads.isEmpty else { throw StrategyError.emptyView }
        for ref in spec.reads { _ = try record(ref.id) }
        let view = ViewHandle(spec: spec)
        let run = { [unowned self] in
            view.recordRun { self.records[$0.id]!.value(of: $0.field) }
        }
        _ = run()
        var tokens: [RecordCenter.Token] = []
        for id in Set(spec.reads.map(\.id)).sorted() {
            tokens.append(center.observe(record: id) { _ = run() })
        }
        subscriptions[ObjectIdentifier(view)] = (view, tokens)
        return view
    }

    public func unsubscribe(_ view: ViewHandle) {
        view.cancel()
        guard let subscription = subscriptions.removeValue(forKey: ObjectIdentifier(view)) else { return }
        for token in subscription.tokens { center.remove(token) }
    }

    /// Delivery is synchronous: nothing is ever pending.
    public func settle() async {}

    public func tearDown() async {
        for subscription in subscriptions.values { subscription.view.cancel() }
        subscriptions.removeAll()
        center.removeAll()
        records.removeAll()
    }

    public func objectsThatMustBeFreed() -> [AnyObject] { [center] }
}
