import Dispatch
import GRDB
import ObservationStrategies

/// GRDB's way to derive (``DerivationStyle/sql``), its usual one, then the default (derive in the
/// view body from the fields the view fetched, ``DerivationStyle/viewBody``).
///
/// Under `.sql` each derived view is one `ValueObservation`, started like the strategy's other
/// views (`.async(onQueue:)` on the store's delivery queue), whose fetch computes the view's
/// output in one read transaction:
/// - a node whose ``DerivedNode/shape`` is ``DerivedShape/incompleteMatchingSortedByPriority(ids:queryRecord:)``
///   is ONE SQL query, `SELECT id … WHERE isComplete = 0 AND instr(title, query) > 0 ORDER BY
///   priority, id` (``GRDBDerivedFetch/listSQL``), which SQLite filters and sorts; one evaluation
///   of the node per fetch;
/// - a node without a shape (diamond, chain, fan-out, dynamic) is evaluated in Swift from the
///   fields it may read, fetched by the same observation, as a GRDB user derives a value from a
///   fetched record; one evaluation per node per fetch. A dynamic node's fields are all fetched
///   and tracked, whichever branch it takes.
///
/// The observation's region is the SQL query's own (as GRDB records it: every column it reads of
/// the `task` table) plus each fetched field, so a write to a column the query reads re-runs the
/// query even when the row written is not one it lists (record 1's priority, in
/// `filtered-sorted-unread-field`): SQL derivations are not memoized (`memoizesDerived: false`).
///
/// Duplicates: outputs equal to the one the view shows last are dropped before the view body,
/// as GRDB users commonly do with `.removeDuplicates()`; this decides avoidable re-runs
/// (`skipsUnchangedDerived: true`). The comparison is made in `onChange`, on the delivery queue,
/// rather than by GRDB's `removeDuplicates()` operator, because every fetch also carries the rows'
/// newest version, which settling must see even when the output did not change (a write of the
/// same value moves the version); the view body sees exactly what `removeDuplicates()` would let through.
///
/// Settling: each derived view has a tracker, an ordinary ``ViewHandle`` over every field the view
/// may read, indexed like the strategy's other views, so a write tells it the version to wait
/// for and `settle()` waits until a fetch has seen it. A tracker's failure (the settle timeout)
/// reaches the derived view at its next render pass.
///
/// Matching ``DerivedNode/evaluate``: the Swift node keeps a task when `title.contains(query)`,
/// which is case-sensitive and, with Foundation in the module, false for an empty query. `instr`
/// is case-sensitive too, and the query adds `query <> ''`. `instr` compares code points where
/// Swift compares characters by canonical equivalence: the two differ only on titles mixing
/// precomposed and decomposed accents, which no workload writes.
extension GRDBStrategy {
    nonisolated public static var derivationStyles: [DerivationStyle] { [.sql, .viewBody] }

    public func subscribeDerived(_ view: DerivedViewSpec, style: DerivationStyle) throws -> DerivedViewHandle {
        switch style {
        case .sql: return try subscribeDerivedSQL(view)
        case .viewBody: return try subscribeDerivedInViewBody(view)
        default: throw DerivedError.unsupportedStyle(style, strategy: Self.descriptor.name)
        }
    }

    public func unsubscribeDerived(_ view: DerivedViewHandle) {
        view.cancel()
        if let fieldView = view.fieldView { unsubscribe(fieldView) }
        if let entry = derivedViews.removeValue(forKey: ObjectIdentifier(view)) { unsubscribe(entry.tracker) }
    }

    /// One `ValueObservation` computing the view's output (see the extension's doc comment).
    private func subscribeDerivedSQL(_ spec: DerivedViewSpec) throws -> DerivedViewHandle {
        let fields = spec.allFields
        guard !fields.isEmpty else { throw StrategyError.emptyView }
        let tracker = ViewHandle(spec: ViewSpec(reads: fields), awaitsTrackingStart: true)
        try validateViewSpec(tracker.spec, count: count)
        let handle = DerivedViewHandle(spec: spec)
        let fetch = GRDBDerivedFetch(spec)
        let delivered = self.delivered
        let observation =
            ValueObservation
            .tracking(regions: fetch.regions) { db in try fetch.fetch(in: db, countingOn: handle) }
            .handleEvents(
                willTrackRegion: { _ in
                    tracker.markTrackingStarted()
                    delivered.signal()
                },
                databaseDidChange: { tracker.recordNotification() }
            )
        let cancellable = observation.start(
            in: database,
            scheduling: .async(onQueue: deliveryQueue),
            onError: { error in
                handle.recordFailure("\(error)")
                tracker.recordFailure("\(error)")
                delivered.signal()
            },
            onChange: { fetched in
                // removeDuplicates(): the view body runs only for an output it does not show.
                let shown = handle.snapshot
                if !shown.hasRun || shown.lastOutput != fetched.output { handle.recordRun(fetched.output) }
                tracker.recordRun([], version: fetched.version)
                delivered.signal()
            }
        )
        // Visited in every frame (the view has no render pass: GRDB delivers its runs): a look at
        // the tracker's counts, and its state copied only once it failed.
        handle.setRender { handle in
            guard tracker.runsUnlessFailed == nil, let failure = tracker.snapshot.failure, handle.snapshot.failure == nil else { return }
            handle.recordFailure(failure)
        }
        views[ObjectIdentifier(tracker)] = (tracker, cancellable)
        derivedViews[ObjectIdentifier(handle)] = (handle, tracker)
        readers.add(tracker)
        pending.add(tracker)
        return handle
    }
}

