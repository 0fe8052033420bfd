import Synchronization

/// What a subscribed view reads: one or more fields of one or more records.
public struct ViewSpec: Hashable, Sendable {
    public var reads: [FieldRef]
    /// Keep every set of values the view saw (consistency checks), not just the last.
    public var recordsHistory: Bool

    public init(reads: [FieldRef], recordsHistory: Bool = false) {
        self.reads = reads
        self.recordsHistory = recordsHistory
    }

    /// A view reading the given fields of one record.
    public static func record(_ id: Int, _ fields: TaskField...) -> ViewSpec {
        ViewSpec(reads: fields.map { FieldRef(id, $0) })
    }
}

/// A subscribed view: what it reads, what it last saw, and how often it ran.
///
/// Strategies update it from wherever their delivery happens (the main actor, a GRDB queue),
/// so its state sits behind a lock; the harness and tests read it after `settle()`.
public final class ViewHandle: Sendable, Identifiable, CustomStringConvertible {
    public let spec: ViewSpec
    private let state = Locked(ViewState())

    /// What a view has done so far.
    public struct ViewState: Sendable {
        /// Times the view body ran because of a change (the subscription's own runs not included).
        public var reruns = 0
        /// Times the strategy told this view something changed (can exceed `reruns` where
        /// notifications are merged before the view re-runs).
        public var notifications = 0
        /// The values the last run saw, in the order of `spec.reads`.
        public var lastSeen: [FieldValue] = []
        /// Every set of values the view saw, first run included, when `spec.recordsHistory` is set.
        public var history: [[FieldValue]] = []
        /// For each entry of `history`, its place in one order shared by every view of the
        /// process: merging two views' histories by it replays what a `combineLatest` of the two
        /// would have emitted, in order.
        public var historyOrder: [Int] = []
        public var recordsHistory = false
        public var isCancelled = false
        /// The error that ended the view's subscription, if the strategy reported one.
        public var failure: String?
        /// Whether the subscription's first run happened.
        public var hasRun = false
        /// Whether the strategy confirms asynchronously that its subscription is in place.
        public var awaitsTrackingStart = false
        public var trackingStarted = false
        /// The newest data version the view has seen (strategies that version their data).
        public var seenVersion = 0
        /// The newest data version known to concern this view (strategies that version their data).
        public var neededVersion = 0

        /// A view that has not run yet.
        public init() {}
    }

    /// - Parameter awaitsTrackingStart: the strategy starts tracking asynchronously and will call
    ///   `markTrackingStarted()`; until then the view is not settled.
    public init(spec: ViewSpec, awaitsTrackingStart: Bool = false) {
        self.spec = spec
        state.withLock {
            $0.recordsHistory = spec.recordsHistory
            $0.awaitsTrackingStart = awaitsTrackingStart
        }
    }

    /// A consistent copy of the view's state.
    public var snapshot: ViewState { state.withLock { $0 } }
    public var reruns: Int { state.withLock { $0.reruns } }
    public var notifications: Int { state.withLock { $0.notifications } }
    public var lastSeen: [FieldValue] { state.withLock { $0.lastSeen } }
    public var isCancelled: Bool { state.withLock { $0.isCancelled } }
    /// Whether the subscription's first run happened.
    public var hasRun: Bool { state.withLock { $0.hasRun } }
    /// Runs of the view body so far, the subscription's first included, or nil once the view
    /// failed: a look at its counts under the lock, with no copy of the state (the default
    /// derivation's frame visits every view).
    public var runsUnlessFailed: Int? { state.withLock { $0.failure != nil ? nil : ($0.hasRun ? $0.reruns + 1 : 0) } }

