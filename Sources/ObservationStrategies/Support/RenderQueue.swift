
/// The views invalidated since the last render pass, for strategies whose notifications arrive
/// synchronously *before* the new value is stored (`withObservationTracking`'s `onChange`,
/// `objectWillChange`). Like SwiftUI, such a strategy marks the view dirty in the callback and
/// re-runs it after the write has completed: here, at the end of each `write`/`transaction` call.
///
/// Sendable because observation callbacks are `@Sendable`; the lock makes marking safe from any thread.
final class RenderQueue: Sendable {
    private let dirty = Locked<[ViewHandle]>([])

    /// Records the notification and queues the view for the next render pass.
    func invalidate(_ view: ViewHandle) {
        guard view.recordNotification() else { return }
        dirty.withLock { $0.append(view) }
    }

    /// Takes the queued views, each once, in the order they were first invalidated.
    func takeDirtyViews() -> [ViewHandle] {
        let views = dirty.withLock { queue -> [ViewHandle] in
            defer { queue.removeAll(keepingCapacity: true) }
            return queue
        }
        guard views.count > 1 else { return views }
        var seen = Set<ObjectIdentifier>()
        return views.filter { seen.insert(ObjectIdentifier($0)).inserted }
    }

    /// Forgets every queued view (teardown).
    func removeAll() {
        dirty.withLock { $0.removeAll() }
    }
}
