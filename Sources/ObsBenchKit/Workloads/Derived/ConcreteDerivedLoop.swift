import Observation
import ObservationStrategies

#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif

/// The app a concrete loop is written as: the strategy whose usual derivation style it is the
/// yardstick for, as an app using that strategy's types would write it.
enum ConcreteApp: Sendable {
    /// `@Observable` record classes, views under `withObservationTracking` (`observable`).
    case observable
    /// One `ObservableObject` per record, each view sinking the `objectWillChange` of every record
    /// it reads (`published`).
    case published
    /// One `ObservableObject` whose `@Published` array holds every record, every view sinking its
    /// `objectWillChange` (`published-context`, the design notes' `Context.Data`).
    case publishedContext
    /// The same context as one `@Observable` object, views under `withObservationTracking`
    /// (`observable-context`: the notes' migration of `Context.Data`).
    case observableContext
    /// One `CurrentValueSubject` of every record, each view a selector pipeline,
    /// `subject.map(select).removeDuplicates()`, whose sink is the view (`state-subject`).
    case stateSubject
    /// Struct records in a context whose identity map keeps `@Observable` view models in sync;
    /// each derived value cached in an `@Observable` cell (``ConcreteCache``), the views tracking
    /// the cells (`struct-vm`, whose usual style is `cached`).
    case structVM
    /// `published`'s records, each view's values out of a pipeline pulled at the render pass,
    /// `pull.map(compute).removeDuplicates().sink(show)`, the view invalidated by the
    /// `objectWillChange` of the records it reads (`published+pipeline`).
    case publishedPipeline
    /// The same pipelines over `published-context`'s one object (`published-context+pipeline`).
    case publishedContextPipeline

    /// Every app written for `strategy`'s rows: its usual style's first, then its other styles'.
    static func all(strategy: String?) -> [ConcreteApp] {
        switch strategy {
        case PublishedStrategy.descriptor.name: [.published, .publishedPipeline]
        case PublishedContextStrategy.descriptor.name: [.publishedContext, .publishedContextPipeline]
        default: ConcreteApp(strategy: strategy).map { [$0] } ?? []
        }
    }

    /// The derivation style the app is written in, when it is not its strategy's usual one.
    var style: DerivationStyle? {
        switch self {
        case .publishedPipeline, .publishedContextPipeline: .pipeline
        default: nil
        }
    }

    /// The name of the app's rows for `workload`: `fan-out-100-concrete`, `fan-out-100+pipeline-concrete`.
    func rowName(_ workload: String) -> String {
        DerivedRows.concreteName(style.map { DerivedRows.name(workload, style: $0, usual: false) } ?? workload)
    }

    /// The app for `strategy`'s rows, or nil: that strategy has no concrete loop.
    init?(strategy: String?) {
        switch strategy {
        case ObservableStrategy.descriptor.name: self = .observable
        case PublishedStrategy.descriptor.name: self = .published
        case PublishedContextStrategy.descriptor.name: self = .publishedContext
        case ObservableContextStrategy.descriptor.name: self = .observableContext
        case StateSubjectStrategy.descriptor.name: self = .stateSubject
        case StructViewModelStrategy.descriptor.name: self = .structVM
        default: return nil
        }
    }

    /// What the loop is, for its rows' notes.
    var summary: String {
        switch self {
        case .observable: "computed properties over a concrete @Observable class, each view a withObservationTracking closure"
        case .published: "computed properties over a concrete ObservableObject per record, each view sinking the objectWillChange of the records it reads"
        case .publishedContext:
            "computed properties over one concrete ObservableObject holding every record in a @Published array, each view sinking its objectWillChange and reading the array once per run"
        case .observableContext:
            "computed properties over one concrete @Observable class holding every record in one array property, each view a withObservationTracking closure reading the array once per run"
        case .stateSubject:
            "one CurrentValueSubject of every record, each view a selector (subject.map(select).removeDuplicates()) whose sink is the view"
        case .structVM:
            "struct records in a context whose identity map keeps an @Observable view model per record in sync, each derived value an @Observable cell computed under withObservationTracking and computed again at the render pass after something it read changed, each view tracking the cells it reads (a row view, its view model)"
        case .publishedPipeline:
            "an ObservableObject per record, each view's values out of a pipeline (pull.map(compute).removeDuplicates().sink) pulled at the render pass after an objectWillChange of a record it reads"
        case .publishedContextPipeline:
            "one ObservableObject holding every record in a @Published array, each view's values out of a pipeline (pull.map(compute).removeDuplicates().sink) pulled at the render pass after its objectWillChange"
        }
    }
}

