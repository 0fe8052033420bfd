import Observation
import Synchronization

/// Each view is a main-actor task iterating an `Observations { ... }` async sequence (SE-0475).
/// The sequence is transactional on its isolation: all writes made in one synchronous main-actor
/// span reach the view as one value, and writes made before the view task runs are coalesced
/// (intermediate values can be skipped).
///
/// `settle()` waits until every view subscribed or concerned by a write since the last settle has
/// run and last saw the store's current values for every field it reads (the sequence promises the
/// latest value, not every value). Writes only note the field they changed; settling looks up the
/// views reading it, so its bookkeeping grows with the views notified, not with idle views.
/// Derived views are `Observations` sequences too, over computed properties (``ObservedDerivations``),
/// and settling waits for them the same way.
@MainActor
public final class ObservationsStrategy: ObservationStrategy {
    nonisolated public static let descriptor = StrategyDescriptor(
        name: "observations",
        summary: "Observations { } async sequence (SE-0475) per view, on the main actor",
        dependency: "Observation (Swift toolchain)",
        capabilities: Capabilities(
            granularity: .property, deduplicates: false, delivery: .asynchronous, transactional: true, coalesces: true, memoizesDerived: false,
            skipsUnchangedDerived: false)
    )

    /// Computed properties over the records, read in an `Observations` closure (``ObservedDerivations``).
    nonisolated public static var derivationStyles: [DerivationStyle] { [.computed] }

    private var tasks: [ObservedMainActorTask]
    private var views: [ObjectIdentifier: (view: ViewHandle, task: Task<Void, Never>)] = [:]
    /// Tasks of unsubscribed views, cancelled but perhaps not finished: `settle()` waits for them,
    /// so a settled store holds nothing of a view it was told to drop.
    private var retiring: [Task<Void, Never>] = []
    private let delivered = DeliverySignal()
    /// The views reading each field.
    private var readers = ReadersIndex()
    /// Fields written since the last settle while any view exists (capacity kept, so a write
    /// appends without allocating; looked up in `readers` in batches of `writtenBatch`).
    private var written: [FieldRef] = []
    private static let writtenBatch = 1_024
    /// Whether any view is subscribed: read by every write without the exclusivity check a
    /// stored `var` of this class costs (a write with no view then pays one load and a branch).
    private let hasViews = Atomic<Bool>(false)
    /// Views settling waits for.
    let pending = PendingViews()
    /// Made by the first derived view: a store that derives nothing allocates nothing for it.
    private var derivations: ObservedDerivations?

    public init(records: [TaskRecord]) throws {
        try validateRecordIDs(records)
        tasks = records.map(ObservedMainActorTask.init)
    }

    public func read(_ field: TaskField, of id: Int) throws -> FieldValue {
        tasks[try recordIndex(of: id, count: tasks.count)].value(of: field)
    }

    /// `Observations` evaluates its closure inside the same `withObservationTracking` machinery,
    /// so a tracked read costs what it costs there.
    public func readInsideView(_ field: TaskField, of id: Int, times: Int) throws -> FieldValue {
        let task = tasks[try recordIndex(of: id, count: tasks.count)]
        return withObservationTracking {
            var value = task.value(of: field)
            for _ in 1..<max(times, 1) { value = task.value(of: field) }
            return value
        } onChange: {
        }
    }

    public func write(_ value: FieldValue, to id: Int) throws {
        tasks[try recordIndex(of: id, count: tasks.count)].apply(value)
        noteWritten(FieldRef(id, value.field))
    }

    public func transaction(_ writes: [FieldWrite]) throws {
        for write in writes { _ = try recordIndex(of: write.id, count: tasks.count) }
        for write in writes {
            tasks[write.id - 1].apply(write.value)
            noteWritten(FieldRef(write.id, write.value.field))
        }
    }

