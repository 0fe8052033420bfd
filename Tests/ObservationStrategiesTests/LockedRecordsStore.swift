import ObservationStrategies

/// How a `LockedRecordsStore` applies a commit from the background.
protocol BackgroundCommitMode {
    static var name: String { get }
    /// Applies `writes` to `records` off the main actor, calling `committed` while the last of
    /// them is still exclusive.
    static func commit(_ writes: [FieldWrite], to records: LockedRecords, committed: @Sendable () -> Void) async
}

/// Every write of a commit under one acquisition of the lock: atomic, as declared.
enum AtomicCommits: BackgroundCommitMode {
    static let name = "locked-atomic"
    static func commit(_ writes: [FieldWrite], to records: LockedRecords, committed: @Sendable () -> Void) async {
        records.state.withLock { records in
            for write in writes { records[write.id - 1].apply(write.value) }
            committed()
        }
    }
}

/// The lock taken once per write, and the task pausing between two, as a store that locks per
/// field (or per record) and does some work between does: a reader can come between two writes of
/// one commit. Not atomic, whatever it declares.
///
/// Between two writes it waits until the store has served a few reads (at most
/// ``pauseLimitMicroseconds``), so that the test of the kit does not hang on the scheduler: with a
/// bare `Task.yield()` the kit caught it in 70 of 70 runs alone, but missed it once in a full
/// `swift test` while two builds ran beside it.
enum PerFieldCommits: BackgroundCommitMode {
    static let name = "locked-per-field"
    /// Reads the store must serve while a commit is half applied before the commit goes on.
    static let readsBetweenWrites = 4
    static let pauseLimitMicroseconds = 5_000

    static func commit(_ writes: [FieldWrite], to records: LockedRecords, committed: @Sendable () -> Void) async {
        for (index, write) in writes.enumerated() {
            let last = index == writes.count - 1
            records.state.withLock { records in
                records[write.id - 1].apply(write.value)
                if last { committed() }
            }
            guard !last else { continue }
            let before = records.reads.withLock { $0 }
            var waited = 0
            while records.reads.withLock({ $0 }) - before < readsBetweenWrites, waited < pauseLimitMicroseconds {
                try? await Task.sleep(for: .microseconds(100))
                waited += 100
            }
        }
    }
}

/// The records of a `LockedRecordsStore`, behind one lock shared by the main actor and the
/// background commits.
final class LockedRecords: Sendable {
    let state: Locked<[TaskRecord]>
    /// Reads served, for `PerFieldCommits` to pause on.
    let reads = Locked(0)

    init(_ records: [TaskRecord]) { state = Locked(records) }
}

/// A store whose records sit behind a lock, so that background tasks commit to them directly,
/// off the main actor (as a store over a database or a sync engine's cache does), and whose views
/// are re-run on the main actor: at once after a write or transaction there, after a hop once a
/// background commit is applied. Every view re-runs on every change (store granularity), reading
/// all its fields under one acquisition of the lock. It declares transactions; whether its
/// background commit keeps them is `Mode`'s: `AtomicCommits` does, `PerFieldCommits` does not.
/// Main-actor transactions are atomic in both (one acquisition of the lock), which is why rules 5,
/// 5b and 5e pass both.
@MainActor
final class LockedRecordsStore<Mode: BackgroundCommitMode>: ObservationStrategy {
    nonisolated static var descriptor: StrategyDescriptor {
        StrategyDescriptor(
            name: Mode.name, summary: "records behind a lock, committed to from background tasks (\(Mode.name), a test store)", dependency: "none",
            capabilities: Capabilities(granularity: .store, deduplicates: false, delivery: .synchronous, transactional: true, coalesces: false))
    }

    private nonisolated let records: LockedRecords
    private nonisolated let count: Int
    private var views: [ViewHandle] = []

    init(records: [TaskRecord]) throws {
        for (index, record) in records.enumerated() where record.id != index + 1 {
            throw StrategyError.storeFailure("records must have ids 1...N in order")
        }
        self.records = LockedRecords(records)
        count = records.count
    }

    private nonisolated func check(_ id: Int) throws {
        guard id >= 1, id <= count else { throw StrategyError.unknownRecord(id: id, validRange: count > 0 ? 1...count : nil) }
    }

    func read(_ field: TaskField, of id: Int) throws -> FieldValue {
        try check(id)
        records.reads.withLock { $0 += 1 }
        return records.state.withLock { $0[id - 1].value(of: field) }
    }

    func readInsideView(_ field: TaskField, of id: Int, times: Int) throws -> FieldValue {
        var value = try read(field, of: id)
        for _ in 1..<max(times, 1) { value = try read(field, of: id) }
        return value
    }

    func write(_ value: FieldValue, to id: Int) throws {
        try transaction([FieldWrite(id, value)])
    }

    func transaction(_ writes: [FieldWrite]) throws {
        for write in writes { try check(write.id) }
        records.state.withLock { records in
            for write in writes { records[write.id - 1].apply(write.value) }
        }
        rerunViews()
    }

    nonisolated func commitFromBackground(_ writes: [FieldWrite], committed: @escaping @Sendable () -> Void) async throws {
        for write in writes { try check(write.id) }
        await Mode.commit(writes, to: records, committed: committed)
        await rerunViews()
    }

    /// Re-runs every view, each reading its fields under one acquisition of the lock.
    private func rerunViews() {
        for view in views { run(view) }
    }

    private func run(_ view: ViewHandle) {
        let values = records.state.withLock { records in view.spec.reads.map { records[$0.id - 1].value(of: $0.field) } }
        view.recordRun(values)
    }

    func subscribe(_ spec: ViewSpec) throws -> ViewHandle {
        guard !spec.reads.isEmpty else { throw StrategyError.emptyView }
        for ref in spec.reads { try check(ref.id) }
        let view = ViewHandle(spec: spec)
        run(view)
        views.append(view)
        return view
    }

    func unsubscribe(_ view: ViewHandle) {
        view.cancel()
        views.removeAll { $0 === view }
    }

    /// Every re-run has happened when the call that caused it returned.
    func settle() async {}

    func tearDown() async {
        for view in views { view.cancel() }
        views.removeAll()
    }

    func objectsThatMustBeFreed() -> [AnyObject] { [records] }
}