/// The yardstick for a derived row's harness share: the same write and derivation as a strategy's
/// usual derivation style (``ConcreteApp``), written out on concrete types in a tight loop. A view
/// body is a closure reading computed properties; whatever invalidates it (an Observation `onChange`,
/// an `objectWillChange` sink) queues it, and a render pass after each write re-runs the queued
/// views (as SwiftUI re-renders invalidated views). No protocol, no store, no field enum, no
/// ``DerivedViewHandle``: nothing records outputs, runs or evaluations, and no view that was not
/// invalidated is visited.
///
/// ```swift
/// let loop = ConcreteDerivedLoop.diamond(.observable, records: TaskRecord.sample(count: 1_000), scenario: DiamondWorkload.scenario())
/// loop.write(0); loop.write(1)     // priority 5, then 0: the view re-runs after each
/// try loop.check("diamond")        // its values against a from-scratch computation
/// ```
@MainActor
final class ConcreteDerivedLoop {
    private let views: ConcreteViews
    /// Views subscribed: the list and its rows, the diamond's one, or the fan-out's W.
    var viewCount: Int { views.count }
    /// The write for an even and for an odd `k`, each a direct property assignment.
    private let setters: [@MainActor () -> Void]
    /// Whether the views show what a from-scratch computation gives (the harness's check, made
    /// outside the measured loop).
    private let isRight: @MainActor () -> Bool

    /// A loop over `store`'s records with `views` subscribed, writing `writes` in turn, checked by
    /// `isRight` (the builders here, and the `+pipeline` apps' in ConcretePipelines.swift).
    init(store: ConcreteStore, views: ConcreteViews, writes: [FieldWrite], isRight: @escaping @MainActor () -> Bool) {
        self.views = views
        setters = writes.map(store.setter)
        self.isRight = isRight
    }

    /// The `k`-th write of the scenario (they alternate), then the render pass.
    func write(_ k: Int) {
        setters[k & 1]()
        views.render()
    }

    /// The `k`-th write with no render pass after it: the views fall behind (what a check must catch).
    func writeWithoutRendering(_ k: Int) {
        setters[k & 1]()
    }

    /// Throws unless every view's last run agrees with a from-scratch computation over the records.
    func check(_ workload: String) throws {
        guard isRight() else { throw DerivedCheckError.wrongOutput(view: "\(workload)'s concrete loop", shown: [], expected: [], when: "after its writes", observes: true) }
    }

    /// The filtered, sorted list (``FilteredSortedWorkload``): record 1's title is the query, a
    /// list view reads the computed list, and a row view reads the title and priority of each task
    /// listed at the start.
    static func filteredSorted(_ app: ConcreteApp, records: [TaskRecord], scenario: DerivedScenario) -> ConcreteDerivedLoop {
        let store = ConcreteStore(app, records: records)
        for write in scenario.setup { store.setter(write)() }
        let shown = ConcreteShown()
        if app.style == .pipeline { return pipelinedFilteredSorted(store, scenario: scenario, shown: shown) }
        var views: [ConcreteView]
        switch store {
        case .observable(let tasks):
            views = [ConcreteView { shown.list = ConcreteFilteredList.listed(tasks) }]
            for id in ConcreteFilteredList.listed(tasks) {
                let task = tasks[id - 1]
                views.append(ConcreteView { blackHole((task.title, task.priority)) })
            }
        case .published(let tasks, let willChange):
            views = [ConcreteView(willChange) { shown.list = ConcreteFilteredList.listed(tasks) }]
            for id in ConcreteFilteredList.listed(tasks) {
                let task = tasks[id - 1]
                views.append(ConcreteView([willChange[id - 1]]) { blackHole((task.title, task.priority)) })
            }
        case .context(let context, let willChange): views = contextListViews(context, publishers: [willChange], shown: shown)
        case .observableContext(let context): views = contextListViews(context, publishers: [], shown: shown)
        case .structVM(let context):
            let viewModels = (0..<records.count).map(context.viewModel)
            let list = ConcreteCache(ConcreteListCell()) { ConcreteFilteredList.listed(viewModels) }
            views = [ConcreteView { shown.list = list.value }]
            for id in list.value {
                let viewModel = viewModels[id - 1]
                views.append(ConcreteView { blackHole((viewModel.title, viewModel.priority)) })
            }
            let graph = scenario.graph
            return ConcreteDerivedLoop(
                store: store, views: ConcreteViews(views, caches: [list]), writes: [scenario.write(0), scenario.write(1)],
                isRight: { graph.evaluate([0], field: store.value) == [.ids(shown.list)] })
        case .stateSubject(let subject):
            var pipelines = [subject.map { ConcreteFilteredList.listed($0) }.removeDuplicates().sink { shown.list = $0 }]
            for id in ConcreteFilteredList.listed(subject.value) {
                pipelines.append(subject.map { ($0[id - 1].title, $0[id - 1].priority) }.removeDuplicates { $0 == $1 }.sink { blackHole($0) })
            }
            return ConcreteDerivedLoop(
                store: store, views: ConcreteViews(pipelines: pipelines), writes: [scenario.write(0), scenario.write(1)],
                isRight: { [graph = scenario.graph] in graph.evaluate([0], field: store.value) == [.ids(shown.list)] })
        }
        let graph = scenario.graph
        return ConcreteDerivedLoop(
            store: store, views: ConcreteViews(views), writes: [scenario.write(0), scenario.write(1)],
            isRight: { graph.evaluate([0], field: store.value) == [.ids(shown.list)] })
    }

