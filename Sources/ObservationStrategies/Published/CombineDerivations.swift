#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif

/// The two ways users of `ObservableObject` records derive values, for a strategy whose views sink
/// `objectWillChange`. Either way a view sinks the `objectWillChange` of every object it may read
/// (each publisher once), which invalidates it; the store's render pass (after the write, as
/// SwiftUI renders once per frame) re-runs only the views invalidated:
/// - ``DerivationStyle/viewBody``: the view body reads computed properties over the records
///   (``ComputedReader``): each node it reads is evaluated on each run, reading the records'
///   fields as it goes (a filter that skips a completed task reads none of its other fields).
/// - ``DerivationStyle/pipeline``: the view's derived values come out of a pipeline, `map`
///   (evaluate every node the view reads) then `removeDuplicates()`, whose sink is the view body.
///   The render pass pulls the pipeline (the value is stored by then), so the view re-runs only
///   when what it shows changed; the map runs on every such pull.
@MainActor
final class CombineDerivations {
    private var views: [ObjectIdentifier: (view: DerivedViewHandle, pull: PassthroughSubject<Void, Never>?, cancellables: [AnyCancellable])] = [:]
    /// The store's render pass for these views.
    private let renderPass = DerivedRenderPass()
    /// How a view run reads the store's records: the latest subscription's.
    private var reads = Reads.fields { preconditionFailure("no derived view subscribed: \($0) read") }

    /// How a view's run reads the store's records.
    enum Reads {
        /// Each field is a property of its own (an `ObservableObject` per record): one function
        /// for every read (``ComputedReader``).
        case fields((FieldRef) -> FieldValue)
        /// Through one `@Published` property holding every record: a reader made for each
        /// computed property the view reads and one for its own fields
        /// (``ComputedReader/append(_:of:readingEachProperty:to:)``), as each reads
        /// `context.records` again.
        case oneProperty(() -> (FieldRef) -> FieldValue)

        /// A reader for one whole run (the pipeline's `map`, which reads the store once).
        func reader() -> (FieldRef) -> FieldValue {
            switch self {
            case .fields(let read): read
            case .oneProperty(let make): make()
            }
        }
    }

    /// Subscribes `spec`, derived the `style` way (`.viewBody` or `.pipeline`): `willChange(id)` is
    /// the `objectWillChange` of the object holding record `id`, and `reads` how a run reads the
    /// store's records.
    func subscribe(
        _ spec: DerivedViewSpec, style: DerivationStyle, records: Int, willChange: (Int) -> ObservableObjectPublisher, reads: Reads
    ) throws -> DerivedViewHandle {
        let fields = spec.allFields
        guard !fields.isEmpty else { throw StrategyError.emptyView }
        for ref in fields { _ = try recordIndex(of: ref.id, count: records) }
        let handle = DerivedViewHandle(spec: spec, renderPass: renderPass)
        var publishers = Set<ObjectIdentifier>()
        var cancellables: [AnyCancellable] = []
        for id in Set(fields.map(\.id)).sorted() {
            let publisher = willChange(id)
            guard publishers.insert(ObjectIdentifier(publisher)).inserted else { continue }
            cancellables.append(publisher.sink { _ in handle.invalidate() })
        }
        self.reads = reads
        switch style {
        case .viewBody:
            views[ObjectIdentifier(handle)] = (handle, nil, cancellables)
            switch reads {
            case .fields(let read):
                // What the body reads is fixed now, once: a re-run evaluates and records, nothing else.
                let body = FieldsBody(handle: handle, read: read)
                handle.setRender { _ in body.run() }
                body.run()
            case .oneProperty:
                // Strongly: a main-actor class is Sendable; the cycle ends when the view is cancelled.
                handle.setRender { [self] handle in Self.runBody(handle, reads: self.reads) }
                Self.runBody(handle, reads: reads)
            }
        case .pipeline:
            let pull = PassthroughSubject<Void, Never>()
            cancellables.append(
                pull.map { _ in
                    let read = reads.reader()
                    let graph = spec.graph
                    var values: [Int: DerivedValue] = [:]
                    for index in spec.closure {
                        handle.recordEvaluation(ofNode: index)
                        values[index] = graph.nodes[index].evaluate(PipelineReader(read: read, values: values))
                    }
                    return spec.nodes.map { values[$0] ?? .ids([]) } + spec.fields.map { .field(read($0)) }
                }
                .removeDuplicates()
                .sink { output in handle.recordRun(output) })
            views[ObjectIdentifier(handle)] = (handle, pull, cancellables)
            handle.setRender { _ in pull.send(()) }
            pull.send(())
        default:
            throw DerivedError.unsupportedStyle(style, strategy: "an ObservableObject store")
        }
        return handle
    }

