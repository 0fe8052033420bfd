import Dispatch
import Foundation
import GRDB
import ObservationStrategies

/// Records in SQLite through GRDB; each view is a `ValueObservation` that re-fetches the fields it
/// reads in one read transaction after every commit that touches its region (the columns it reads
/// of the rows it reads). Two variants: `grdb-queue` and `grdb-pool`.
///
/// Scheduling: views are started with `.async(onQueue:)` on a serial dispatch queue the store owns.
/// GRDB's default (`.mainActor`) needs the main queue drained, which on Linux happens only while the
/// main thread sits in `dispatchMain()` or a run loop; a queue of our own delivers in any process,
/// and `settle()` waits on that queue's deliveries without occupying the main actor.
///
/// Settling: every write transaction stamps the rows it changes with a new `version`, and the
/// store, which knows which views read which fields, tells each view that reads a written field the
/// version it must see. Each fetch reads the rows' versions in the same snapshot as their fields,
/// so a view has caught up once it has seen that version, and `settle()` waits for that. The
/// `version` column is outside every view's region, so it triggers nothing by itself. GRDB's
/// `databaseDidChange` (called at commit for the observations the commit may concern) is counted
/// as the view's notification; it does not decide what to wait for, because while many
/// observations start at once a `DatabasePool` can announce a change to a view whose rows did not
/// change, and waiting for a version such a view will never see would never end.
///
/// Redundant fetches: a `DatabasePool` merges changes that arrive during a fetch into one more
/// fetch, which can find the snapshot the view already saw; and over a SQLite built without
/// `SQLITE_ENABLE_SNAPSHOT` (Debian's, for one) it re-fetches the initial value once tracking
/// starts, because it cannot tell whether anything changed meanwhile. Views apply
/// `removeDuplicates()` to (values, row versions), so a fetch of an identical snapshot is dropped
/// and only fetches that saw a new commit re-run the view. A commit that writes a field's
/// current value again still re-runs it: the rows' versions moved.
///
/// Derived values: a SQL query under `ValueObservation` (`GRDBDerivations.swift`).
@MainActor
public final class GRDBStrategy<Kind: GRDBStoreKind>: ObservationStrategy {
    nonisolated public static var descriptor: StrategyDescriptor { Kind.descriptor }

    let database: Kind.Writer
    private let temporaryDirectory: URL?
    let count: Int
    private let version = VersionClock()
    let delivered = DeliverySignal()
    let deliveryQueue = DispatchQueue(label: "obsbench.grdb.views")
    var views: [ObjectIdentifier: (view: ViewHandle, cancellable: AnyDatabaseCancellable)] = [:]
    /// The views reading each field, so a write tells exactly those views what to wait for.
    var readers = ReadersIndex()
    /// Views settling waits for: those just subscribed and those a commit concerned.
    let pending = PendingViews()
    /// The `.sql` derived views and the tracker that settles each (`GRDBDerivations.swift`).
    var derivedViews: [ObjectIdentifier: (view: DerivedViewHandle, tracker: ViewHandle)] = [:]

    public init(records: [TaskRecord]) throws {
        try validateRecordIDs(records)
        count = records.count
        do {
            (database, temporaryDirectory) = try Kind.open()
            try database.write { db in
                try TaskTable.create(in: db)
                try TaskTable.insert(records, in: db)
            }
        } catch let error as StrategyError {
            throw error
        } catch {
            throw StrategyError.storeFailure("\(Kind.descriptor.name): \(error)")
        }
    }

    public func read(_ field: TaskField, of id: Int) throws -> FieldValue {
        _ = try recordIndex(of: id, count: count)
        return try Self.storeCall { try database.read { db in try TaskTable.fetch(field, of: id, in: db) } }
    }

    /// One query in one read transaction, its rows walked with a cursor.
    public func readEach(_ field: TaskField, of ids: ClosedRange<Int>, _ body: (FieldValue) -> Void) throws {
        _ = try recordIndex(of: ids.lowerBound, count: count)
        _ = try recordIndex(of: ids.upperBound, count: count)
        try Self.storeCall {
            try database.read { db in
                let statement = try db.cachedStatement(sql: "SELECT \(field.columnName) FROM task WHERE id BETWEEN ? AND ? ORDER BY id")
                let values = try DatabaseValue.fetchCursor(statement, arguments: [ids.lowerBound, ids.upperBound])
                while let value = try values.next() { body(try TaskTable.fieldValue(field, from: value)) }
            }
        }
    }

