import Observation
import Synchronization

#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif

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
