import Observation

/// `@Observable` records; each view is a `withObservationTracking` scope re-armed after every fire,
/// as SwiftUI does. `onChange` runs synchronously in the setter, *before* the new value is stored,
/// so it only invalidates the view; the view re-runs (and re-arms) when the write call completes.
///
/// A scope that never fires stays registered on its objects until one of its properties changes:
/// unsubscribing cancels the view, and its leftover tracker is dropped at that next change.
@MainActor
public final class ObservableStrategy: ObservationStrategy {
    nonisolated public static let descriptor = StrategyDescriptor(
        name: "observable",
        summary: "@Observable class; views are withObservationTracking scopes re-armed after each fire",
        dependency: "Observation (Swift toolchain)",
        capabilities: Capabilities(
            granularity: .property, deduplicates: false, delivery: .synchronous, transactional: false, coalesces: false, memoizesDerived: false,
            skipsUnchangedDerived: false)
    )

    /// A computed property read in the view body, and a value cached in an `@Observable` cell (``TrackedDerivations``).
    nonisolated public static var derivationStyles: [DerivationStyle] { [.computed, .cached] }

    private var tasks: [ObservableTask]
    private var views: [ObjectIdentifier: ViewHandle] = [:]
    private let renderQueue = RenderQueue()
    private lazy var derivations = TrackedDerivations(records: { [unowned self] in self.tasks.count }) { [unowned self] in
        let tasks = self.tasks
        return { tasks[$0.id - 1].value(of: $0.field) }
    }
    #if OBSBENCH_CANARY_OBSERVABLE_WRITE
        /// Where the build canary's extra work goes (``BuildCanary``); unchecked, so that no
        /// exclusivity check adds to the canary's known cost (only `write` touches it).
        @exclusivity(unchecked) private var canarySink = 0
    #endif

    public init(records: [TaskRecord]) throws {
        try validateRecordIDs(records)
        tasks = records.map(ObservableTask.init)
    }

    public func read(_ field: TaskField, of id: Int) throws -> FieldValue {
        tasks[try recordIndex(of: id, count: tasks.count)].value(of: field)
    }

    public func readInsideView(_ field: TaskField, of id: Int, times: Int) throws -> FieldValue {
        let task = tasks[try recordIndex(of: id, count: tasks.count)]
        return withObservationTracking {
            var value = task.value(of: field)
            for _ in 1..<max(times, 1) { value = task.value(of: field) }
            return value
        } onChange: {
        }
    }

    public func write(_ value: FieldValue, to id: Int) throws {
        tasks[try recordIndex(of: id, count: tasks.count)].apply(value)
        #if OBSBENCH_CANARY_OBSERVABLE_WRITE
            canarySink = BuildCanary.inlineWork(BuildCanary.observableWriteSteps, seed: canarySink &+ id) ^ id
        #endif
        render()
    }

    public func transaction(_ writes: [FieldWrite]) throws {
        for write in writes { _ = try recordIndex(of: write.id, count: tasks.count) }
        for write in writes { tasks[write.id - 1].apply(write.value) }
        render()
    }

    public func subscribe(_ spec: ViewSpec) throws -> ViewHandle {
        try validateViewSpec(spec, count: tasks.count)
        let view = ViewHandle(spec: spec)
        views[ObjectIdentifier(view)] = view
        arm(view)
        return view
    }

    public func unsubscribe(_ view: ViewHandle) {
        view.cancel()
        views[ObjectIdentifier(view)] = nil
    }

    public func settle() async {}

    public func subscribeDerived(_ view: DerivedViewSpec, style: DerivationStyle) throws -> DerivedViewHandle {
        try derivations.subscribe(view, style: style, strategy: Self.descriptor.name)
    }

    public func unsubscribeDerived(_ view: DerivedViewHandle) {
        derivations.unsubscribe(view)
    }

    public func tearDown() async {
        derivations.tearDown()
        for view in views.values { view.cancel() }
        views.removeAll()
        renderQueue.removeAll()
        tasks.removeAll()
    }

    public func objectsThatMustBeFreed() -> [AnyObject] { tasks }

    /// Written out for `ObservableTask` (see `ConcreteLoops`: a loop generic over `TaskFields` adds a witness call).
    public static func concreteLoops(records: [TaskRecord]) -> ConcreteLoops? {
        let tasks = records.map(ObservableTask.init)
        let count = tasks.count
        return ConcreteLoops(
            read: { iterations in
                var sum = 0
                for index in 0..<iterations { sum &+= tasks[index % count].priority }
                return sum
            },
            write: { iterations, first in
                for index in 0..<iterations { tasks[index % count].priority = first &+ index }
            })
    }

    /// The same loops over records whose `priority` is `@ObservationIgnored`.
    public static func ignoredFieldLoops(records: [TaskRecord]) -> ConcreteLoops? {
        let tasks = records.map(ObservationIgnoringTask.init)
        let count = tasks.count
        return ConcreteLoops(
            read: { iterations in
                var sum = 0
                for index in 0..<iterations { sum &+= tasks[index % count].priority }
                return sum
            },
            write: { iterations, first in
                for index in 0..<iterations { tasks[index % count].priority = first &+ index }
            })
    }

    /// Runs the view body inside a tracking scope whose first change invalidates the view.
    private func arm(_ view: ViewHandle) {
        let tasks = self.tasks
        let renderQueue = self.renderQueue
        _ = withObservationTracking {
            view.recordRun { tasks[$0.id - 1].value(of: $0.field) }
        } onChange: {
            renderQueue.invalidate(view)
        }
    }

    /// Re-runs, and so re-arms, every view invalidated by the write that just completed.
    ///
    /// The body does not retain `self`: it runs inside this call, while `self` is alive. Captured
    /// strongly, `self` was retained and released on every write, render or not (+40 Ir a write
    /// under Callgrind, which no app's write pays and `plain`, with no render pass, does not cancel).
    private func render() {
        renderQueue.render { [unowned(unsafe) self] in self.arm($0) }
    }
}