    public func subscribe(_ spec: ViewSpec) throws -> ViewHandle {
        try validateViewSpec(spec, count: tasks.count)
        let view = ViewHandle(spec: spec)
        let models = spec.reads.map { tasks[$0.id - 1] }
        let fields = spec.reads.map(\.field)
        let delivered = self.delivered
        let observed = Observations {
            zip(models, fields).map { model, field in model.value(of: field) }
        }
        let task = Task { @MainActor in
            for await values in observed {
                // Every value after the first is the sequence telling the view something changed.
                view.recordNotificationAfterFirstRun()
                guard view.recordRun(values) else { break }
                delivered.signal()
            }
        }
        views[ObjectIdentifier(view)] = (view, task)
        readers.add(view)
        hasViews.store(true, ordering: .relaxed)
        pending.add(view)
        return view
    }

    public func unsubscribe(_ view: ViewHandle) {
        view.cancel()
        if let task = views.removeValue(forKey: ObjectIdentifier(view))?.task {
            task.cancel()
            retiring.append(task)
        }
        readers.remove(view)
        hasViews.store(!views.isEmpty || derivations?.isEmpty == false, ordering: .relaxed)
    }

    /// Remembers that `ref` changed, for settling; with no view at all, there is nothing to remember.
    @inline(__always)
    private func noteWritten(_ ref: @autoclosure () -> FieldRef) {
        guard hasViews.load(ordering: .relaxed) else { return }
        written.append(ref())
        if written.count >= Self.writtenBatch { markReadersOfWrittenFields() }
    }

    /// Adds the views reading each written field to `pending`, and the derived views that may read
    /// it to theirs: work in proportion to those views.
    private func markReadersOfWrittenFields() {
        for ref in written {
            for view in readers.views(reading: ref) { pending.add(view) }
        }
        derivations?.noteWritten(written)
        written.removeAll(keepingCapacity: true)
    }

    public func settle() async {
        markReadersOfWrittenFields()
        await delivered.waitUntil {
            self.pending.drain(whereCaughtUp: self.seesCurrentValues)
                && self.derivations?.isCaughtUp(current: { self.tasks[$0.id - 1].value(of: $0.field) }) ?? true
        }
        await finishRetiredTasks()
        await derivations?.finishRetiredTasks()
    }

    public func subscribeDerived(_ view: DerivedViewSpec, style: DerivationStyle) throws -> DerivedViewHandle {
        guard style == .computed else { throw DerivedError.unsupportedStyle(style, strategy: Self.descriptor.name) }
        let derivations = self.derivations ?? ObservedDerivations(delivered: delivered)
        self.derivations = derivations
        let handle = try derivations.subscribe(view, tasks: tasks)
        hasViews.store(true, ordering: .relaxed)
        return handle
    }

    public func unsubscribeDerived(_ view: DerivedViewHandle) {
        derivations?.unsubscribe(view)
        hasViews.store(!views.isEmpty || derivations?.isEmpty == false, ordering: .relaxed)
    }

    private func finishRetiredTasks() async {
        while !retiring.isEmpty {
            let finishing = retiring
            retiring.removeAll()
            for task in finishing { await task.value }
        }
    }

    public func tearDown() async {
        let running = views.values
        views.removeAll()
        hasViews.store(false, ordering: .relaxed)
        readers.removeAll()
        written.removeAll()
        pending.removeAll()
        for entry in running {
            entry.view.cancel()
            entry.task.cancel()
        }
        for entry in running { await entry.task.value }
        await finishRetiredTasks()
        await derivations?.tearDown()
        derivations = nil
        tasks.removeAll()
    }

    public func objectsThatMustBeFreed() -> [AnyObject] { tasks }

    /// Whether `view` is cancelled, or has run and last saw the current value of every field it reads.
    private func seesCurrentValues(_ view: ViewHandle) -> Bool {
        let state = view.snapshot
        if state.isCancelled { return true }
        guard state.hasRun else { return false }
        return state.lastSeen.elementsEqual(view.spec.reads.lazy.map { self.tasks[$0.id - 1].value(of: $0.field) })
    }
}