    /// The diamond (``DiamondWorkload``): `double` and `triple` computed from `source`, record 1's
    /// priority; one view reads both.
    static func diamond(_ app: ConcreteApp, records: [TaskRecord], scenario: DerivedScenario) -> ConcreteDerivedLoop {
        let store = ConcreteStore(app, records: records)
        let shown = ConcreteShown()
        if app.style == .pipeline { return pipelinedDiamond(store, scenario: scenario, shown: shown) }
        let view: ConcreteView
        switch store {
        case .observable(let tasks):
            let diamond = ConcreteDiamond(task: tasks[0])
            view = ConcreteView { shown.pair = (diamond.double, diamond.triple) }
        case .published(let tasks, let willChange):
            let diamond = ConcreteDiamond(task: tasks[0])
            view = ConcreteView([willChange[0]]) { shown.pair = (diamond.double, diamond.triple) }
        case .context(let context, let willChange):
            let diamond = ConcreteContextDiamond(context: context)
            view = ConcreteView([willChange]) { shown.pair = (diamond.double, diamond.triple) }
        case .observableContext(let context):
            let diamond = ConcreteContextDiamond(context: context)
            view = ConcreteView { shown.pair = (diamond.double, diamond.triple) }
        case .structVM(let context):
            let viewModel = context.viewModel(for: 0)
            let source = ConcreteCache(ConcreteNumberCell()) { viewModel.priority }
            let double = ConcreteCache(ConcreteNumberCell()) { source.value * 2 }
            let triple = ConcreteCache(ConcreteNumberCell()) { source.value * 3 }
            let graph = scenario.graph
            return ConcreteDerivedLoop(
                store: store, views: ConcreteViews([ConcreteView { shown.pair = (double.value, triple.value) }], caches: [source, double, triple]),
                writes: [scenario.write(0), scenario.write(1)],
                isRight: { graph.evaluate([1, 2], field: store.value) == [.int(shown.pair.0), .int(shown.pair.1)] })
        case .stateSubject(let subject):
            let pipeline = subject.map { records in
                let source = records[0].priority
                return (source * 2, source * 3)
            }
            .removeDuplicates { $0 == $1 }.sink { shown.pair = $0 }
            return ConcreteDerivedLoop(
                store: store, views: ConcreteViews(pipelines: [pipeline]), writes: [scenario.write(0), scenario.write(1)],
                isRight: { [graph = scenario.graph] in graph.evaluate([1, 2], field: store.value) == [.int(shown.pair.0), .int(shown.pair.1)] })
        }
        let graph = scenario.graph
        return ConcreteDerivedLoop(
            store: store, views: ConcreteViews([view]), writes: [scenario.write(0), scenario.write(1)],
            isRight: { graph.evaluate([1, 2], field: store.value) == [.int(shown.pair.0), .int(shown.pair.1)] })
    }

    /// The fan-out (``FanOutWorkload``): W values, value `offset` record 1's priority plus
    /// `offset`, each a computed value read by a view of its own.
    static func fanOut(_ app: ConcreteApp, width: Int, records: [TaskRecord], scenario: DerivedScenario) -> ConcreteDerivedLoop {
        let store = ConcreteStore(app, records: records)
        let shown = ConcreteShown()
        shown.fan = Array(repeating: 0, count: width)
        if app.style == .pipeline { return pipelinedFanOut(store, width: width, scenario: scenario, shown: shown) }
        let views: [ConcreteView]
        switch store {
        case .observable(let tasks):
            let task = tasks[0]
            views = (0..<width).map { offset in ConcreteView { shown.fan[offset] = task.priority + offset } }
        case .published(let tasks, let willChange):
            let task = tasks[0]
            views = (0..<width).map { offset in ConcreteView([willChange[0]]) { shown.fan[offset] = task.priority + offset } }
        case .context(let context, let willChange):
            views = (0..<width).map { offset in ConcreteView([willChange]) { shown.fan[offset] = context.records[0].priority + offset } }
        case .observableContext(let context):
            views = (0..<width).map { offset in ConcreteView { shown.fan[offset] = context.records[0].priority + offset } }
        case .structVM(let context):
            let viewModel = context.viewModel(for: 0)
            let caches = (0..<width).map { offset in ConcreteCache(ConcreteNumberCell()) { viewModel.priority + offset } }
            let views = (0..<width).map { offset in ConcreteView { [cache = caches[offset]] in shown.fan[offset] = cache.value } }
            let graph = scenario.graph
            return ConcreteDerivedLoop(
                store: store, views: ConcreteViews(views, caches: caches), writes: [scenario.write(0), scenario.write(1)],
                isRight: { graph.evaluate(Array(0..<width), field: store.value) == shown.fan.map(DerivedValue.int) })
        case .stateSubject(let subject):
            let pipelines = (0..<width).map { offset in subject.map { $0[0].priority + offset }.removeDuplicates().sink { shown.fan[offset] = $0 } }
            return ConcreteDerivedLoop(
                store: store, views: ConcreteViews(pipelines: pipelines), writes: [scenario.write(0), scenario.write(1)],
                isRight: { [graph = scenario.graph] in graph.evaluate(Array(0..<width), field: store.value) == shown.fan.map(DerivedValue.int) })
        }
        let graph = scenario.graph
        return ConcreteDerivedLoop(
            store: store, views: ConcreteViews(views), writes: [scenario.write(0), scenario.write(1)],
            isRight: { graph.evaluate(Array(0..<width), field: store.value) == shown.fan.map(DerivedValue.int) })
    }
}

