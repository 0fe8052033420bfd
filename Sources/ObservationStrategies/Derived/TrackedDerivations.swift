import Observation
import Synchronization

/// The two ways users of `@Observable` records derive values, for a strategy whose views are
/// `withObservationTracking` scopes:
/// - ``DerivationStyle/computed``: a computed property read in the view body. Every read evaluates
///   it again, and the view tracks exactly the fields that evaluation read (a dynamic dependency
///   tracks only the branch taken).
/// - ``DerivationStyle/cached``: each derived value held in an `@Observable` cell of its own
///   (``DerivedCell``), evaluated inside a tracking scope and evaluated again, in graph order, at
///   the next render pass after an input changed; the view tracks the cells it reads. The new
///   value is assigned whether or not it equals the old one, as a plain `cell.value = f(...)`
///   does: whether that re-runs the views reading it is `@Observable`'s behaviour, and measured.
///
/// Invalidation marks a view (or cell) dirty; the render pass (``DerivedViewHandle/catchUp()``,
/// after the store settled) brings cells up to date, then re-runs the views marked dirty, as
/// SwiftUI renders once per frame.
@MainActor
final class TrackedDerivations {
    /// Returns a function reading fields through the store's observable records (tracked when
    /// called inside a tracking scope). Called inside the tracking scope, once per run (or, with
    /// `readsThroughOneProperty`, once per computed property the view reads and once for its own
    /// fields), so the records are the store's current ones.
    private let reader: @MainActor () -> (FieldRef) -> FieldValue
    /// Whether the store's records sit in one property (a context's `records`): then a computed
    /// view gets a reader per computed property it reads (``ComputedReader/append(_:of:readingEachProperty:to:)``), else one per run
    /// (``ComputedReader``: a reader of per-record objects tracks nothing itself).
    private let readsThroughOneProperty: Bool
    private let records: @MainActor () -> Int
    private var cells: [ObjectIdentifier: DerivedCells] = [:]
    private var views: [ObjectIdentifier: DerivedViewHandle] = [:]
    /// The store's render pass: an invalidated view or a dirty cell is queued here, and a frame
    /// renders only those.
    private let renderPass = DerivedRenderPass()

    init(records: @escaping @MainActor () -> Int, readsThroughOneProperty: Bool = false, reader: @escaping @MainActor () -> (FieldRef) -> FieldValue) {
        self.records = records
        self.readsThroughOneProperty = readsThroughOneProperty
        self.reader = reader
    }

    func subscribe(_ spec: DerivedViewSpec, style: DerivationStyle, strategy: String) throws -> DerivedViewHandle {
        let count = records()
        let fields = spec.allFields
        guard !fields.isEmpty else { throw StrategyError.emptyView }
        for ref in fields { _ = try recordIndex(of: ref.id, count: count) }
        let handle = DerivedViewHandle(spec: spec, renderPass: renderPass)
        let reader = self.reader
        switch style {
        case .computed:
            let perProperty = readsThroughOneProperty
            handle.setRender { handle in Self.runComputed(handle, reader: reader, perProperty: perProperty) }
            views[ObjectIdentifier(handle)] = handle
            Self.runComputed(handle, reader: reader, perProperty: perProperty)
        case .cached:
            let graph = spec.graph
            let cells = self.cells[ObjectIdentifier(graph)] ?? DerivedCells(graph: graph, renderPass: renderPass, reader: reader)
            self.cells[ObjectIdentifier(graph)] = cells
            cells.counters.append(handle)
            cells.create(spec.closure)
            handle.setRender { handle in
                cells.refresh()
                Self.runCached(handle, cells: cells, reader: reader)
            }
            views[ObjectIdentifier(handle)] = handle
            Self.runCached(handle, cells: cells, reader: reader)
        default:
            throw DerivedError.unsupportedStyle(style, strategy: strategy)
        }
        return handle
    }

    func unsubscribe(_ handle: DerivedViewHandle) {
        handle.cancel()
        handle.setRender(nil)
        views[ObjectIdentifier(handle)] = nil
    }

    func tearDown() {
        for view in views.values {
            view.cancel()
            view.setRender(nil)
        }
        views.removeAll()
        cells.removeAll()
    }

    /// The view body with computed properties: every node it reads is evaluated, and every node
    /// those read, each time it is read.
    private static func runComputed(_ handle: DerivedViewHandle, reader makeReader: @escaping @MainActor () -> (FieldRef) -> FieldValue, perProperty: Bool) {
        let spec = handle.spec
        withObservationTracking {
            if perProperty {
                _ = handle.recordRun { ComputedReader.append(spec, of: handle, readingEachProperty: makeReader, to: &$0) }
            } else {
                let reader = ComputedReader(handle: handle, read: makeReader())
                _ = handle.recordRun { reader.append(spec, to: &$0) }
            }
        } onChange: {
            handle.invalidate()
        }
    }

    /// The view body with cached values: reads the cells of its nodes and its fields (the store's
    /// records only when it reads a field: a view of cells alone tracks the cells alone).
    private static func runCached(_ handle: DerivedViewHandle, cells: DerivedCells, reader: @MainActor () -> (FieldRef) -> FieldValue) {
        let spec = handle.spec
        let held = cells.cells
        withObservationTracking {
            _ = handle.recordRun { output in
                for index in spec.nodes { output.append(held[index]?.value ?? .ids([])) }
                guard !spec.fields.isEmpty else { return }
                let read = reader()
                for ref in spec.fields { output.append(.field(read(ref))) }
            }
        } onChange: {
            handle.invalidate()
        }
    }
}

