import Observation
import ObservationStrategies
import Synchronization

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

    private init(store: ConcreteStore, views: ConcreteViews, writes: [FieldWrite], isRight: @escaping @MainActor () -> Bool) {
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

/// The `+pipeline` apps (``ConcreteApp/publishedPipeline``, ``ConcreteApp/publishedContextPipeline``):
/// each view is a pipeline, `pull.map(compute).removeDuplicates().sink(show)`, which the render
/// pass pulls after an `objectWillChange` of what it reads invalidated it.
extension ConcreteDerivedLoop {
    /// A view of `compute`'s value, deduplicated, shown by `show`; pulled once now.
    fileprivate static func pulled<Value: Equatable>(
        _ publishers: [ObservableObjectPublisher], compute: @escaping @MainActor () -> Value, show: @escaping @MainActor (Value) -> Void
    ) -> (view: ConcreteView, pipeline: AnyCancellable) {
        let pull = PassthroughSubject<Void, Never>()
        let pipeline = pull.map { _ in compute() }.removeDuplicates().sink { show($0) }
        return (ConcreteView(publishers) { pull.send(()) }, pipeline)
    }

    fileprivate static func pipelinedFilteredSorted(_ store: ConcreteStore, scenario: DerivedScenario, shown: ConcreteShown) -> ConcreteDerivedLoop {
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

    fileprivate static func pipelinedDiamond(_ store: ConcreteStore, scenario: DerivedScenario, shown: ConcreteShown) -> ConcreteDerivedLoop {
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

    fileprivate static func pipelinedFanOut(_ store: ConcreteStore, width: Int, scenario: DerivedScenario, shown: ConcreteShown) -> ConcreteDerivedLoop {
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

/// A concrete loop's records, as its app holds them (``ConcreteApp``), with each object's
/// `objectWillChange` fetched once (OpenCombine's getter walks the object with `Mirror`).
@MainActor
enum ConcreteStore {
    case observable([ConcreteTask])
    case published([ConcretePublishedTask], willChange: [ObservableObjectPublisher])
    case context(ConcreteContext, willChange: ObservableObjectPublisher)
    case observableContext(ConcreteObservableContext)
    case stateSubject(CurrentValueSubject<[TaskRecord], Never>)
    case structVM(ConcreteRecordContext)

    init(_ app: ConcreteApp, records: [TaskRecord]) {
        switch app {
        case .observable: self = .observable(records.map(ConcreteTask.init))
        case .published, .publishedPipeline:
            let tasks = records.map(ConcretePublishedTask.init)
            self = .published(tasks, willChange: tasks.map(\.objectWillChange))
        case .publishedContext, .publishedContextPipeline:
            let context = ConcreteContext(records: records)
            self = .context(context, willChange: context.objectWillChange)
        case .observableContext: self = .observableContext(ConcreteObservableContext(records: records))
        case .stateSubject: self = .stateSubject(CurrentValueSubject(records))
        case .structVM: self = .structVM(ConcreteRecordContext(records: records))
        }
    }

    /// `write` as an assignment to the concrete property, decided once, outside the loop.
    func setter(_ write: FieldWrite) -> @MainActor () -> Void {
        let index = write.id - 1
        switch (self, write.value) {
        case (.observable(let tasks), .title(let title)): return { tasks[index].title = title }
        case (.observable(let tasks), .isComplete(let isComplete)): return { tasks[index].isComplete = isComplete }
        case (.observable(let tasks), .priority(let priority)): return { tasks[index].priority = priority }
        case (.published(let tasks, _), .title(let title)): return { tasks[index].title = title }
        case (.published(let tasks, _), .isComplete(let isComplete)): return { tasks[index].isComplete = isComplete }
        case (.published(let tasks, _), .priority(let priority)): return { tasks[index].priority = priority }
        case (.context(let context, _), .title(let title)): return { context.records[index].title = title }
        case (.context(let context, _), .isComplete(let isComplete)): return { context.records[index].isComplete = isComplete }
        case (.context(let context, _), .priority(let priority)): return { context.records[index].priority = priority }
        case (.observableContext(let context), .title(let title)): return { context.records[index].title = title }
        case (.observableContext(let context), .isComplete(let isComplete)): return { context.records[index].isComplete = isComplete }
        case (.observableContext(let context), .priority(let priority)): return { context.records[index].priority = priority }
        case (.stateSubject(let subject), .title(let title)): return { subject.value[index].title = title }
        case (.stateSubject(let subject), .isComplete(let isComplete)): return { subject.value[index].isComplete = isComplete }
        case (.stateSubject(let subject), .priority(let priority)): return { subject.value[index].priority = priority }
        case (.structVM(let context), _): return { context.apply(write.value, at: index) }
        }
    }

    /// A field's value, for the check only (never in the measured loop).
    func value(_ ref: FieldRef) -> FieldValue {
        switch self {
        case .observable(let tasks): tasks[ref.id - 1].value(of: ref.field)
        case .published(let tasks, _): tasks[ref.id - 1].value(of: ref.field)
        case .context(let context, _): context.records[ref.id - 1].value(of: ref.field)
        case .observableContext(let context): context.records[ref.id - 1].value(of: ref.field)
        case .stateSubject(let subject): subject.value[ref.id - 1].value(of: ref.field)
        case .structVM(let context): context.records[ref.id - 1].value(of: ref.field)
        }
    }
}

/// The fields a concrete derivation reads, whichever record type holds them.
protocol ConcreteTaskFields {
    var title: String { get }
    var isComplete: Bool { get }
    var priority: Int { get }
}

extension ConcreteTaskFields {
    /// A field's value, for the check only (never in the measured loop).
    func value(of field: TaskField) -> FieldValue {
        switch field {
        case .title: .title(title)
        case .isComplete: .isComplete(isComplete)
        case .priority: .priority(priority)
        }
    }
}

/// A record as an `@Observable` class: the same three stored properties as the `observable`
/// strategy's record class, `ObservableTask`, which its module keeps internal. A copy on purpose:
/// made `package` so that this loop could use it, `ObservableTask` cost `observable`'s measured
/// paths more under Callgrind (read-untracked 255 -> 337 Ir, write-unobserved 614 -> 789,
/// write-observed +1.8%, 5 layouts), as the optimiser no longer treated its accessors as internal.
@Observable
final class ConcreteTask: ConcreteTaskFields {
    var title: String
    var isComplete: Bool
    var priority: Int

    init(_ record: TaskRecord) {
        title = record.title
        isComplete = record.isComplete
        priority = record.priority
    }
}

/// A record as an `ObservableObject` with `@Published` fields, as the `published` strategy's
/// (internal) `PublishedTask` is.
final class ConcretePublishedTask: ObservableObject, ConcreteTaskFields {
    @Published var title: String
    @Published var isComplete: Bool
    @Published var priority: Int

    init(_ record: TaskRecord) {
        title = record.title
        isComplete = record.isComplete
        priority = record.priority
    }
}

/// A context holding every record in one array property, whichever kind of observable object.
protocol ConcreteRecordsContext: AnyObject {
    var records: [TaskRecord] { get }
}

/// The design notes' `Context.Data`: every record in one `@Published` array, as the
/// `published-context` strategy's (internal) `TaskContextData` holds them.
final class ConcreteContext: ObservableObject, ConcreteRecordsContext {
    @Published var records: [TaskRecord]

    init(records: [TaskRecord]) {
        self.records = records
    }
}

/// The same context as one `@Observable` class, as the `observable-context` strategy's (internal)
/// `TaskContext` holds it.
@Observable
final class ConcreteObservableContext: ConcreteRecordsContext {
    var records: [TaskRecord]

    init(records: [TaskRecord]) {
        self.records = records
    }
}

extension TaskRecord: ConcreteTaskFields {}

/// The filtered, sorted list as a computed property, as an app's model would have it: the ids of
/// incomplete tasks (records 2...N) whose title contains record 1's, by priority, then id; a
/// completed task's title and priority are not read.
enum ConcreteFilteredList {
    static func listed<Tasks: RandomAccessCollection<Task>, Task: ConcreteTaskFields>(_ tasks: Tasks) -> [Int] where Tasks.Index == Int {
        let query = tasks[tasks.startIndex].title
        var listed: [(priority: Int, id: Int)] = []
        for index in (tasks.startIndex + 1)..<tasks.endIndex {
            let task = tasks[index]
            guard !task.isComplete, task.title.contains(query) else { continue }
            listed.append((task.priority, index + 1))
        }
        listed.sort { ($0.priority, $0.id) < ($1.priority, $1.id) }
        return listed.map(\.id)
    }
}

/// The diamond as computed properties: each of `double` and `triple` reads `source` again.
@MainActor
struct ConcreteDiamond<Task: ConcreteTaskFields> {
    let task: Task

    var source: Int { task.priority }
    var double: Int { source * 2 }
    var triple: Int { source * 3 }
}

/// The diamond over a context: `source` reads the records' array each time.
@MainActor
struct ConcreteContextDiamond<Context: ConcreteRecordsContext> {
    let context: Context

    var source: Int { context.records[0].priority }
    var double: Int { source * 2 }
    var triple: Int { source * 3 }
}

/// The `struct-vm` app's store, as the strategy's (internal) `RecordContext` is: struct records
/// in an array, and an identity map by id of the `@Observable` view models alive (weakly held).
/// A write updates the struct, then the record's view model if one is alive. The loop holds the
/// view models its derivations read (``held``), as the strategy holds its derived views'.
@MainActor
final class ConcreteRecordContext {
    private(set) var records: [TaskRecord]
    private var viewModels: [Int: Weak] = [:]
    private var held: [ConcreteTask] = []

    struct Weak {
        weak var object: ConcreteTask?
    }

    init(records: [TaskRecord]) {
        self.records = records
    }

    /// Record `index`'s view model, made now if none is alive, and held.
    func viewModel(for index: Int) -> ConcreteTask {
        let id = records[index].id
        if let existing = viewModels[id]?.object { return existing }
        let made = ConcreteTask(records[index])
        viewModels[id] = Weak(object: made)
        held.append(made)
        return made
    }

    /// The struct updated, then the live view model (`write`'s value decided once, by the setter).
    func apply(_ value: FieldValue, at index: Int) {
        records[index].apply(value)
        guard let viewModel = viewModels[records[index].id]?.object else { return }
        switch value {
        case .title(let title): viewModel.title = title
        case .isComplete(let isComplete): viewModel.isComplete = isComplete
        case .priority(let priority): viewModel.priority = priority
        }
    }
}

/// A derived value cached as an app caches one in an `@Observable` model: a cell, its value
/// computed under `withObservationTracking` and computed again, at the next render pass, after
/// something it read changed; the new value assigned whether or not it equals the old (a plain
/// `cell.value = f(...)`). Views that read ``value`` track the cell. The cell is a class of its
/// value's own type, as an app's model is (an `@Observable` generic class builds its key paths at
/// run time on every access: measured, it made this loop dearer than the harness).
@MainActor
final class ConcreteCache<Cell: ConcreteCell>: ConcreteRefreshing {
    private let cell: Cell
    private let compute: @MainActor () -> Cell.Value
    /// Where the cache is queued when something it read changed (set by ``ConcreteViews``).
    private var dirty: (queue: InvalidatedViews, index: Int)?

    init(_ cell: Cell, _ compute: @escaping @MainActor () -> Cell.Value) {
        self.cell = cell
        self.compute = compute
        cell.value = compute()
    }

    var value: Cell.Value { cell.value }

    func arm(_ queue: InvalidatedViews, index: Int) {
        dirty = (queue, index)
        refresh()
    }

    func refresh() {
        guard let (queue, index) = dirty else { return }
        cell.value = withObservationTracking {
            compute()
        } onChange: {
            queue.append(index)
        }
    }
}

/// A cache a render pass brings up to date before it re-runs views (``ConcreteCache``).
@MainActor
protocol ConcreteRefreshing: AnyObject {
    func arm(_ queue: InvalidatedViews, index: Int)
    func refresh()
}

/// An `@Observable` class holding one cached value.
@MainActor
protocol ConcreteCell: AnyObject {
    associatedtype Value
    var value: Value { get set }
}

/// A cached number (a fan-out value, the diamond's nodes).
@Observable
final class ConcreteNumberCell: ConcreteCell {
    var value = 0
}

/// A cached list of record ids (the filtered, sorted list).
@Observable
final class ConcreteListCell: ConcreteCell {
    var value: [Int] = []
}

/// What the concrete views last showed: a view body's output goes here (one store), for the check
/// after the loop.
@MainActor
final class ConcreteShown {
    var list: [Int] = []
    var pair = (0, 0)
    var fan: [Int] = []
}

/// One concrete view: its body, and the publishers whose `objectWillChange` invalidates it (none:
/// Observation tracks what the body reads).
@MainActor
struct ConcreteView {
    let publishers: [ObservableObjectPublisher]
    let body: @MainActor () -> Void

    init(_ publishers: [ObservableObjectPublisher] = [], body: @escaping @MainActor () -> Void) {
        self.publishers = publishers
        self.body = body
    }
}

/// View bodies, each run once now and again at the render pass after something it read changed:
/// under `withObservationTracking` (a view with no publishers), or invalidated by a sink on each
/// of its publishers, made once.
@MainActor
final class ConcreteViews {
    private let views: [ConcreteView]
    private let invalidated = InvalidatedViews()
    /// Cached values (``ConcreteCache``), in graph order, and those whose inputs changed since
    /// the last pass.
    private let caches: [any ConcreteRefreshing]
    private let dirtyCaches = InvalidatedViews()
    private var cancellables: [AnyCancellable] = []
    /// Selector views (``init(pipelines:)``), which the subject runs as it sends.
    private let pipelines: Int
    var count: Int { views.count + pipelines }

    /// Selector views (`state-subject`): each the sink at the end of its pipeline, run by the
    /// subject as it sends, already subscribed; a render pass has nothing to do.
    init(pipelines: [AnyCancellable]) {
        views = []
        caches = []
        cancellables = pipelines
        self.pipelines = pipelines.count
    }

    /// `caches` are armed first, in order, then the views run. `holding`: what the views need
    /// kept alive (the pipelines their bodies pull).
    init(_ views: [ConcreteView], caches: [any ConcreteRefreshing] = [], holding: [AnyCancellable] = []) {
        self.views = views
        self.caches = caches
        cancellables = holding
        pipelines = 0
        for (index, cache) in caches.enumerated() { cache.arm(dirtyCaches, index: index) }
        let invalidated = self.invalidated
        for (index, view) in views.enumerated() {
            for publisher in view.publishers { cancellables.append(publisher.sink { _ in invalidated.append(index) }) }
        }
        for index in views.indices { run(index) }
    }

    /// Brings every cache whose inputs changed up to date, in graph order (what that dirties in
    /// turn too), then re-runs (and so re-arms) every view invalidated since the last pass.
    func render() {
        if !caches.isEmpty {
            while true {
                let dirty = dirtyCaches.takeAll()
                if dirty.isEmpty { break }
                for index in dirty.sorted() { caches[index].refresh() }
            }
        }
        for index in invalidated.takeAll() { run(index) }
    }

    private func run(_ index: Int) {
        let view = views[index]
        guard view.publishers.isEmpty else { return view.body() }
        let invalidated = self.invalidated
        withObservationTracking {
            view.body()
        } onChange: {
            invalidated.append(index)
        }
    }
}

/// The views invalidated since the last render pass, in order. `onChange` runs in the setter, on
/// the writing thread, and must be `@Sendable`: hence the lock.
final class InvalidatedViews: Sendable {
    private let queue = Mutex<[Int]>([])

    func append(_ index: Int) {
        queue.withLock { $0.append(index) }
    }

    func takeAll() -> [Int] {
        queue.withLock { queued in
            defer { queued.removeAll(keepingCapacity: true) }
            return queued
        }
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
