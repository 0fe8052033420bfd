import Synchronization

#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif

/// `ObservableObject` records with `@Published` fields, as `published` stores them, but each view
/// observes a `DeduplicatedObject` wrapper instead of the records: the records' `objectWillChange`
/// is delayed onto the main queue, turned into a snapshot of the view's slice and deduplicated,
/// so the view re-runs only when a field it read changed, asynchronously (the intermediate fix
/// before a state subject, from the design notes). Writes made in one main-actor job reach the
/// view as one snapshot.
///
/// `settle()` waits until every delayed notification has arrived: each write counts the
/// notifications it caused, each delayed delivery counts one off. A derived view in the usual
/// style (``DerivationStyle/pipeline``) has a wrapper of its own whose snapshot is the values it
/// shows, derived again on each delayed notification and deduplicated the same way.
@MainActor
public final class DeduplicatedObjectStrategy: ObservationStrategy {
    nonisolated public static let descriptor = StrategyDescriptor(
        name: "deduplicated-object",
        summary: "ObservableObject records behind a per-view wrapper: objectWillChange delayed on the main queue, view slice snapshot, removeDuplicates()",
        dependency: "OpenCombine 0.14 + OpenCombineDispatch (Combine on Apple platforms)",
        capabilities: Capabilities(
            granularity: .object, deduplicates: true, delivery: .asynchronous, transactional: false, coalesces: true, memoizesDerived: false,
            skipsUnchangedDerived: true)
    )

    /// The wrapper's pipeline with the derived values as its snapshot (the usual way: the view
    /// re-runs only when what it shows changed, the values derived again on every delayed
    /// notification of a record they read), and the wrapper over the fields with the values
    /// derived in the view body, as a computed property re-read on the wrapper's `objectWillChange`.
    nonisolated public static var derivationStyles: [DerivationStyle] { [.pipeline, .viewBody] }

    private var tasks: [PublishedTask]
    private var subscriptions: [ObjectIdentifier: Subscription] = [:]
    /// Delayed notifications scheduled and not yet delivered, over every live view.
    private let inFlight = InFlight()
    private let delivered = DeliverySignal()

    public init(records: [TaskRecord]) throws {
        try validateRecordIDs(records)
        tasks = records.map(PublishedTask.init)
    }

    public func read(_ field: TaskField, of id: Int) throws -> FieldValue {
        tasks[try recordIndex(of: id, count: tasks.count)].value(of: field)
    }

    /// A view body reads `@Published` fields through their ordinary getters: there is no tracking.
    public func readInsideView(_ field: TaskField, of id: Int, times: Int) throws -> FieldValue {
        let task = tasks[try recordIndex(of: id, count: tasks.count)]
        var value = task.value(of: field)
        for _ in 1..<max(times, 1) { value = task.value(of: field) }
        return value
    }

    public func write(_ value: FieldValue, to id: Int) throws {
        tasks[try recordIndex(of: id, count: tasks.count)].apply(value)
    }

    public func transaction(_ writes: [FieldWrite]) throws {
        for write in writes { _ = try recordIndex(of: write.id, count: tasks.count) }
        for write in writes { tasks[write.id - 1].apply(write.value) }
    }

    public func subscribe(_ spec: ViewSpec) throws -> ViewHandle {
        try validateViewSpec(spec, count: tasks.count)
        let view = ViewHandle(spec: spec)
        let tasks = self.tasks
        let reads = spec.reads
        let (wrapper, sources, pending) = wrap(records: reads.map(\.id)) { reads.map { tasks[$0.id - 1].value(of: $0.field) } }
        // The view observes the wrapper, as a SwiftUI view would observe it as its object.
        let cancellable = wrapper.objectWillChange.sink { _ in
            guard view.recordNotification() else { return }
            view.recordRun { tasks[$0.id - 1].value(of: $0.field) }
        }
        subscriptions[ObjectIdentifier(view)] = Subscription(view: view, wrapper: wrapper, cancellables: sources + [cancellable], pending: pending)
        view.recordRun { tasks[$0.id - 1].value(of: $0.field) }
        return view
    }

    public func unsubscribe(_ view: ViewHandle) {
        view.cancel()
        subscriptions.removeValue(forKey: ObjectIdentifier(view))?.cancel(countingOffFrom: inFlight)
    }