    /// A view body's reads are fetches inside one read transaction.
    public func readInsideView(_ field: TaskField, of id: Int, times: Int) throws -> FieldValue {
        _ = try recordIndex(of: id, count: count)
        return try Self.storeCall {
            try database.read { db in
                var value = try TaskTable.fetch(field, of: id, in: db)
                for _ in 1..<max(times, 1) { value = try TaskTable.fetch(field, of: id, in: db) }
                return value
            }
        }
    }

    public func write(_ value: FieldValue, to id: Int) throws {
        try transaction([FieldWrite(id, value)])
    }

    public func transaction(_ writes: [FieldWrite]) throws {
        for write in writes { _ = try recordIndex(of: write.id, count: count) }
        let stamp = try Self.storeCall { try database.write { db in try Self.apply(writes, stampedBy: version, in: db) } }
        markReaders(of: writes, version: stamp)
    }

    /// Commits from the caller's thread, as an app's sync engine writes to its database: GRDB
    /// serialises the writers, and `committed` runs inside the write, so no other commit comes
    /// between. Only then does the store (on the main actor) tell the views what to wait for.
    public nonisolated func commitFromBackground(_ writes: [FieldWrite], committed: @escaping @Sendable () -> Void) async throws {
        for write in writes { _ = try recordIndex(of: write.id, count: count) }
        let version = self.version
        let stamp = try await Self.asyncStoreCall {
            try await database.write { db in
                let stamp = try Self.apply(writes, stampedBy: version, in: db)
                committed()
                return stamp
            }
        }
        await markReaders(of: writes, version: stamp)
    }

    /// Applies `writes` inside a write transaction, stamping their rows with the next version,
    /// taken inside the transaction so versions follow commit order; returns it.
    private nonisolated static func apply(_ writes: [FieldWrite], stampedBy version: VersionClock, in db: Database) throws -> Int {
        let stamp = version.advance()
        for write in writes {
            let column = write.value.field.columnName
            let update = try db.cachedStatement(sql: "UPDATE task SET \(column) = ?, version = ? WHERE id = ?")
            try update.execute(arguments: [TaskTable.databaseValue(write.value), stamp, write.id])
        }
        return stamp
    }

    /// Tells each view reading a written field the version it must see, and settling to wait for
    /// it: work in proportion to those views. Only a committed write gives views a version to wait for.
    private func markReaders(of writes: [FieldWrite], version stamp: Int) {
        for write in writes {
            for view in readers.views(reading: FieldRef(write.id, write.value.field)) {
                view.requireVersion(stamp)
                pending.add(view)
            }
        }
    }

    public func subscribe(_ spec: ViewSpec) throws -> ViewHandle {
        try validateViewSpec(spec, count: count)
        let view = ViewHandle(spec: spec, awaitsTrackingStart: true)
        let reads = spec.reads
        let regions: [any DatabaseRegionConvertible] = reads.map { ref in
            Table(TaskTable.name).select(Column(ref.field.columnName)).filter(key: ref.id)
        }
        let delivered = self.delivered
        let observation =
            ValueObservation
            .tracking(regions: regions) { db in try TaskTable.fetchView(reads, in: db) }
            .removeDuplicates()
            .handleEvents(
                willTrackRegion: { _ in
                    view.markTrackingStarted()
                    delivered.signal()
                },
                databaseDidChange: { view.recordNotification() }
            )
        let cancellable = observation.start(
            in: database,
            scheduling: .async(onQueue: deliveryQueue),
            onError: { error in
                view.recordFailure("\(error)")
                delivered.signal()
            },
            onChange: { fetched in
                view.recordRun(fetched.values, version: fetched.version)
                delivered.signal()
            }
        )
        views[ObjectIdentifier(view)] = (view, cancellable)
        readers.add(view)
        pending.add(view)
        return view
    }

    public func unsubscribe(_ view: ViewHandle) {
        view.cancel()
        views.removeValue(forKey: ObjectIdentifier(view))?.cancellable.cancel()
        readers.remove(view)
    }

    /// How long `settle()` waits without any delivery before it gives up on the views not caught up.
    static var deliveryTimeoutSeconds: Double { 10 }

    public func settle() async {
        let settled = await delivered.waitUntil(timeoutSeconds: Self.deliveryTimeoutSeconds) {
            self.pending.drain(whereCaughtUp: \.isCaughtUp)
        }
        guard !settled else { return }
        // A view GRDB announced a change to never received the re-fetch: end it with a visible
        // failure (workloads and tests report it) rather than waiting forever.
        for entry in views.values where !entry.view.isCaughtUp {
            let state = entry.view.snapshot
            entry.view.recordFailure(
                "GRDB delivered nothing for \(Int(Self.deliveryTimeoutSeconds)) s while this view waited (needs data version \(state.neededVersion), has seen \(state.seenVersion), tracking started: \(state.trackingStarted), first run: \(state.hasRun))"
            )
            entry.cancellable.cancel()
        }
        _ = pending.drain(whereCaughtUp: \.isCaughtUp)
    }