extension ConcreteDerivedLoop {
    /// The filtered list's views over a context: the list view reads the records once, then
    /// filters; a row view reads its record out of the array.
    fileprivate static func contextListViews<Context: ConcreteRecordsContext>(_ context: Context, publishers: [ObservableObjectPublisher], shown: ConcreteShown)
        -> [ConcreteView]
    {
        var views = [ConcreteView(publishers) { shown.list = ConcreteFilteredList.listed(context.records) }]
        for id in ConcreteFilteredList.listed(context.records) {
            views.append(
                ConcreteView(publishers) {
                    let task = context.records[id - 1]
                    blackHole((task.title, task.priority))
                })
        }
        return views
    }
}

extension WorkloadContext {
    /// For a strategy with a concrete loop (``ConcreteApp``: `observable`, `published`,
    /// `published-context`, `observable-context`, `state-subject`, `struct-vm`), `workload`'s (``ConcreteDerivedLoop``), timed or counted as the
    /// strategy's rows are (``CountedWrites``), as rows named `<workload>-concrete`
    /// (``DerivedRows/concreteName(_:)``): the yardstick its usual style's row is read against; and
    /// for `published` and `published-context` their `+pipeline` style's too, as rows named
    /// `<workload>+pipeline-concrete` (``ConcreteApp/all(strategy:)``).
    /// Nothing for any other strategy. A loop whose views show a wrong output gives an error row.
    @MainActor
    func measureConcreteDerived(workload: String, _ make: (ConcreteApp) throws -> ConcreteDerivedLoop) async throws -> WorkloadOutput {
        var output = WorkloadOutput()
        for app in ConcreteApp.all(strategy: strategy?.name) { output.append(try await measureConcreteDerived(workload: workload, app: app, make)) }
        return output
    }

    /// `workload`'s concrete loop as `app` writes it, as rows named ``ConcreteApp/rowName(_:)``.
    @MainActor
    private func measureConcreteDerived(workload: String, app: ConcreteApp, _ make: (ConcreteApp) throws -> ConcreteDerivedLoop) async throws -> WorkloadOutput {
        let rowName = app.rowName(workload)
        do {
            let loop = try make(app)
            var k = 0
            for _ in 0..<DerivedMeasurement.countedWrites {
                loop.write(k)
                k += 1
            }
            try loop.check(workload)
            let counting = CountedWrites(self)
            let writesPerOperation = counting.writesPerOperation
            let measured = try await counting.context.measureCost(
                { iterations in
                    for _ in 0..<iterations * writesPerOperation {
                        loop.write(k)
                        k &+= 1
                    }
                },
                emptyBatch: { iterations in
                    for _ in 0..<iterations * writesPerOperation {
                        blackHole(k & 1)
                        k &+= 1
                    }
                }, sampler: DerivedMeasurement.sampler(for: counting.context), label: rowName, maximumDivisor: CountedWrites.maximumDivisor,
                repeatsWhenShortest: CountedWrites.repeatsWhenShortest
            ).perWrite(writesPerOperation: writesPerOperation)
            try loop.check(workload)
            return latencyOutput(
                workload: rowName, subscribers: loop.viewCount, measured: measured,
                note:
                    "\(workload)'s write and derivation written as an app would: \(app.summary), in a tight loop; each invalidated view re-run once after the write; no protocol, store, field enum or derived-view bookkeeping\(counting.note)"
            )
        } catch {
            var row = ResultRow.error(runID: runID, suite: suite, strategy: strategyName, message: "\(rowName) failed: \(error)")
            row.workload = rowName
            return WorkloadOutput(rows: [row])
        }
    }
}
