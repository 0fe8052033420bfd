import Observation

/// The `observations` strategy's derivation (``DerivationStyle/computed``): computed properties over
/// the `@Observable` records, observed the way this strategy observes fields. Each derived view is
/// a main-actor task iterating an `Observations { ... }` sequence whose closure evaluates the view's
/// nodes as computed properties (``ComputedReader``: every node read is evaluated again, and every
/// node it reads) and reads its fields; the sequence tracks exactly the fields that evaluation
/// read (a dynamic dependency, only the branch taken), and its coalescing applies: the writes of
/// one synchronous main-actor span reach the view as one run. `Observations` drops no equal values:
/// a run that shows what the view showed before is counted, as avoidable.
///
/// Settling waits, as for the strategy's field views, until every derived view a write may concern
/// (one whose nodes or fields may read the written field) has run, and its last run saw the
/// current value of each written field it read. Only the written fields need checking: when
/// settling last returned, every view had seen the current value of every field it read, and a
/// view that ran since read the values of that moment.
@MainActor
final class ObservedDerivations {
    /// One derived view: its handle, its task, and what its last run read.
    @MainActor
    private final class ObservedView {
        let handle: DerivedViewHandle
        /// The fields the view's last run read, and the values it saw (set by the view's task).
        var seen: [(ref: FieldRef, value: FieldValue)] = []
        var task: Task<Void, Never>?

        init(handle: DerivedViewHandle) {
            self.handle = handle
        }
    }

    /// One run of a derived view's `Observations` closure: what it shows, and what it read.
    private struct Run: Sendable {
        var output: [DerivedValue]
        var seen: [(ref: FieldRef, value: FieldValue)]
    }

    /// Collects the fields one evaluation reads (local to one run of the closure).
    private final class ReadLog {
        var seen: [(ref: FieldRef, value: FieldValue)] = []
    }

    private var views: [ObjectIdentifier: ObservedView] = [:]
    /// The views whose nodes or fields may read each field (every field they list, whichever
    /// branch they take), so a write finds the views it may concern, not every view.
    private var mayRead: [FieldRef: [ObjectIdentifier]] = [:]
    /// Views settling waits for, in the order they became pending, and for each the written fields
    /// to check (none: it has not run yet). Drained from the newest, as ``PendingViews`` is.
    private var pendingOrder: [ObjectIdentifier] = []
    private var pending: [ObjectIdentifier: [FieldRef]] = [:]
    /// Tasks of unsubscribed views, cancelled but perhaps not finished.
    private var retiring: [Task<Void, Never>] = []
    private let delivered: DeliverySignal

    init(delivered: DeliverySignal) {
        self.delivered = delivered
    }

    /// Whether no derived view is subscribed.
    var isEmpty: Bool { views.isEmpty }

    /// Subscribes `spec` over `tasks` (the store's records, ids 1...N); its first run comes from
    /// the sequence's first value, which settling waits for.
    func subscribe(_ spec: DerivedViewSpec, tasks: [ObservedMainActorTask]) throws -> DerivedViewHandle {
        let fields = spec.allFields
        guard !fields.isEmpty else { throw StrategyError.emptyView }
        for ref in fields { _ = try recordIndex(of: ref.id, count: tasks.count) }
        let handle = DerivedViewHandle(spec: spec)
        let view = ObservedView(handle: handle)
        let observed = Observations { () -> Run in
            let log = ReadLog()
            let reader = ComputedReader(handle: handle) { ref in
                let value = tasks[ref.id - 1].value(of: ref.field)
                log.seen.append((ref, value))
                return value
            }
            return Run(output: reader.output(of: spec), seen: log.seen)
        }
        let delivered = self.delivered
        view.task = Task { @MainActor in
            for await run in observed {
                guard handle.recordRun(run.output) else { break }
                view.seen = run.seen
                delivered.signal()
            }
        }
        let key = ObjectIdentifier(handle)
        views[key] = view
        for ref in fields { mayRead[ref, default: []].append(key) }
        wait(for: key, checking: nil)
        return handle
    }

    func unsubscribe(_ handle: DerivedViewHandle) {
        handle.cancel()
        let key = ObjectIdentifier(handle)
        guard let view = views.removeValue(forKey: key) else { return }
        for ref in handle.spec.allFields {
            mayRead[ref]?.removeAll { $0 == key }
            if mayRead[ref]?.isEmpty == true { mayRead[ref] = nil }
        }
        if let task = view.task {
            task.cancel()
            retiring.append(task)
        }
        view.task = nil
    }

    /// Waits for every view that may read one of `written`.
    func noteWritten(_ written: [FieldRef]) {
        guard !views.isEmpty else { return }
        for ref in written {
            for key in mayRead[ref] ?? [] { wait(for: key, checking: ref) }
        }
    }

    /// Waits for view `key` too (once), checking `ref` (nil: only that it has run).
    private func wait(for key: ObjectIdentifier, checking ref: FieldRef?) {
        if pending[key] == nil { pendingOrder.append(key) }
        pending[key, default: []].append(contentsOf: ref.map { [$0] } ?? [])
    }

    /// Whether every view waited for is caught up: cancelled or unsubscribed, or it has run and
    /// its last run saw `current`'s value of each written field it read. Drops the views that
    /// are, newest first, until one is not (so the checks of one settle, one per delivery, inspect
    /// each view about once in all).
    func isCaughtUp(current: (FieldRef) -> FieldValue) -> Bool {
        while let key = pendingOrder.last {
            if let view = views[key] {
                let state = view.handle.snapshot
                if !state.isCancelled {
                    guard state.hasRun else { return false }
                    for ref in pending[key] ?? [] {
                        guard let seen = view.seen.first(where: { $0.ref == ref }) else { continue }
                        if seen.value != current(ref) { return false }
                    }
                }
            }
            pending[key] = nil
            pendingOrder.removeLast()
        }
        return true
    }

    /// Waits for the tasks of unsubscribed views to finish.
    func finishRetiredTasks() async {
        while !retiring.isEmpty {
            let finishing = retiring
            retiring.removeAll()
            for task in finishing { await task.value }
        }
    }

    /// Cancels every view and waits for its task to finish.
    func tearDown() async {
        let running = views.values
        views.removeAll()
        mayRead.removeAll()
        pendingOrder.removeAll()
        pending.removeAll()
        for view in running {
            view.handle.cancel()
            view.task?.cancel()
        }
        for view in running { await view.task?.value }
        for view in running { view.task = nil }
        await finishRetiredTasks()
    }
}
