#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif

/// The design notes' own store: one `ObservableObject` (``TaskContextData``, their `Context.Data`)
/// with every record in one `@Published` property, every view sinking its one `objectWillChange`,
/// as `@EnvironmentObject` does. Any write re-runs every view, whatever it read: the
/// over-invalidation the notes diagnose. Its counterpart after the migration they weigh is
/// `observable-context` (the same context as one `@Observable` object); `published` is the
/// per-record `ObservableObject`, the whole-object strategy at its best.
///
/// ```swift
/// let store = try PublishedContextStrategy(records: TaskRecord.sample(count: 3))
/// let view = try store.subscribe(.record(1, .title))
/// try store.write(.priority(9), to: 3)   // another record: the view re-runs anyway
/// ```
///
/// As in SwiftUI, a view is invalidated by `objectWillChange` (sent before the value is stored)
/// and re-runs once the write completes. The publisher is fetched once, when the store is made
/// (OpenCombine's getter walks the object with `Mirror`).
@MainActor
public final class PublishedContextStrategy: ObservationStrategy {
    nonisolated public static let descriptor = StrategyDescriptor(
        name: "published-context",
        summary: "one ObservableObject with every record in one @Published property (the design notes' Context.Data); every view sinks its objectWillChange",
        dependency: "OpenCombine 0.14 (Combine on Apple platforms)",
        capabilities: Capabilities(
            granularity: .store, deduplicates: false, delivery: .synchronous, transactional: false, coalesces: false, memoizesDerived: false,
            skipsUnchangedDerived: false)
    )

    /// Computed properties over the context's records read in the view body (the usual way), and
    /// a Combine pipeline, `map` then `removeDuplicates()` (``CombineDerivations``): either way the
    /// view sinks the context's one `objectWillChange`, so any write invalidates every derived view.
    nonisolated public static var derivationStyles: [DerivationStyle] { [.viewBody, .pipeline] }

    private var context: TaskContextData?
    private let willChange: ObservableObjectPublisher
    private let count: Int
    private var subscriptions: [ObjectIdentifier: (view: ViewHandle, cancellable: AnyCancellable)] = [:]
    private let renderQueue = RenderQueue()
    /// Made by the first derived view: a store that derives nothing allocates nothing for it.
    private var derivations: CombineDerivations?

    public init(records: [TaskRecord]) throws {
        try validateRecordIDs(records)
        let context = TaskContextData(records: records)
        self.context = context
        willChange = context.objectWillChange
        count = records.count
    }

    private var store: TaskContextData {
        guard let context else { preconditionFailure("published-context used after tearDown()") }
        return context
    }

    public func read(_ field: TaskField, of id: Int) throws -> FieldValue {
        store.task(try recordIndex(of: id, count: count) + 1).value(of: field)
    }

    /// A view body reads the context's `@Published` property through its ordinary getter: there is
    /// no tracking.
    public func readInsideView(_ field: TaskField, of id: Int, times: Int) throws -> FieldValue {
        let context = store
        _ = try recordIndex(of: id, count: count)
        var value = context.task(id).value(of: field)
        for _ in 1..<max(times, 1) { value = context.task(id).value(of: field) }
        return value
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
        let renderQueue = self.renderQueue
        let cancellable = willChange.sink { _ in renderQueue.invalidate(view) }
        subscriptions[ObjectIdentifier(view)] = (view, cancellable)
        runBody(of: view)
        return view
    }

    public func unsubscribe(_ view: ViewHandle) {
        view.cancel()
        subscriptions.removeValue(forKey: ObjectIdentifier(view))?.cancellable.cancel()
    }

    public func settle() async {}

    public func subscribeDerived(_ view: DerivedViewSpec, style: DerivationStyle) throws -> DerivedViewHandle {
        guard Self.derivationStyles.contains(style) else { throw DerivedError.unsupportedStyle(style, strategy: Self.descriptor.name) }
        let derivations = self.derivations ?? CombineDerivations()
        self.derivations = derivations
        let context = store
        let willChange = self.willChange
        // Each computed property evaluated reads the `@Published` array once, as one reading
        // `context.records` does, then its records' fields.
        return try derivations.subscribe(
            view, style: style, records: count, willChange: { _ in willChange },
            reads: .oneProperty { context.records })
    }

    public func unsubscribeDerived(_ view: DerivedViewHandle) {
        derivations?.unsubscribe(view)
    }

    public func tearDown() async {
        derivations?.tearDown()
        derivations = nil
        for entry in subscriptions.values {
            entry.view.cancel()
            entry.cancellable.cancel()
        }
        subscriptions.removeAll()
        renderQueue.removeAll()
        context = nil
    }

    public func objectsThatMustBeFreed() -> [AnyObject] { context.map { [$0] } ?? [] }

    private func runBody(of view: ViewHandle) {
        let context = store
        view.recordRun { context.task($0.id).value(of: $0.field) }
    }

    /// Re-runs every view invalidated by the write that just completed (every view, for any write).
    private func render() {
        renderQueue.render { [unowned(unsafe) self] in self.runBody(of: $0) }
    }
}