    /// Records one run of the view body, which saw data `version` (0 where data is not versioned).
    /// The subscription's first run is not a re-run. Returns false (and records nothing) once the
    /// view is cancelled.
    @discardableResult
    public func recordRun(_ values: [FieldValue], version: Int = 0) -> Bool {
        state.withLock { state in
            guard !state.isCancelled else { return false }
            if state.hasRun { state.reruns += 1 } else { state.hasRun = true }
            state.seenVersion = max(state.seenVersion, version)
            state.lastSeen = values
            if state.recordsHistory { state.appendHistory(values) }
            return true
        }
    }

    /// Records that the strategy notified this view of a change, which the view will have caught
    /// up with once it has seen data `neededVersion` (0 where data is not versioned). Returns false
    /// (and records nothing) once the view is cancelled.
    @discardableResult
    public func recordNotification(neededVersion: Int = 0) -> Bool {
        state.withLock { state in
            guard !state.isCancelled else { return false }
            state.notifications += 1
            state.neededVersion = max(state.neededVersion, neededVersion)
            return true
        }
    }

    /// Records that the view has caught up only once it has seen data `version` (a write changed
    /// something it reads); no notification is counted.
    public func requireVersion(_ version: Int) {
        state.withLock { state in
            guard !state.isCancelled else { return }
            state.neededVersion = max(state.neededVersion, version)
        }
    }

    /// Records a notification unless it is the one that delivers the subscription's first value.
    public func recordNotificationAfterFirstRun() {
        state.withLock { state in
            guard !state.isCancelled, state.hasRun else { return }
            state.notifications += 1
        }
    }

    /// Records that the strategy's subscription is now tracking changes.
    public func markTrackingStarted() {
        state.withLock { $0.trackingStarted = true }
    }

    /// Records the error that ended this view's subscription; the view counts as caught up
    /// (nothing more will arrive) and the failure is visible in `snapshot.failure`.
    public func recordFailure(_ message: String) {
        state.withLock { state in
            state.failure = message
            state.isCancelled = true
        }
    }

    /// Marks the view cancelled: later runs and notifications are ignored.
    public func cancel() {
        state.withLock { $0.isCancelled = true }
    }

    /// Whether the view has caught up: its subscription is tracking and has run, and it has seen
    /// every data version it was notified about.
    public var isCaughtUp: Bool {
        state.withLock { state in
            if state.isCancelled { return true }
            if state.awaitsTrackingStart && !state.trackingStarted { return false }
            return state.hasRun && state.seenVersion >= state.neededVersion
        }
    }

    /// Runs the view body: reads every field of the spec through `read`, in order, into the
    /// view's last-seen values (their storage reused, so a re-run allocates nothing of the
    /// harness's), and records the run. Returns false (and reads nothing) once the view is cancelled.
    /// `read` runs under the view's (non-recursive) lock: it must only read fields, never write
    /// one or call back into this view.
    @discardableResult
    public func recordRun(version: Int = 0, reading read: (FieldRef) -> FieldValue) -> Bool {
        state.withLock { state in
            guard !state.isCancelled else { return false }
            if state.hasRun { state.reruns += 1 } else { state.hasRun = true }
            state.seenVersion = max(state.seenVersion, version)
            state.lastSeen.removeAll(keepingCapacity: true)
            for ref in spec.reads { state.lastSeen.append(read(ref)) }
            if state.recordsHistory { state.appendHistory(state.lastSeen) }
            return true
        }
    }

    /// The order shared by every view's `historyOrder`.
    fileprivate static let historyClock = Atomic<Int>(0)

    public var description: String { "view(\(spec.reads.map(\.description).joined(separator: ", ")))" }
}

extension ViewHandle.ViewState {
    /// Appends one run's values to the history with the next place in the shared order. Called
    /// under the view's lock, so a view's entries are in order, and runs of views delivered on one
    /// thread (the main actor, one delivery queue) are ordered as they ran.
    fileprivate mutating func appendHistory(_ values: [FieldValue]) {
        history.append(values)
        historyOrder.append(ViewHandle.historyClock.add(1, ordering: .relaxed).newValue)
    }
}