/// Evaluates nodes as computed properties: each read evaluates the node again, counted on
/// `handle`. Inside a tracking scope (`withObservationTracking`, an `Observations` closure) the
/// scope tracks exactly the fields those evaluations read through `read`.
///
/// Three words (a view and a closure), so that handing it to a node as `any DerivedReader` fits the
/// existential's inline buffer: no allocation per evaluation.
struct ComputedReader: DerivedReader {
    let handle: DerivedViewHandle
    let read: (FieldRef) -> FieldValue

    func field(_ ref: FieldRef) -> FieldValue { read(ref) }
    func node(_ index: Int) -> DerivedValue {
        handle.recordEvaluation(ofNode: index)
        return handle.spec.graph.nodes[index].evaluate(self)
    }

    /// What a view of `spec` shows: each of its nodes evaluated, then its fields read.
    func output(of spec: DerivedViewSpec) -> [DerivedValue] {
        var output: [DerivedValue] = []
        output.reserveCapacity(spec.nodes.count + spec.fields.count)
        append(spec, to: &output)
        return output
    }

    /// Appends what a view of `spec` shows to `output` (the view's own buffer,
    /// ``DerivedViewHandle/recordRun(filling:)``).
    func append(_ spec: DerivedViewSpec, to output: inout [DerivedValue]) {
        for index in spec.nodes { output.append(node(index)) }
        for ref in spec.fields { output.append(.field(read(ref))) }
    }

    /// What a view of `spec` shows, over a store read through one property (a context's
    /// `records`), appended to `output`: each of the view's nodes evaluated through a reader made
    /// for it (`makeReader()` reads that property once), as each computed property a view body
    /// reads reads `context.records` again (a node it reads through shares its reader: in the
    /// diamond, `double` and `triple` read `source`, two reads of the property, as an app's), then
    /// its own fields through one more.
    static func append(
        _ spec: DerivedViewSpec, of handle: DerivedViewHandle, readingEachProperty makeReader: () -> (FieldRef) -> FieldValue, to output: inout [DerivedValue]
    ) {
        for index in spec.nodes { output.append(ComputedReader(handle: handle, read: makeReader()).node(index)) }
        guard !spec.fields.isEmpty else { return }
        let read = makeReader()
        for ref in spec.fields { output.append(.field(read(ref))) }
    }
}

/// One cached derived value, observable as any `@Observable` property.
@Observable
final class DerivedCell {
    var value: DerivedValue

    init(_ value: DerivedValue) {
        self.value = value
    }
}

/// The cells of one graph in one store, shared by every view that reads it. A cell marked dirty
/// queues the cells on the store's render pass, so that a frame brings them up to date (and so
/// invalidates the views reading a cell whose value was assigned) even when no view was invalidated.
@MainActor
final class DerivedCells: DerivedRenderable {
    let graph: DerivedSpec
    private(set) var cells: [Int: DerivedCell] = [:]
    /// Cells whose inputs changed since they were evaluated (marked from a tracking callback).
    private let dirty = Locked(Set<Int>())
    private let renderPass: DerivedRenderPass
    /// Makes what reads record fields of the store (tracked inside a tracking scope): called once
    /// per evaluation, inside its scope (``TrackedDerivations``'s reader).
    private let reader: @MainActor () -> (FieldRef) -> FieldValue
    /// The views of this graph; a cell's evaluation is counted on the first still subscribed
    /// (the harness sums every view's counts).
    var counters: [DerivedViewHandle] = []

    init(graph: DerivedSpec, renderPass: DerivedRenderPass, reader: @escaping @MainActor () -> (FieldRef) -> FieldValue) {
        self.graph = graph
        self.renderPass = renderPass
        self.reader = reader
    }

    /// Marks cell `index` for evaluation at the next refresh (from a tracking callback, any
    /// thread), queuing the cells on the render pass if nothing was dirty.
    nonisolated func markDirty(_ index: Int) {
        let first = dirty.withLock { dirty in
            defer { dirty.insert(index) }
            return dirty.isEmpty
        }
        if first { renderPass.enqueue(self) }
    }

    /// Creates the cells of `closure` (a view's nodes and what they read, in graph order) that do
    /// not exist yet, inputs first, each evaluated once.
    func create(_ closure: [Int]) {
        for index in closure where cells[index] == nil {
            cells[index] = DerivedCell(evaluate(index))
        }
    }

    /// The render pass's call: ``refresh()``.
    func render() { refresh() }

    /// Evaluates again, in graph order, every cell an input of which changed, assigning its new
    /// value (which marks the cells and views reading it); cells that become dirty while this runs
    /// are evaluated in the same pass.
    func refresh() {
        while let index = dirty.withLock({ dirty in dirty.min().map { dirty.remove($0)! } }) {
            guard let cell = cells[index] else { continue }
            cell.value = evaluate(index)
        }
    }

    private func evaluate(_ index: Int) -> DerivedValue {
        counters.first { !$0.isCancelled }?.recordEvaluation(ofNode: index)
        let node = graph.nodes[index]
        let cells = self.cells
        let makeReader = self.reader
        return withObservationTracking {
            node.evaluate(CellReader(cells: cells, read: makeReader()))
        } onChange: { [weak self] in
            self?.markDirty(index)
        }
    }
}

/// Reads fields, and earlier nodes from their cells (tracked).
private struct CellReader: DerivedReader {
    let cells: [Int: DerivedCell]
    let read: (FieldRef) -> FieldValue

    func field(_ ref: FieldRef) -> FieldValue { read(ref) }
    func node(_ index: Int) -> DerivedValue {
        guard let cell = cells[index] else { preconditionFailure("derived node \(index) has no cell: it is not an input of the node read") }
        return cell.value
    }
}
