import Synchronization

/// The views invalidated since the last render pass, for strategies whose notifications arrive
/// synchronously *before* the new value is stored (`withObservationTracking`'s `onChange`,
/// `objectWillChange`). Like SwiftUI, such a strategy marks the view dirty in the callback and
/// re-runs it after the write has completed: here, at the end of each `write`/`transaction` call.
///
/// What the harness adds to a write stays out of the strategy's figures: with nothing queued a
/// render pass is one atomic load (no lock, as `plain`, which has none, pays nothing), and the
/// queue's two buffers are swapped rather than handed out, so a pass allocates nothing (unless
/// several views need de-duplicating).
///
/// Sendable because observation callbacks are `@Sendable`; the lock makes marking safe from any thread.
final class RenderQueue: Sendable {
    private struct Buffers {
        /// Views queued since the last pass.
        var queue: [ViewHandle] = []
        /// The previous pass's buffer, emptied, capacity kept.
        var spare: [ViewHandle] = []
    }

    private let buffers = Locked(Buffers())
    /// Whether anything may be queued: set after queuing, cleared when a pass takes the queue.
    private let pending = Atomic<Bool>(false)

    /// Records the notification and queues the view for the next render pass.
    func invalidate(_ view: ViewHandle) {
        guard view.recordNotification() else { return }
        buffers.withLock { $0.queue.append(view) }
        pending.store(true, ordering: .releasing)
    }

    /// Runs `body` once for each queued view that is not cancelled, in the order they were first
    /// invalidated. Views `body` queues again wait for the next pass. With nothing queued, this is
    /// one atomic load inlined into the write.
    @inline(__always)
    func render(_ body: (ViewHandle) -> Void) {
        if pending.load(ordering: .acquiring) { drain(body) }
    }

    @inline(never)
    private func drain(_ body: (ViewHandle) -> Void) {
        var views = buffers.withLock { buffers -> [ViewHandle] in
            pending.store(false, ordering: .relaxed)
            swap(&buffers.queue, &buffers.spare)
            let taken = buffers.spare
            buffers.spare = []
            return taken
        }
        if views.count > 1 {
            var seen = Set<ObjectIdentifier>()
            views.removeAll { !seen.insert(ObjectIdentifier($0)).inserted }
        }
        for view in views where !view.isCancelled { body(view) }
        views.removeAll(keepingCapacity: true)
        buffers.withLock { $0.spare = views }
    }

    /// Forgets every queued view (teardown).
    func removeAll() {
        buffers.withLock { $0.queue.removeAll() }
    }
}
