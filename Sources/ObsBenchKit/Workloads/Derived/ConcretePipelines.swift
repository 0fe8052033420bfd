import ObservationStrategies

#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif

/// The `+pipeline` apps (``ConcreteApp/publishedPipeline``, ``ConcreteApp/publishedContextPipeline``):
/// each view is a pipeline, `pull.map(compute).removeDuplicates().sink(show)`, which the render
/// pass pulls after an `objectWillChange` of what it reads invalidated it.
extension ConcreteDerivedLoop {
    /// A view of `compute`'s value, deduplicated, shown by `show`; pulled once now.
    static func pulled<Value: Equatable>(
        _ publishers: [ObservableObjectPublisher], compute: @escaping @MainActor () -> Value, show: @escaping @MainActor (Value) -> Void
    ) -> (view: ConcreteView, pipeline: AnyCancellable) {
        let pull = PassthroughSubject<Void, Never>()
        let pipeline = pull.map { _ in compute() }.removeDuplicates().sink { show($0) }
        return (ConcreteView(publishers) { pull.send(()) }, pipeline)
    }

    static func pipelinedFilteredSorted(_ store: ConcreteStore, scenario: DerivedScenario, shown: ConcreteShown) -> ConcreteDerivedLoop {
        var pulled: [(view: ConcreteView, pipeline: AnyCancellable)]
        switch store {
        case .published(let tasks, let willChange):
            pulled = [Self.pulled(willChange, compute: { ConcreteFilteredList.listed(tasks) }, show: { shown.list = $0 })]
            for id in ConcreteFilteredList.listed(tasks) {
                let task = tasks[id - 1]
                pulled.append(Self.pulled([willChange[id - 1]], compute: { ConcreteRowShown(title: task.title, priority: task.priority) }, show: { blackHole($0) }))
            }
        case .context(let context, let willChange):
            pulled = [Self.pulled([willChange], compute: { ConcreteFilteredList.listed(context.records) }, show: { shown.list = $0 })]
            for id in ConcreteFilteredList.listed(context.records) {
                pulled.append(
                    Self.pulled(
                        [willChange],
                        compute: {
                            let task = context.records[id - 1]
                            return ConcreteRowShown(title: task.title, priority: task.priority)
                        }, show: { blackHole($0) }))
            }
        default: preconditionFailure("a pipeline app over \(store)")
        }
        let graph = scenario.graph
        return ConcreteDerivedLoop(
            store: store, views: ConcreteViews(pulled.map(\.view), holding: pulled.map(\.pipeline)), writes: [scenario.write(0), scenario.write(1)],
            isRight: { graph.evaluate([0], field: store.value) == [.ids(shown.list)] })
    }

    static func pipelinedDiamond(_ store: ConcreteStore, scenario: DerivedScenario, shown: ConcreteShown) -> ConcreteDerivedLoop {
        let pulled: (view: ConcreteView, pipeline: AnyCancellable)
        switch store {
        case .published(let tasks, let willChange):
            let diamond = ConcreteDiamond(task: tasks[0])
            pulled = Self.pulled([willChange[0]], compute: { ConcretePair(first: diamond.double, second: diamond.triple) }, show: { shown.pair = ($0.first, $0.second) })
        case .context(let context, let willChange):
            let diamond = ConcreteContextDiamond(context: context)
            pulled = Self.pulled([willChange], compute: { ConcretePair(first: diamond.double, second: diamond.triple) }, show: { shown.pair = ($0.first, $0.second) })
        default: preconditionFailure("a pipeline app over \(store)")
        }
        let graph = scenario.graph
        return ConcreteDerivedLoop(
            store: store, views: ConcreteViews([pulled.view], holding: [pulled.pipeline]), writes: [scenario.write(0), scenario.write(1)],
            isRight: { graph.evaluate([1, 2], field: store.value) == [.int(shown.pair.0), .int(shown.pair.1)] })
    }

    static func pipelinedFanOut(_ store: ConcreteStore, width: Int, scenario: DerivedScenario, shown: ConcreteShown) -> ConcreteDerivedLoop {
        let pulled: [(view: ConcreteView, pipeline: AnyCancellable)]
        switch store {
        case .published(let tasks, let willChange):
            let task = tasks[0]
            pulled = (0..<width).map { offset in Self.pulled([willChange[0]], compute: { task.priority + offset }, show: { shown.fan[offset] = $0 }) }
        case .context(let context, let willChange):
            pulled = (0..<width).map { offset in Self.pulled([willChange], compute: { context.records[0].priority + offset }, show: { shown.fan[offset] = $0 }) }
        default: preconditionFailure("a pipeline app over \(store)")
        }
        let graph = scenario.graph
        return ConcreteDerivedLoop(
            store: store, views: ConcreteViews(pulled.map(\.view), holding: pulled.map(\.pipeline)), writes: [scenario.write(0), scenario.write(1)],
            isRight: { graph.evaluate(Array(0..<width), field: store.value) == shown.fan.map(DerivedValue.int) })
    }
}

/// What a row view's pipeline shows (its task's title and priority), compared by `removeDuplicates()`.
struct ConcreteRowShown: Equatable {
    let title: String
    let priority: Int
}

/// What the diamond's view pipeline shows, compared by `removeDuplicates()`.
struct ConcretePair: Equatable {
    let first: Int
    let second: Int
}
