import Observation

/// One `@Observable` context (`TaskContext`) whose single `records` property holds every record
/// as a struct; views read through `task(id)` inside `withObservationTracking`, re-armed after each
/// fire, as `observable` does. The granularity is the store's: a write to any field of any record
/// mutates `records`, so it invalidates every view that read through the context, the design
/// notes' warning about putting a whole collection behind one `@Observable` property.
///
/// ```swift
/// let store = try ObservableContextStrategy(records: TaskRecord.sample(count: 3))
/// let view = try store.subscribe(.record(1, .title))
/// try store.write(.priority(9), to: 3)   // another record: the view re-runs anyway
/// ```
@MainActor
public final class ObservableContextStrategy: ObservationStrategy {
    nonisolated public static let descriptor = StrategyDescriptor(
        name: "observable-context",
        summary: "one @Observable context with every record in one collection property; views read task(id) through it",
        dependency: "Observation (Swift toolchain)",
        capabilities: Capabilities(
            granularity: .store, deduplicates: false, delivery: .synchronous, transactional: false, coalesces: false, memoizesDerived: false,
            skipsUnchangedDerived: false)
    )

    /// Computed properties over the context's records, read in the view body, and values cached in
    /// `@Observable` cells (``TrackedDerivations``): either way every read goes through the
    /// context's one `records` property, so any write invalidates every derived view or cell.
    nonisolated public static var derivationStyles: [DerivationStyle] { [.computed, .cached] }

    private var context: TaskContext?
    private let count: Int
    private var views: [ObjectIdentifier: ViewHandle] = [:]
    private let renderQueue = RenderQueue()
    /// Made by the first derived view: a store that derives nothing allocates nothing for it, but
    /// the reference makes the store 16 B larger (41.2 -> 41.216 B per object at N = 1,000).
    private var derivations: TrackedDerivations?

    public init(records: [TaskRecord]) throws {
        try validateRecordIDs(records)
        context = TaskContext(records: records)
        count = records.count
    }

    private var store: TaskContext {
        guard let context else { preconditionFailure("observable-context used after tearDown()") }
        return context
    }

    public func read(_ field: TaskField, of id: Int) throws -> FieldValue {
        store.task(try recordIndex(of: id, count: count) + 1).value(of: field)
    }

    public func readInsideView(_ field: TaskField, of id: Int, times: Int) throws -> FieldValue {
        let context = store
        _ = try recordIndex(of: id, count: count)
        return withObservationTracking {
            var value = context.task(id).value(of: field)
            for _ in 1..<max(times, 1) { value = context.task(id).value(of: field) }
            return value
        } onChange: {
        }
    }

    public func write(_ value: FieldValue, to id: Int) throws {
        store.records[try recordIndex(of: id, count: count)].apply(value)
        render()
    }

    public func transaction(_ writes: [FieldWrite]) throws {
        for write in writes { _ = try recordIndex(of: write.id, count: count) }
        let context = store
        for write in writes { context.records[write.id - 1].apply(write.value) }
        render()
    }

    public func subscribe(_ spec: ViewSpec) throws -> ViewHandle {
        try validateViewSpec(spec, count: count)
        let view = ViewHandle(spec: spec)
        views[ObjectIdentifier(view)] = view
        arm(view)
        return view
    }

    public func unsubscribe(_ view: ViewHandle) {
        view.cancel()
        views[ObjectIdentifier(view)] = nil
    }

    public func settle() async {}

    public func subscribeDerived(_ view: DerivedViewSpec, style: DerivationStyle) throws -> DerivedViewHandle {
        let derivations =
            self.derivations
            ?? TrackedDerivations(records: { [unowned self] in self.count }, readsThroughOneProperty: true) { [unowned self] in
                // Each computed property evaluated (and a view's own fields) reads the context's one
                // `records` property once (tracked), as one reading `context.records` does.
                let records = self.store.records
                return { records[$0.id - 1].value(of: $0.field) }
            }
        self.derivations = derivations
        return try derivations.subscribe(view, style: style, strategy: Self.descriptor.name)
    }

    public func unsubscribeDerived(_ view: DerivedViewHandle) {
        derivations?.unsubscribe(view)
    }

    public func tearDown() async {
        derivations?.tearDown()
        derivations = nil
        for view in views.values { view.cancel() }
        views.removeAll()
        renderQueue.removeAll()
        context = nil
    }

    public func objectsThatMustBeFreed() -> [AnyObject] { context.map { [$0] } ?? [] }

    /// Runs the view body inside a tracking scope whose first change invalidates the view.
    private func arm(_ view: ViewHandle) {
        let context = store
        let renderQueue = self.renderQueue
        _ = withObservationTracking {
            view.recordRun { context.task($0.id).value(of: $0.field) }
        } onChange: {
            renderQueue.invalidate(view)
        }
    }

    /// Re-runs, and so re-arms, every view invalidated by the write that just completed.
    private func render() {
        renderQueue.render { arm($0) }
    }
}
