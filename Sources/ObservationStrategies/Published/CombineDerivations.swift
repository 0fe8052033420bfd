import Synchronization

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
///   (``ViewBody``): each node it reads is evaluated on each run, reading the records' fields as
///   it goes (a filter that skips a completed task reads none of its other fields).
/// - ``DerivationStyle/pipeline``: the view's derived values come out of a pipeline, `map`
///   (evaluate every node the view reads) then `removeDuplicates()`, whose sink is the view body.
///   The render pass pulls the pipeline (the value is stored by then), so the view re-runs only
///   when what it shows changed; the map runs on every such pull.
@MainActor
final class CombineDerivations {
    private var views: [ObjectIdentifier: (view: DerivedViewHandle, pull: PassthroughSubject<Void, Never>?, cancellables: [AnyCancellable], body: ViewBody?)] =
        [:]
    /// The store's render pass for these views.
    private let renderPass = DerivedRenderPass()

    /// How a view's run reads the store's records.
    enum Reads {
        /// Each field is a property of its own (an `ObservableObject` per record, record `id` at
        /// `id - 1`): a run reads each through its getter.
        case objects([PublishedTask])
        /// Through one `@Published` property holding every record, which the function reads (a
        /// context's `records`): a view body reads it once for each computed property it reads,
        /// and once more for its own fields, as each reads `context.records` again.
        case oneProperty(@MainActor () -> [TaskRecord])
    }

    /// Subscribes `spec`, derived the `style` way (`.viewBody` or `.pipeline`): `willChange(id)` is
    /// the `objectWillChange` of the object holding record `id`, and `reads` how a run reads the
    /// store's records. A view body is a ``ViewBody``, made now, once.
    func subscribe(
        _ spec: DerivedViewSpec, style: DerivationStyle, records: Int, willChange: (Int) -> ObservableObjectPublisher, reads: Reads
    ) throws -> DerivedViewHandle {
        let fields = spec.allFields
        guard !fields.isEmpty else { throw StrategyError.emptyView }
        for ref in fields { _ = try recordIndex(of: ref.id, count: records) }
        let handle = DerivedViewHandle(spec: spec, renderPass: renderPass)
        // A view body is fixed now, once, and is what the sinks invalidate and the render pass
        // re-runs: a re-run evaluates and records, nothing else.
        let body = style == .viewBody ? ViewBody(handle: handle, reads: reads, renderPass: renderPass) : nil
        var publishers = Set<ObjectIdentifier>()
        var cancellables: [AnyCancellable] = []
        for id in Set(fields.map(\.id)).sorted() {
            let publisher = willChange(id)
            guard publishers.insert(ObjectIdentifier(publisher)).inserted else { continue }
            if let body {
                cancellables.append(publisher.sink { _ in body.invalidate() })
            } else {
                cancellables.append(publisher.sink { _ in handle.invalidate() })
            }
        }
        switch style {
        case .viewBody:
            guard let body else { preconditionFailure("a view body is made above") }
            views[ObjectIdentifier(handle)] = (handle, nil, cancellables, body)
            body.run()
        case .pipeline:
            let pull = PassthroughSubject<Void, Never>()
            // The map's evaluation, made once as a view body is (what the sinks invalidate is the
            // handle, whose render pulls).
            let evaluation = ViewBody(handle: handle, reads: reads, renderPass: renderPass)
            cancellables.append(
                pull.map { _ in evaluation.pipelineOutput() }
                    .removeDuplicates()
                    .sink { output in handle.recordRun(output) })
            views[ObjectIdentifier(handle)] = (handle, pull, cancellables, evaluation)
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
        guard let entry = views.removeValue(forKey: ObjectIdentifier(handle)) else { return }
        entry.body?.isCancelled = true
        entry.cancellables.forEach { $0.cancel() }
    }

    func tearDown() {
        for entry in views.values {
            entry.view.cancel()
            entry.view.setRender(nil)
            entry.body?.isCancelled = true
            entry.cancellables.forEach { $0.cancel() }
        }
        views.removeAll()
        // A body invalidated since the last pass is still queued, holding the records.
        renderPass.removeAll()
    }
}

/// A view body of computed properties over the records, made once when the view subscribes: its
/// nodes and how it reads the records are fixed then, as an app's view body is written once, so
/// that a re-run evaluates the nodes it reads and records what it showed, and does no other work.
/// It is what the records' sinks invalidate and the render pass re-runs (its
/// ``DerivedViewHandle`` is only where the runs are recorded).
/// - Over per-record objects (``CombineDerivations/Reads/objects(_:)``), a field is read through
///   its `@Published` getter, and the body is its own reader: handed to a node as
///   `any DerivedReader`, it is one reference, with no value to copy.
/// - Over one property holding every record (``CombineDerivations/Reads/oneProperty(_:)``), each
///   node the view reads is evaluated through a ``RecordsReader`` of the property read once for
///   it (a node it reads through shares it: in the diamond, `double` and `triple` each read
///   `source`, two reads of the property, as an app's), and its own fields through one more.
///
/// What a run reads sits in buffers made once, read in place, so that a run retains nothing of
/// its own: the node functions (``Evaluator``s; a node copied out of the graph retained its name,
/// reads and inputs each time), the view's nodes and fields, and the records (unmanaged: `reads`
/// keeps them alive). The buffers are `nonisolated(unsafe)`: set in `init` and only read after, by
/// the view's runs on the main actor and the node evaluations they make.
@MainActor
final class ViewBody: DerivedReader, DerivedRenderable {
    /// One node's function, in a struct so that the buffer holds it as the graph does (a bare
    /// closure in a buffer is held at its most general, and each call goes through a thunk).
    struct Evaluator {
        let evaluate: @Sendable (any DerivedReader) -> DerivedValue
    }