    public func tearDown() async {
        for entry in views.values {
            entry.view.cancel()
            entry.cancellable.cancel()
        }
        views.removeAll()
        for entry in derivedViews.values { entry.view.cancel() }
        derivedViews.removeAll()
        readers.removeAll()
        pending.removeAll()
        // Let deliveries already queued drain before the database closes.
        await withCheckedContinuation { continuation in deliveryQueue.async { continuation.resume() } }
        try? Kind.close(database)
        if let temporaryDirectory { try? FileManager.default.removeItem(at: temporaryDirectory) }
    }

    public func objectsThatMustBeFreed() -> [AnyObject] { [database] }

    /// Runs a database call, turning GRDB's errors into `StrategyError` and keeping ours as they are.
    private nonisolated static func storeCall<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch { throw storeError(error) }
    }

    /// `storeCall` for an asynchronous database call.
    private nonisolated static func asyncStoreCall<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch { throw storeError(error) }
    }

    /// Ours as it is; GRDB's as `StrategyError.storeFailure`.
    private nonisolated static func storeError(_ error: any Error) -> any Error {
        error as? StrategyError ?? StrategyError.storeFailure("\(Kind.descriptor.name): \(error)")
    }
}

/// How a `grdb` variant opens and closes its database.
public protocol GRDBStoreKind: SendableMetatype {
    associatedtype Writer: DatabaseWriter
    static var descriptor: StrategyDescriptor { get }
    /// Opens an empty database; returns the temporary directory to remove at teardown, if any.
    static func open() throws -> (Writer, URL?)
    static func close(_ writer: Writer) throws
}

/// `grdb-queue`: an in-memory `DatabaseQueue`; observations fetch on the writer right after each commit.
public enum GRDBQueueKind: GRDBStoreKind {
    public static let descriptor = StrategyDescriptor(
        name: "grdb-queue",
        summary: "GRDB ValueObservation over an in-memory DatabaseQueue; re-fetch after each commit touching the region",
        dependency: "GRDB.swift 7.10 + system SQLite",
        capabilities: Capabilities(
            granularity: .region, deduplicates: false, delivery: .asynchronous, transactional: true, coalesces: false, memoizesDerived: false,
            skipsUnchangedDerived: true)
    )

    public static func open() throws -> (DatabaseQueue, URL?) {
        (try DatabaseQueue(), nil)
    }

    public static func close(_ writer: DatabaseQueue) throws {
        try writer.close()
    }
}

/// `grdb-pool`: a `DatabasePool` over a WAL file in a temporary directory (removed at teardown);
/// observations re-fetch concurrently on a reader and merge fetches that would overlap.
public enum GRDBPoolKind: GRDBStoreKind {
    public static let descriptor = StrategyDescriptor(
        name: "grdb-pool",
        summary: "GRDB ValueObservation over a DatabasePool (WAL file); concurrent re-fetch after each commit touching the region",
        dependency: "GRDB.swift 7.10 + system SQLite",
        capabilities: Capabilities(
            granularity: .region, deduplicates: false, delivery: .asynchronous, transactional: true, coalesces: true, memoizesDerived: false,
            skipsUnchangedDerived: true)
    )

    public static func open() throws -> (DatabasePool, URL?) {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("obsbench-grdb-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            // The writer waits out a brief lock rather than failing at once (GRDB's default,
            // `.immediateError`). In WAL mode SQLite holds an exclusive lock for a moment in a few
            // "obscure cases" (GRDB gives its readers a 10 s timeout for them); under bursts of 100
            // writes with the machine loaded, `BEGIN IMMEDIATE` met one in 1 of 3 quick latency
            // runs here and the round was lost. Without such a lock nothing waits, so no figure moves.
            var configuration = Configuration()
            configuration.busyMode = .timeout(5)
            return (try DatabasePool(path: directory.appendingPathComponent("store.sqlite").path, configuration: configuration), directory)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    public static func close(_ writer: DatabasePool) throws {
        try writer.close()
    }
}

/// The `grdb-queue` strategy.
public typealias GRDBQueueStrategy = GRDBStrategy<GRDBQueueKind>
/// The `grdb-pool` strategy.
public typealias GRDBPoolStrategy = GRDBStrategy<GRDBPoolKind>
