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
        capabilities: Capabilities(
            granularity: .property, deduplicates: false, delivery: .synchronous, transactional: false, coalesces: false, memoizesDerived: true,
            skipsUnchangedDerived: true)
    )

    /// A derived view model holding each derived value in an `@Observable` cell, evaluated from the
    /// record view models the context keeps in sync and evaluated again when one it read changed
    /// (the usual way); and a computed property over those record view models, read in the view
    /// body (``TrackedDerivations`` both).
    nonisolated public static var derivationStyles: [DerivationStyle] { [.cached, .computed] }

    private let context: RecordContext
    private var views: [ObjectIdentifier: (view: ViewHandle, viewModels: [TaskViewModel])] = [:]
    private let renderQueue = RenderQueue()
    private let count: Int
    /// The record view models derived views read, by id − 1: the context keeps view models only
    /// weakly, so the store holds them until `tearDown()`, as ``TrackedDerivations`` holds its cells
    /// (a cell tracks the view models it read, so they must outlive it).
    private var derivedViewModels: [TaskViewModel?] = []
    /// Made by the first derived view: a store that derives nothing allocates nothing for it, but
    /// the reference makes the store 16 B larger (41.2 -> 41.216 B per object at N = 1,000).
    private var derivations: TrackedDerivations?

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

    public func subscribeDerived(_ view: DerivedViewSpec, style: DerivationStyle) throws -> DerivedViewHandle {
        for ref in view.allFields { _ = try recordIndex(of: ref.id, count: count) }
        if derivedViewModels.isEmpty { derivedViewModels = Array(repeating: nil, count: count) }
        for ref in view.allFields where derivedViewModels[ref.id - 1] == nil {
            derivedViewModels[ref.id - 1] = context.viewModel(for: ref.id - 1)
        }
        let derivations =
            self.derivations
            ?? TrackedDerivations(records: { [unowned self] in self.count }) { [unowned self] in
                let viewModels = self.derivedViewModels
                return { ref in
                    guard let viewModel = viewModels[ref.id - 1] else { preconditionFailure("no view model held for \(ref)") }
                    return viewModel.value(of: ref.field)
                }
            }
        self.derivations = derivations
        return try derivations.subscribe(view, style: style, strategy: Self.descriptor.name)
    }

    public func unsubscribeDerived(_ view: DerivedViewHandle) {
        derivations?.unsubscribe(view)
    }

    public func tearDown() async {
        derivations?.tearDown()
        derivations = nil
        derivedViewModels.removeAll()
        for entry in views.values { entry.view.cancel() }
        views.removeAll()
        renderQueue.removeAll()
        context.removeAll()
    }

    public func objectsThatMustBeFreed() -> [AnyObject] {
        [context] + views.values.flatMap(\.viewModels) + derivedViewModels.compactMap { $0 }
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