    let handle: DerivedViewHandle
    /// How the body reads the records; it holds the objects that ``objects`` points to.
    private let reads: CombineDerivations.Reads
    /// Whether the records are per-record objects (``objects``), else one property (``property``):
    /// taken out of `reads` once, so that a run does not copy it to switch over it.
    private let overObjects: Bool
    /// The property holding every record (``CombineDerivations/Reads/oneProperty(_:)``); over
    /// per-record objects, never called.
    private let property: @MainActor () -> [TaskRecord]
    /// Per-record objects, by record id − 1 (empty over one property).
    nonisolated(unsafe) private let objects: UnsafeMutableBufferPointer<Unmanaged<PublishedTask>>
    nonisolated(unsafe) private let evaluators: UnsafeMutableBufferPointer<Evaluator>
    nonisolated(unsafe) private let roots: UnsafeMutableBufferPointer<Int>
    /// The nodes the view's nodes read, themselves included, in graph order (``DerivedViewSpec/closure``).
    nonisolated(unsafe) private let closure: UnsafeMutableBufferPointer<Int>
    nonisolated(unsafe) private let fields: UnsafeMutableBufferPointer<FieldRef>
    let renderPass: DerivedRenderPass
    /// Whether a write invalidated the view since it last ran (set from the sinks, taken by ``render()``).
    private let invalidation = Atomic<Bool>(false)
    /// Set when the view is unsubscribed: a pass that still holds it renders nothing.
    var isCancelled = false

    init(handle: DerivedViewHandle, reads: CombineDerivations.Reads, renderPass: DerivedRenderPass) {
        self.handle = handle
        self.reads = reads
        self.renderPass = renderPass
        switch reads {
        case .objects(let tasks):
            objects = Self.buffer(tasks.map(Unmanaged.passUnretained))
            overObjects = true
            property = { preconditionFailure("a view body over per-record objects read a property") }
        case .oneProperty(let read):
            objects = Self.buffer([])
            overObjects = false
            property = read
        }
        evaluators = Self.buffer(handle.spec.graph.nodes.map { Evaluator(evaluate: $0.evaluate) })
        roots = Self.buffer(handle.spec.nodes)
        closure = Self.buffer(handle.spec.closure)
        fields = Self.buffer(handle.spec.fields)
    }

