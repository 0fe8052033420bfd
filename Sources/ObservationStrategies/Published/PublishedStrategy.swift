#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif

/// `ObservableObject` records with `@Published` fields; each view sinks `objectWillChange` of every
/// record it reads (OpenCombine 0.14 on Linux, Combine on Apple platforms).
///
/// `objectWillChange` fires before the value is stored and for *any* `@Published` field of the
/// object, so a view is invalidated by writes to fields it never read: that spurious re-run is the
/// whole-object cost, and it is counted. As in SwiftUI, the view re-runs once the write completes.
/// The publisher is fetched once per subscription: OpenCombine's getter walks the object with
/// `Mirror` on every access.
@MainActor
public final class PublishedStrategy: ObservationStrategy {
    nonisolated public static let descriptor = StrategyDescriptor(
        name: "published",
        summary: "ObservableObject + @Published; views sink objectWillChange",
        dependency: "OpenCombine 0.14 (Combine on Apple platforms)",
        capabilities: Capabilities(
            granularity: .object, deduplicates: false, delivery: .synchronous, transactional: false, coalesces: false, memoizesDerived: false,
            skipsUnchangedDerived: false)
    )

    /// Computed properties read in the view body, which re-runs after an `objectWillChange` of a
    /// record it reads (the usual way), and a Combine pipeline, `map` then `removeDuplicates()`
    /// (``CombineDerivations``).
    nonisolated public static var derivationStyles: [DerivationStyle] { [.viewBody, .pipeline] }

    private var tasks: [PublishedTask]
    private var subscriptions: [ObjectIdentifier: (view: ViewHandle, cancellables: [AnyCancellable])] = [:]
    private let renderQueue = RenderQueue()
    /// Made by the first derived view: a store that derives nothing allocates nothing for it (the
    /// memory suite's bytes and allocations per object are the store's own).
    private var pipelines: CombineDerivations?
    #if OBSBENCH_CANARY_PUBLISHED_WRITE_OBSERVED
        /// Where the build canary's extra work goes (``BuildCanary``); unchecked, so that no
        /// exclusivity check adds to the canary's known cost (only `write` touches it).
        @exclusivity(unchecked) private var canarySink = 0
    #endif

    public init(records: [TaskRecord]) throws {
        try validateRecordIDs(records)
        tasks = records.map(PublishedTask.init)
    }

    public func read(_ field: TaskField, of id: Int) throws -> FieldValue {
        tasks[try recordIndex(of: id, count: tasks.count)].value(of: field)
    }

    /// A view body reads `@Published` fields through their ordinary getters: there is no tracking.
    public func readInsideView(_ field: TaskField, of id: Int, times: Int) throws -> FieldValue {
        let task = tasks[try recordIndex(of: id, count: tasks.count)]
        var value = task.value(of: field)
        for _ in 1..<max(times, 1) { value = task.value(of: field) }
        return value
    }

    public func write(_ value: FieldValue, to id: Int) throws {
        #if OBSBENCH_CANARY_PUBLISHED_WRITE_OBSERVED
            let task = tasks[try recordIndex(of: id, count: tasks.count)]
            task.apply(value)
            if task.canaryViews > 0 { canarySink = BuildCanary.calledWork(BuildCanary.publishedWriteSteps, seed: canarySink &+ id) }
        #else
            tasks[try recordIndex(of: id, count: tasks.count)].apply(value)
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
        let renderQueue = self.renderQueue
        var seen = Set<Int>()
        let cancellables = spec.reads.compactMap { ref -> AnyCancellable? in
            guard seen.insert(ref.id).inserted else { return nil }
            #if OBSBENCH_CANARY_PUBLISHED_WRITE_OBSERVED
                tasks[ref.id - 1].canaryViews += 1
            #endif
            let objectWillChange = tasks[ref.id - 1].objectWillChange
            return objectWillChange.sink { _ in renderQueue.invalidate(view) }
        }
        subscriptions[ObjectIdentifier(view)] = (view, cancellables)
        runBody(of: view)
        return view
    }

    public func unsubscribe(_ view: ViewHandle) {
        view.cancel()
        #if OBSBENCH_CANARY_PUBLISHED_WRITE_OBSERVED
            for id in Set(view.spec.reads.map(\.id)) where subscriptions[ObjectIdentifier(view)] != nil { tasks[id - 1].canaryViews -= 1 }
        #endif
        subscriptions.removeValue(forKey: ObjectIdentifier(view))?.cancellables.forEach { $0.cancel() }
    }

    public func settle() async {}

    public func subscribeDerived(_ view: DerivedViewSpec, style: DerivationStyle) throws -> DerivedViewHandle {
        guard Self.derivationStyles.contains(style) else { throw DerivedError.unsupportedStyle(style, strategy: Self.descriptor.name) }
        let pipelines = self.pipelines ?? CombineDerivations()
        self.pipelines = pipelines
        let tasks = self.tasks
        // Each field is a `@Published` property of its own object: a run reads each through its getter.
        return try pipelines.subscribe(view, style: style, records: tasks.count, willChange: { tasks[$0 - 1].objectWillChange }, reads: .objects(tasks))
    }

    public func unsubscribeDerived(_ view: DerivedViewHandle) {
        pipelines?.unsubscribe(view)
    }

    public func tearDown() async {
        pipelines?.tearDown()
        for entry in subscriptions.values {
            entry.view.cancel()
            entry.cancellables.forEach { $0.cancel() }
        }
        subscriptions.removeAll()
        renderQueue.removeAll()
        tasks.removeAll()
    }

    public func objectsThatMustBeFreed() -> [AnyObject] { tasks }

    /// Written out for `PublishedTask` (see `ConcreteLoops`: a loop generic over `TaskFields` adds a witness call).
    public static func concreteLoops(records: [TaskRecord]) -> ConcreteLoops? {
        let tasks = records.map(PublishedTask.init)
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

    private func runBody(of view: ViewHandle) {
        view.recordRun { tasks[$0.id - 1].value(of: $0.field) }
    }

    /// Re-runs every view invalidated by the write that just completed.
    ///
    /// The body does not retain `self`: it runs inside this call, while `self` is alive (a strong
    /// capture cost a retain and a release of `self` on every write; see `ObservableStrategy.render`).
    private func render() {
        renderQueue.render { [unowned(unsafe) self] in self.runBody(of: $0) }
    }
}