/// What one `.sql` derived view fetches: its output, computed in the caller's read transaction,
/// and the newest version among the rows it read.
struct GRDBDerivedFetch: Sendable {
    /// One fetch's result.
    struct Fetched: Sendable {
        var output: [DerivedValue]
        var version: Int
    }

    /// The SQL of ``DerivedShape/incompleteMatchingSortedByPriority(ids:queryRecord:)``; arguments:
    /// the query record, the first and last id.
    static let listSQL = """
        SELECT t.id FROM task AS t JOIN task AS q ON q.id = ? \
        WHERE t.id BETWEEN ? AND ? AND t.isComplete = 0 AND q.title <> '' AND instr(t.title, q.title) > 0 \
        ORDER BY t.priority, t.id
        """
    /// The newest version among the rows the list query reads; arguments: the first and last id, the query record.
    static let listVersionSQL = "SELECT max(version) FROM task WHERE id BETWEEN ? AND ? OR id = ?"

    let spec: DerivedViewSpec
    /// The nodes to compute, in graph order.
    let closure: [Int]
    /// The fields fetched: those of nodes without a shape, then the view's own, each once.
    let fields: [FieldRef]

    init(_ spec: DerivedViewSpec) {
        self.spec = spec
        closure = spec.graph.closure(of: spec.nodes)
        var seen = Set<FieldRef>()
        let nodeFields = closure.filter { spec.graph.nodes[$0].shape == nil }.flatMap { spec.graph.nodes[$0].reads }
        fields = (nodeFields + spec.fields).filter { seen.insert($0).inserted }
    }

    /// The observation's region: each shaped node's query, and each fetched field.
    var regions: [any DatabaseRegionConvertible] {
        let queries: [any DatabaseRegionConvertible] = closure.compactMap { index in
            guard case .incompleteMatchingSortedByPriority(let ids, let queryRecord) = spec.graph.nodes[index].shape else { return nil }
            return SQLRequest<Int>(sql: Self.listSQL, arguments: [queryRecord, ids.lowerBound, ids.upperBound])
        }
        return queries + fields.map { ref in Table(TaskTable.name).select(Column(ref.field.columnName)).filter(key: ref.id) }
    }

    /// Computes the view's output, counting each node's evaluation on `handle`.
    func fetch(in db: Database, countingOn handle: DerivedViewHandle) throws -> Fetched {
        let fetched = fields.isEmpty ? TaskTable.ViewFetch(values: [], version: 0) : try TaskTable.fetchView(fields, in: db)
        var version = fetched.version
        var reader = FetchedReader(values: Dictionary(zip(fields, fetched.values), uniquingKeysWith: { first, _ in first }))
        for index in closure {
            let node = spec.graph.nodes[index]
            handle.recordEvaluation(ofNode: index)
            switch node.shape {
            case .some(.incompleteMatchingSortedByPriority(let ids, let queryRecord)):
                let listed = try Int.fetchAll(db, sql: Self.listSQL, arguments: [queryRecord, ids.lowerBound, ids.upperBound])
                let newest = try Int.fetchOne(db, sql: Self.listVersionSQL, arguments: [ids.lowerBound, ids.upperBound, queryRecord]) ?? 0
                version = max(version, newest)
                reader.nodes[index] = .ids(listed)
            case nil:
                reader.nodes[index] = node.evaluate(reader)
            }
        }
        let output = spec.nodes.map { reader.nodes[$0] ?? .ids([]) } + spec.fields.map { .field(reader.field($0)) }
        return Fetched(output: output, version: version)
    }
}

/// Reads the fields one fetch returned, and the nodes computed before.
private struct FetchedReader: DerivedReader {
    let values: [FieldRef: FieldValue]
    var nodes: [Int: DerivedValue] = [:]

    func field(_ ref: FieldRef) -> FieldValue {
        guard let value = values[ref] else { preconditionFailure("a derived node read \(ref), which it does not list in its reads") }
        return value
    }

    func node(_ index: Int) -> DerivedValue {
        guard let value = nodes[index] else { preconditionFailure("a derived node read node \(index), which it does not list as an input") }
        return value
    }
}