    deinit {
        for buffer in [
            UnsafeMutableRawBufferPointer(objects), UnsafeMutableRawBufferPointer(roots), UnsafeMutableRawBufferPointer(closure),
            UnsafeMutableRawBufferPointer(fields),
        ] {
            buffer.deallocate()
        }
        evaluators.deinitialize()
        evaluators.deallocate()
    }

    private static func buffer<Element>(_ elements: [Element]) -> UnsafeMutableBufferPointer<Element> {
        let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: elements.count)
        _ = buffer.initialize(from: elements)
        return buffer
    }

    /// Something the view reads changed (from a sink): the next pass re-runs it.
    nonisolated func invalidate() {
        guard !invalidation.exchange(true, ordering: .acquiringAndReleasing) else { return }
        renderPass.enqueue(self)
    }

    func render() {
        guard invalidation.exchange(false, ordering: .acquiringAndReleasing), !isCancelled else { return }
        run()
    }

    nonisolated func field(_ ref: FieldRef) -> FieldValue {
        objects[ref.id - 1]._withUnsafeGuaranteedRef { $0.value(of: ref.field) }
    }
    nonisolated func node(_ index: Int) -> DerivedValue { evaluate(index, reader: self) }

    /// Node `index`, evaluated (and counted) reading through `reader`.
    nonisolated func evaluate(_ index: Int, reader: some DerivedReader) -> DerivedValue {
        handle.recordEvaluation(ofNode: index)
        return evaluators[index].evaluate(reader)
    }

    /// What the view's pipeline `map` returns (``DerivationStyle/pipeline``): every node the view
    /// reads, directly or through others, evaluated once, inputs first, reading the records once
    /// for the whole run (over one property), then the view's fields.
    func pipelineOutput() -> [DerivedValue] {
        var reader = EvaluatedReader(body: self, records: overObjects ? nil : property())
        reader.values.reserveCapacity(closure.count)
        for index in closure { reader.values.append(evaluate(index, reader: reader)) }
        var output: [DerivedValue] = []
        output.reserveCapacity(roots.count + fields.count)
        for index in roots { output.append(reader.node(index)) }
        for ref in fields { output.append(.field(reader.field(ref))) }
        return output
    }

    /// Where node `index` sits in the view's closure (what ``EvaluatedReader/values`` follows).
    nonisolated func position(inClosure index: Int) -> Int? { closure.firstIndex(of: index) }

    /// One run of the view body: each node it reads evaluated as it is read, then its fields.
    func run() {
        handle.recordRun { output in
            if overObjects {
                for index in roots { output.append(node(index)) }
                for ref in fields { output.append(.field(field(ref))) }
            } else {
                for index in roots { output.append(RecordsReader(body: self, records: property()).node(index)) }
                guard !fields.isEmpty else { return }
                let records = property()
                for ref in fields { output.append(.field(records[ref.id - 1].value(of: ref.field))) }
            }
        }
    }
}

/// Reads one value of a property holding every record (a computed property's read of
/// `context.records`), and the nodes of a ``ViewBody`` through it. Two words: handed to a node as
/// `any DerivedReader`, it fits the existential's inline buffer (no allocation per evaluation).
private struct RecordsReader: DerivedReader {
    unowned(unsafe) let body: ViewBody
    let records: [TaskRecord]

    func field(_ ref: FieldRef) -> FieldValue { records[ref.id - 1].value(of: ref.field) }
    func node(_ index: Int) -> DerivedValue { body.evaluate(index, reader: self) }
}

/// Reads fields of the store (through the body's objects, or one value of the property holding
/// every record), and the nodes a pipeline's `map` evaluated before, in closure order.
private struct EvaluatedReader: DerivedReader {
    unowned(unsafe) let body: ViewBody
    let records: [TaskRecord]?
    var values: [DerivedValue] = []

    init(body: ViewBody, records: [TaskRecord]?) {
        self.body = body
        self.records = records
    }

    func field(_ ref: FieldRef) -> FieldValue {
        if let records { return records[ref.id - 1].value(of: ref.field) }
        return body.field(ref)
    }

    func node(_ index: Int) -> DerivedValue {
        guard let position = body.position(inClosure: index), position < values.count else {
            preconditionFailure("derived node \(index) read before it was evaluated")
        }
        return values[position]
    }
}
