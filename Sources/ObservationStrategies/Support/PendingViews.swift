/// The views an asynchronous strategy's `settle()` must wait for: those a write concerned and
/// those just subscribed, never every view in the store. Settling then costs in proportion to the
/// views notified: with 10,000 idle views and a write that concerns none, it inspects nothing.
///
/// ```swift
/// pending.add(view)                                   // subscribed, or a write concerned it
/// await delivered.waitUntil { pending.drain(whereCaughtUp: \.isCaughtUp) }
/// ```
///
/// `drain` inspects from the newest view back and stops at the first one not caught up, so the
/// repeated checks of one settle (one per delivery) inspect each pending view about once in all.
@MainActor
package final class PendingViews {
    package init() {}

    private var views: [ViewHandle] = []
    /// The views in `views`, so a view notified by many writes is waited for once.
    private var members: Set<ObjectIdentifier> = []
    /// Views inspected by `drain` since the store was made: the cost of settling's bookkeeping,
    /// which tests check does not grow with idle views.
    package private(set) var inspections = 0

    /// Views still waited for.
    package var count: Int { views.count }

    /// Waits for `view` too (once, however often it is added).
    package func add(_ view: ViewHandle) {
        if members.insert(ObjectIdentifier(view)).inserted { views.append(view) }
    }

    /// Stops waiting for anything (teardown).
    package func removeAll() {
        views.removeAll()
        members.removeAll()
    }

    /// Drops the views that have caught up, newest first, until one has not; returns whether none
    /// is left to wait for. A cancelled view must count as caught up in `isCaughtUp`.
    package func drain(whereCaughtUp isCaughtUp: (ViewHandle) -> Bool) -> Bool {
        while let last = views.last {
            inspections += 1
            guard isCaughtUp(last) else { return false }
            members.remove(ObjectIdentifier(last))
            views.removeLast()
        }
        return true
    }
}
