/// A store's render pass for its native derived views: what SwiftUI does once per frame, re-render
/// the views invalidated since the last frame and no others. A view's invalidation
/// (``DerivedViewHandle/invalidate()``) queues it here; ``run()`` renders what is queued, and what
/// rendering queues in turn (a cached value that changed invalidates the views reading it), until
/// nothing is. A frame where no view was invalidated costs one lock, whatever the views subscribed.
///
/// ```swift
/// let pass = DerivedRenderPass()
/// let view = DerivedViewHandle(spec: spec, renderPass: pass)
/// view.setRender { view in /* re-run the body */ }
/// view.invalidate()        // from the observation callback, any thread
/// pass.run()               // on the main actor, after the store settled: the body re-runs
/// ```
///
/// Sendable: invalidations arrive from observation callbacks on any thread; the queue is behind a
/// lock, and rendering happens on the main actor only.
public final class DerivedRenderPass: Sendable {
    private let queue = Locked<[any DerivedRenderable]>([])
    /// The items a pass renders, swapped with the queue's under its lock, so that neither array is
    /// copied or reallocated from one pass to the next. `nonisolated(unsafe)`: only ``run()``, on
    /// the main actor, touches it; unchecked exclusivity because it is never borrowed twice.
    @exclusivity(unchecked) nonisolated(unsafe) private var rendering: [any DerivedRenderable] = []

    public init() {}

    /// Queues `item` for the next pass (from any thread). Callers queue an item once per
    /// invalidation (a view already queued is not queued again).
    public func enqueue(_ item: any DerivedRenderable) {
        queue.withLock { $0.append(item) }
    }

    /// Drops every queued item unrendered (a store tearing down: what they hold is freed).
    public func removeAll() {
        queue.withLock { $0.removeAll() }
    }

    /// Renders every queued item, in the order queued, then whatever that queued, until nothing is.
    @MainActor
    public func run() {
        while true {
            var items = rendering
            rendering = []
            queue.withLock { swap(&$0, &items) }
            if items.isEmpty {
                rendering = items
                return
            }
            items.withUnsafeBufferPointer { queued in
                for index in queued.indices { queued[index].render() }
            }
            items.removeAll(keepingCapacity: true)
            rendering = items
        }
    }
}

/// What a render pass renders: a derived view, or a store's cached values that must be brought up
/// to date before the views reading them.
public protocol DerivedRenderable: AnyObject, Sendable {
    /// Brings this item up to date: re-runs a view's body when it was invalidated.
    @MainActor func render()
}

/// One frame of a set of derived views, as the harness renders it after each settle: every render
/// pass the views belong to runs once, and each view without one that has something to render
/// (the default derivation, whose field view records its runs but queues nothing; a native view
/// with a render closure and no pass) is visited (``DerivedViewHandle/isVisitedEachFrame``). Made
/// once, after subscribing, so that a frame costs what the store's invalidations cost, plus one
/// visit per such view (``visitedEachFrame``: the rows' notes say how many).
@MainActor
public struct DerivedFrame {
    private let passes: [DerivedRenderPass]
    private let visited: [DerivedViewHandle]

    public init(_ views: [DerivedViewHandle]) {
        var seen = Set<ObjectIdentifier>()
        passes = views.compactMap(\.renderPass).filter { seen.insert(ObjectIdentifier($0)).inserted }
        visited = views.filter(\.isVisitedEachFrame)
    }

    /// Views visited in every frame, whether or not anything they read changed.
    public var visitedEachFrame: Int { visited.count }

    /// Renders the frame: the passes, then the visited views (``DerivedViewHandle/catchUp()``).
    public func render() {
        for pass in passes { pass.run() }
        for view in visited { view.catchUp() }
    }
}
