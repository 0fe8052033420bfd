import Observation

/// Plain struct records in a context (identity map by id); each view holds `@Observable` view
/// models the context makes on demand and keeps in sync, and tracks them with
/// `withObservationTracking`, re-armed after every fire, as the `observable` strategy does.
@MainActor
public final class StructViewModelStrategy: ObservationStrategy {
    nonisolated public static let descriptor = StrategyDescriptor(
        name: "struct-vm",
        summary: "struct records in a context; @Observable view models made on demand, synced by the context",
        dependency: "Observation (Swift toolchain)",
        capabilities: Capabilities(granularity: .property, deduplicates: false, delivery: .synchronous, transactional: false, coalesces: false)
    )

    private let context: RecordContext
    private var views: [ObjectIdentifier: (view: ViewHandle, viewModels: [TaskViewModel])] = [:]
    private let renderQueue = RenderQueue()
    private let count: Int

    public init(records: [TaskRecord]) throws {
        try validateRecordIDs(records)
        context = RecordContext(records: records)
        count = records.count
    }

    public func read(_ field: TaskField, of id: Int) throws -> FieldValue {
        context.records[try recordIndex(of: id, count: count)].value(of: field)
    }

    /// A view body reads its view model's properties inside a tracking scope.
    public func readInsideView(_ field: TaskField, of id: Int, times: Int) throws -> FieldValue {
        let viewModel = context.viewModel(for: try recordIndex(of: id, count: count))
        return withObservationTracking {
            var value = viewModel.value(of: field)
            for _ in 1..<max(times, 1) { value = viewModel.value(of: field) }
            return value
        } onChange: {
        }
    }

    public func write(_ value: FieldValue, to id: Int) throws {
        context.apply(value, at: try recordIndex(of: id, count: count))
        render()
    }

    public func transaction(_ writes: [FieldWrite]) throws {
        for write in writes { _ = try recordIndex(of: write.id, count: count) }
        for write in writes { context.apply(write.value, at: write.id - 1) }
        render()
    }

    public func subscribe(_ spec: ViewSpec) throws -> ViewHandle {
        try validateViewSpec(spec, count: count)
        let view = ViewHandle(spec: spec)
        let viewModels = spec.reads.map { context.viewModel(for: $0.id - 1) }
        views[ObjectIdentifier(view)] = (view, viewModels)
        arm(view, viewModels: viewModels)
        return view
    }

    public func unsubscribe(_ view: ViewHandle) {
        view.cancel()
        views[ObjectIdentifier(view)] = nil
    }

    public func settle() async {}

    public func tearDown() async {
        for entry in views.values { entry.view.cancel() }
        views.removeAll()
        renderQueue.removeAll()
        context.removeAll()
    }

    public func objectsThatMustBeFreed() -> [AnyObject] {
        [context] + views.values.flatMap(\.viewModels)
    }

    private func arm(_ view: ViewHandle, viewModels: [TaskViewModel]) {
        let renderQueue = self.renderQueue
        withObservationTracking {
            var index = 0
            _ = view.recordRun { ref in
                defer { index += 1 }
                return viewModels[index].value(of: ref.field)
            }
        } onChange: {
            renderQueue.invalidate(view)
        }
    }

    private func render() {
        renderQueue.render { view in
            guard let entry = views[ObjectIdentifier(view)] else { return }
            arm(view, viewModels: entry.viewModels)
        }
    }
}
