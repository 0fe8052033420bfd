import ObservationStrategies

/// What a `HandWrittenStore` gets wrong, if anything.
protocol StoreFlaw {
    /// Its name and summary.
    static var name: String { get }
    /// Deduplicates a view's re-run on the first field it read alone (a `skipRepeats` comparing
    /// `$0.0 == $1.0` of a tuple of selections), so a change to another field it read is missed.
    static var dedupesOnFirstFieldOnly: Bool { get }
    /// Runs the views of a write before it applies the write, so they read the old value.
    static var notifiesBeforeStoring: Bool { get }
}

/// Nothing wrong.
enum NoFlaw: StoreFlaw {
    static let name = "hand-written"
    static let dedupesOnFirstFieldOnly = false
    static let notifiesBeforeStoring = false
}

/// Compares the first field a view read, not all.
enum FirstFieldDedupe: StoreFlaw {
    static let name = "first-field-dedupe"
    static let dedupesOnFirstFieldOnly = true
    static let notifiesBeforeStoring = false
}

/// Notifies, then stores.
enum NotifyFirst: StoreFlaw {
    static let name = "notify-before-store"
    static let dedupesOnFirstFieldOnly = false
    static let notifiesBeforeStoring = true
}

/// A store written as a newcomer writes one, from scratch: records in an array, each view re-run
/// synchronously when a write touches a record it read, and skipped when what it read is
/// unchanged (it declares property granularity with deduplication). `Flaw` decides what it gets
/// wrong: the kit must catch each flaw with the failure that names it.
@MainActor
final class HandWrittenStore<Flaw: StoreFlaw>: ObservationStrategy {
    nonisolated static var descriptor: StrategyDescriptor {
        StrategyDescriptor(
            name: Flaw.name, summary: "a hand-written deduplicating store (\(Flaw.name))", dependency: "none",
            capabilities: Capabilities(granularity: .property, deduplicates: true, delivery: .synchronous, transactional: true, coalesces: false))
    }

    private var records: [TaskRecord]
    private var views: [ObjectIdentifier: ViewHandle] = [:]

    init(records: [TaskRecord]) throws { self.records = records }

    private func index(_ id: Int) throws -> Int {
        guard records.indices.contains(id - 1) else { throw StrategyError.unknownRecord(id: id, validRange: records.isEmpty ? nil : 1...records.count) }
        return id - 1
    }

    func read(_ field: TaskField, of id: Int) throws -> FieldValue { records[try index(id)].value(of: field) }

    func readInsideView(_ field: TaskField, of id: Int, times: Int) throws -> FieldValue { try read(field, of: id) }

    func write(_ value: FieldValue, to id: Int) throws { try transaction([FieldWrite(id, value)]) }

    func transaction(_ writes: [FieldWrite]) throws {
        let indices = try writes.map { try index($0.id) }
        let touched = Set(writes.map(\.id))
        if Flaw.notifiesBeforeStoring { rerun(touching: touched) }
        for (index, write) in zip(indices, writes) { records[index].apply(write.value) }
        if !Flaw.notifiesBeforeStoring { rerun(touching: touched) }
    }

    /// Re-runs each view that read a touched record and whose fields changed (by its flaw's rule).
    private func rerun(touching ids: Set<Int>) {
        for view in views.values where view.spec.reads.contains(where: { ids.contains($0.id) }) {
            let now = view.spec.reads.map { records[$0.id - 1].value(of: $0.field) }
            let last = view.lastSeen
            // A store that runs its views before storing has nothing new to compare: it re-runs
            // each one (and each reads the old value).
            let unchanged = Flaw.notifiesBeforeStoring ? false : Flaw.dedupesOnFirstFieldOnly ? now.first == last.first : now == last
            if !unchanged { view.recordRun(now) }
        }
    }

    func subscribe(_ spec: ViewSpec) throws -> ViewHandle {
        guard !spec.reads.isEmpty else { throw StrategyError.emptyView }
        let values = try spec.reads.map { try read($0.field, of: $0.id) }
        let view = ViewHandle(spec: spec)
        view.recordRun(values)
        views[ObjectIdentifier(view)] = view
        return view
    }

    func unsubscribe(_ view: ViewHandle) {
        view.cancel()
        views[ObjectIdentifier(view)] = nil
    }

    func settle() async {}

    func tearDown() async {
        for view in views.values { view.cancel() }
        views.removeAll()
    }

    func objectsThatMustBeFreed() -> [AnyObject] { [] }
}