    public func subscribeDerived(_ view: DerivedViewSpec, style: DerivationStyle) throws -> DerivedViewHandle {
        switch style {
        case .viewBody: return try subscribeDerivedInViewBody(view)
        case .pipeline:
            let fields = view.allFields
            guard !fields.isEmpty else { throw StrategyError.emptyView }
            for ref in fields { _ = try recordIndex(of: ref.id, count: tasks.count) }
            let handle = DerivedViewHandle(spec: view)
            let tasks = self.tasks
            let shown = LastOutput()
            // The snapshot is what the view shows: every node it reads evaluated (counted), then its fields.
            let (wrapper, sources, pending) = wrap(records: fields.map(\.id)) {
                shown.value = view.output(countingOn: handle) { tasks[$0.id - 1].value(of: $0.field) }
                return shown.value
            }
            // The wrapper says the snapshot changed right after computing it: the view shows it.
            let cancellable = wrapper.objectWillChange.sink { _ in handle.recordRun(shown.value) }
            subscriptions[ObjectIdentifier(handle)] = Subscription(view: handle, wrapper: wrapper, cancellables: sources + [cancellable], pending: pending)
            handle.recordRun(shown.value)
            return handle
        default: throw DerivedError.unsupportedStyle(style, strategy: Self.descriptor.name)
        }
    }

    public func unsubscribeDerived(_ view: DerivedViewHandle) {
        view.cancel()
        if let fieldView = view.fieldView { unsubscribe(fieldView) }
        subscriptions.removeValue(forKey: ObjectIdentifier(view))?.cancel(countingOffFrom: inFlight)
    }

    /// A wrapper over the records `ids` (each once) whose snapshot is `snapshot`, the records'
    /// subscriptions that feed it, and its notifications in flight: each real notification is
    /// counted before the delay, and the wrapper counts it off on arrival.
    private func wrap<Snapshot: Equatable>(
        records ids: [Int], snapshot: @escaping () -> Snapshot
    ) -> (wrapper: DeduplicatedObject<Snapshot>, sources: [AnyCancellable], pending: InFlight) {
        let delivered = self.delivered
        var seen = Set<Int>()
        let objects = ids.compactMap { seen.insert($0).inserted ? tasks[$0 - 1] : nil }
        let inFlight = self.inFlight
        let pending = InFlight()
        let willChange = PassthroughSubject<Void, Never>()
        let sources = objects.map { object in
            object.objectWillChange.sink { _ in
                pending.add(1)
                inFlight.add(1)
                willChange.send(())
            }
        }
        let wrapper = DeduplicatedObject(
            willChange: willChange.eraseToAnyPublisher(), snapshot: snapshot,
            received: {
                if pending.take(1) { inFlight.take(1) }
                delivered.signal()
            })
        return (wrapper, sources, pending)
    }

    public func settle() async {
        await delivered.waitUntil { self.inFlight.count == 0 }
    }

    public func tearDown() async {
        for entry in subscriptions.values { entry.cancel(countingOffFrom: inFlight) }
        subscriptions.removeAll()
        tasks.removeAll()
    }

    public func objectsThatMustBeFreed() -> [AnyObject] { tasks }

    /// One view's wrapper and subscriptions, and its notifications still in flight. The view is a
    /// field view's ``ViewHandle`` or a derived view's ``DerivedViewHandle``, kept by a reference
    /// alone as the wrapper is: a view costs the store what it cost before derived views.
    private struct Subscription {
        var view: AnyObject
        var wrapper: ForwardingWrapper
        var cancellables: [AnyCancellable]
        var pending: InFlight

        /// Stops the view; its notifications still in flight will never arrive, so they are
        /// counted off the store's total.
        func cancel(countingOffFrom total: InFlight) {
            if let view = view as? ViewHandle { view.cancel() } else if let view = view as? DerivedViewHandle { view.cancel() }
            wrapper.cancel()
            cancellables.forEach { $0.cancel() }
            total.take(pending.takeAll())
        }
    }
}

/// The output a derived view's snapshot computed last. The snapshot and the view's sink run on
/// the main queue, the sink right after the snapshot that differed from the one before, so the
/// last output is the one the wrapper let through.
private final class LastOutput {
    var value: [DerivedValue] = []
}

/// A count of delayed notifications not yet delivered.
final class InFlight: Sendable {
    private let value = Atomic<Int>(0)

    var count: Int { value.load(ordering: .acquiring) }

    func add(_ amount: Int) {
        value.add(amount, ordering: .acquiringAndReleasing)
    }

    /// Takes `amount` off if that much is left; returns whether it did.
    @discardableResult
    func take(_ amount: Int) -> Bool {
        var current = value.load(ordering: .acquiring)
        while current >= amount {
            let (exchanged, original) = value.compareExchange(expected: current, desired: current - amount, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Takes everything off; returns how much there was.
    func takeAll() -> Int {
        value.exchange(0, ordering: .acquiringAndReleasing)
    }
}
