#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif

/// The Combine way to derive for `ObservableObject` records (``DerivationStyle/pipeline``): each
/// view's derived values come out of a pipeline, `map` (evaluate every node the view reads) then
/// `removeDuplicates()`, whose sink is the view body. The pipeline is pulled at each render pass
/// after an `objectWillChange` of a record the view reads (the value is stored by then), so the
/// view re-runs only when what it shows changed; the map runs on every such change.
@MainActor
final class CombineDerivations {
    private var pipelines: [ObjectIdentifier: (view: DerivedViewHandle, pull: PassthroughSubject<Void, Never>, cancellables: [AnyCancellable])] = [:]

    /// Subscribes `spec`: `willChange(id)` is the `objectWillChange` of record `id`, and `read`
    /// reads a field of the store's records.
    func subscribe(
        _ spec: DerivedViewSpec, records: Int, willChange: (Int) -> ObservableObjectPublisher, read: @escaping @MainActor (FieldRef) -> FieldValue
    ) throws -> DerivedViewHandle {
        let fields = spec.allFields
        guard !fields.isEmpty else { throw StrategyError.emptyView }
        for ref in fields { _ = try recordIndex(of: ref.id, count: records) }
        let handle = DerivedViewHandle(spec: spec)
        var cancellables = Set(fields.map(\.id)).sorted().map { id in willChange(id).sink { _ in handle.invalidate() } }
        let pull = PassthroughSubject<Void, Never>()
        cancellables.append(
            pull.map { _ in
                MainActor.assumeIsolated {
                    let graph = spec.graph
                    var values: [Int: DerivedValue] = [:]
                    for index in graph.closure(of: spec.nodes) {
                        handle.recordEvaluation(ofNode: index)
                        values[index] = graph.nodes[index].evaluate(PipelineReader(read: read, values: values))
                    }
                    return spec.nodes.map { values[$0] ?? .ids([]) } + spec.fields.map { .field(read($0)) }
                }
            }
            .removeDuplicates()
            .sink { output in handle.recordRun(output) })
        pipelines[ObjectIdentifier(handle)] = (handle, pull, cancellables)
        handle.setRender { [weak self] handle in
            guard handle.takeInvalidation() else { return }
            self?.pipelines[ObjectIdentifier(handle)]?.pull.send(())
        }
        pull.send(())
        return handle
    }

    func unsubscribe(_ handle: DerivedViewHandle) {
        handle.cancel()
        pipelines.removeValue(forKey: ObjectIdentifier(handle))?.cancellables.forEach { $0.cancel() }
    }

    func tearDown() {
        for entry in pipelines.values {
            entry.view.cancel()
            entry.cancellables.forEach { $0.cancel() }
        }
        pipelines.removeAll()
    }
}

/// Reads fields of the store, and the nodes the pipeline's `map` evaluated before.
private struct PipelineReader: DerivedReader {
    let read: @MainActor (FieldRef) -> FieldValue
    let values: [Int: DerivedValue]

    func field(_ ref: FieldRef) -> FieldValue { MainActor.assumeIsolated { read(ref) } }
    func node(_ index: Int) -> DerivedValue {
        guard let value = values[index] else { preconditionFailure("derived node \(index) read before it was evaluated") }
        return value
    }
}
