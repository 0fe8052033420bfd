import ObservationStrategies

/// A store of one's own that batches, as many state layers do to spare the UI: a write lands at
/// once, marks the views of its record, and one main-actor task re-runs each marked view once,
/// however many writes came before that task ran. Ten writes before the next main-actor turn are
/// one re-run (it coalesces), and delivery is asynchronous: `settle()` waits for that task.
///
/// A transaction applies every write, then marks; a commit from the background hops to the main
/// actor and does the same (the protocol's default), so no view sees one half-applied.
///
/// Beside ``DictionaryStore`` (synchronous), it is the store whose figures follow thread timing
/// that `docs/custom-store.md`'s gate recipe and `.ci/run` gate:
///
/// ```swift
/// ObsBench.main(strategies: StrategyRegistry.all + [StrategyEntry(CoalescingStore.self)])
/// ```
@MainActor
public final class CoalescingStore: ObservationStrategy {
    nonisolated public static let descriptor = StrategyDescriptor(
        name: "coalescing-batches",
        summary:
            "records in an array; a write marks its record's views, and one main-actor task re-runs each marked view once per turn (an asynchronous, coalescing example from Examples/CustomStore)",
        dependency: "none (Examples/CustomStore)",
        capabilities: Capabilities(granularity: .object, deduplicates: false, delivery: .asynchronous, transactional: true, coalesces: true)
    )

    /// A subscribed view: its handle, how to re-run it, and the records it reads.
    private struct Subscription {
        var view: ViewHandle
        var run: () -> Void
        var records: Set<Int>
    }

    private var records: [DictionaryStore.Record]
    /// The views reading each record, by record id.
    private var viewsOfRecord: [Int: Set<ObjectIdentifier>] = [:]
    private var subscriptions: [ObjectIdentifier: Subscription] = [:]
    /// Views marked since the last flush, in the order they were marked.
    private var marked: [ObjectIdentifier] = []
    private var markedSet: Set<ObjectIdentifier> = []
    /// The main-actor task that re-runs the marked views; nil when none is pending.
    private var flush: Task<Void, Never>?

    public init(records: [TaskRecord]) throws {
        self.records = try [DictionaryStore.Record](validating: records)
    }

    public func read(_ field: TaskField, of id: Int) throws -> FieldValue {
        try records.value(field, of: id)
    }

    public func readInsideView(_ field: TaskField, of id: Int, times: Int) throws -> FieldValue {
        try records.value(field, of: id, times: times)
    }

    public func write(_ value: FieldValue, to id: Int) throws {
        try records.check(id)
        records[id - 1].apply(value)
        mark(record: id)
    }

    public func transaction(_ writes: [FieldWrite]) throws {
        for write in writes { try records.check(write.id) }
        for write in writes { records[write.id - 1].apply(write.value) }
        for id in Set(writes.map(\.id)) { mark(record: id) }
    }

    /// Marks every view of record `id`, and starts the flush if none is pending.
    private func mark(record id: Int) {
        guard let views = viewsOfRecord[id] else { return }
        for view in views where markedSet.insert(view).inserted { marked.append(view) }
        if flush == nil, !marked.isEmpty {
            flush = Task { [weak self] in self?.flushMarked() }
        }
    }

    /// Re-runs each marked view once.
    private func flushMarked() {
        flush = nil
        let views = marked
        marked.removeAll()
        markedSet.removeAll()
        for view in views { subscriptions[view]?.run() }
    }

    public func subscribe(_ spec: ViewSpec) throws -> ViewHandle {
        guard !spec.reads.isEmpty else { throw StrategyError.emptyView }
        for ref in spec.reads { try records.check(ref.id) }
        let view = ViewHandle(spec: spec)
        let run = { [unowned self] in
            _ = view.recordRun { self.records[$0.id - 1].value(of: $0.field) }
        }
        run()
        let id = ObjectIdentifier(view)
        let reads = Set(spec.reads.map(\.id))
        subscriptions[id] = Subscription(view: view, run: run, records: reads)
        for record in reads { viewsOfRecord[record, default: []].insert(id) }
        return view
    }

    public func unsubscribe(_ view: ViewHandle) {
        view.cancel()
        let id = ObjectIdentifier(view)
        guard let subscription = subscriptions.removeValue(forKey: id) else { return }
        for record in subscription.records { viewsOfRecord[record]?.remove(id) }
        if markedSet.remove(id) != nil { marked.removeAll { $0 == id } }
    }

    /// Waits for the pending flush (and any a flush's views start).
    public func settle() async {
        while let pending = flush { await pending.value }
    }

    public func tearDown() async {
        await settle()
        for subscription in subscriptions.values { subscription.view.cancel() }
        subscriptions.removeAll()
        viewsOfRecord.removeAll()
        records.removeAll()
    }

    /// The store itself: a pending flush holds it weakly, and views do not hold it.
    public func objectsThatMustBeFreed() -> [AnyObject] { [self] }
}