    func unsubscribe(_ handle: DerivedViewHandle) {
        handle.cancel()
        handle.setRender(nil)
        views.removeValue(forKey: ObjectIdentifier(handle))?.cancellables.forEach { $0.cancel() }
    }

    func tearDown() {
        for entry in views.values {
            entry.view.cancel()
            entry.view.setRender(nil)
            entry.cancellables.forEach { $0.cancel() }
        }
        views.removeAll()
        reads = .fields { preconditionFailure("derived view read \($0) after teardown") }
    }

    /// The view body with computed properties over records in one property (a context's): every
    /// node it reads evaluated as it is read, each through a reader of its own. A view over
    /// per-record objects (`.fields`) runs its ``FieldsBody`` instead.
    private static func runBody(_ handle: DerivedViewHandle, reads: Reads) {
        guard case .oneProperty(let makeReader) = reads else { preconditionFailure("a view over per-record objects runs its FieldsBody") }
        handle.recordRun { ComputedReader.append(handle.spec, of: handle, readingEachProperty: makeReader, to: &$0) }
    }
}

/// A view body of computed properties over records read one field at a time (an
/// `ObservableObject` per record), made once when the view subscribes: its nodes, their graph and
/// how a field is read are fixed then, as an app's view body is written once, so that a re-run
/// evaluates the nodes it reads and records what it showed, and does no other work. It is its own
/// reader: handed to a node as `any DerivedReader`, it is one reference, with no value to copy.
///
/// `read` is `nonisolated(unsafe)`: set in `init` and only called after, by the view's runs on the
/// main actor (``run()``) and the node evaluations they make. The handle is `unowned(unsafe)`: it
/// holds this body through its render closure, and so outlives it.
@MainActor
private final class FieldsBody: DerivedReader {
    unowned(unsafe) let handle: DerivedViewHandle
    nonisolated(unsafe) let read: (FieldRef) -> FieldValue
    let graph: [DerivedNode]
    let roots: [Int]
    let fields: [FieldRef]

    init(handle: DerivedViewHandle, read: @escaping (FieldRef) -> FieldValue) {
        self.handle = handle
        self.read = read
        graph = handle.spec.graph.nodes
        roots = handle.spec.nodes
        fields = handle.spec.fields
    }

    nonisolated func field(_ ref: FieldRef) -> FieldValue { read(ref) }
    nonisolated func node(_ index: Int) -> DerivedValue {
        handle.recordEvaluation(ofNode: index)
        return graph[index].evaluate(self)
    }

    /// One run of the view body: each node it reads evaluated as it is read, then its fields.
    func run() {
        handle.recordRun { output in
            for index in roots { output.append(node(index)) }
            for ref in fields { output.append(.field(read(ref))) }
        }
    }
}

/// Reads fields of the store, and the nodes the pipeline's `map` evaluated before.
private struct PipelineReader: DerivedReader {
    let read: (FieldRef) -> FieldValue
    let values: [Int: DerivedValue]

    func field(_ ref: FieldRef) -> FieldValue { read(ref) }
    func node(_ index: Int) -> DerivedValue {
        guard let value = values[index] else { preconditionFailure("derived node \(index) read before it was evaluated") }
        return value
    }
}
