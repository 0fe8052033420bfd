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
/// so its state sits behind a `Mutex`; the harness and tests read it after `settle()`.
public final class ViewHandle: Sendable, Identifiable, CustomStringConvertible {
    public let spec: ViewSpec
    private let state = Mutex(ViewState())

    /// What a view has done so far.
    public struct ViewState: Sendable {
        /// Times the view body ran because of a change (the first run at subscription not included).
        public var reruns = 0
        /// Times the strategy told this view something changed (can exceed `reruns` where
        /// notifications are merged before the view re-runs).
        public var notifications = 0
        /// The values the last run saw, in the order of `spec.reads`.
        public var lastSeen: [FieldValue] = []
        /// Every set of values the view saw, first run included, when history is recorded.
        public var history: [[FieldValue]] = []
        public var recordsHistory = false
        /// Runs that belong to the subscription rather than to a change: 1, plus any catch-up
        /// run a strategy delivers while its subscription is still starting.
        public var initialRunsExpected = 1
        public var initialRunsSeen = 0
        /// Whether the strategy confirms asynchronously that its subscription is in place.
        public var awaitsTrackingStart = false
        public var trackingStarted = false
        public var isCancelled = false
        /// The store version the last run saw (strategies that version their data).
        public var seenVersion = 0
        /// The newest store version known to concern this view (strategies that version their data).
        public var neededVersion = 0
        /// The error that ended the view's subscription, if the strategy reported one.
        public var failure: String?
    }

    /// - Parameter awaitsTrackingStart: the strategy starts tracking asynchronously and will call
    ///   `markTrackingStarted()`; until then the view is not settled, and changes it is told about
    ///   are caught up by the subscription itself rather than counted as re-runs.
    public init(spec: ViewSpec, awaitsTrackingStart: Bool = false) {
        self.spec = spec
        state.withLock {
            $0.recordsHistory = spec.recordsHistory
            $0.awaitsTrackingStart = awaitsTrackingStart
        }
    }

    /// Whether the subscription's first run happened.
    public var hasRun: Bool { state.withLock { $0.initialRunsSeen > 0 } }

    /// A consistent copy of the view's state.
    public var snapshot: ViewState { state.withLock { $0 } }
    public var reruns: Int { state.withLock { $0.reruns } }
    public var notifications: Int { state.withLock { $0.notifications } }
    public var lastSeen: [FieldValue] { state.withLock { $0.lastSeen } }
    public var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Records one run of the view body. The first run is the subscription's, not a re-run.
    /// Returns false (and records nothing) once the view is cancelled.
    @discardableResult
    public func recordRun(_ values: [FieldValue], version: Int = 0) -> Bool {
        state.withLock { state in
            guard !state.isCancelled else { return false }
            if state.initialRunsSeen < state.initialRunsExpected {
                state.initialRunsSeen += 1
            } else {
                state.reruns += 1
            }
            state.lastSeen = values
            state.seenVersion = max(state.seenVersion, version)
            if state.recordsHistory { state.history.append(values) }
            return true
        }
    }

    /// Records that the strategy notified this view of a change. Returns false (and records
    /// nothing) once the view is cancelled.
    @discardableResult
    public func recordNotification(neededVersion: Int = 0) -> Bool {
        state.withLock { state in
            guard !state.isCancelled else { return false }
            if state.awaitsTrackingStart && !state.trackingStarted {
                // The subscription is still starting: it will deliver a catch-up value itself.
                state.initialRunsExpected += 1
                return true
            }
            state.notifications += 1
            state.neededVersion = max(state.neededVersion, neededVersion)
            return true
        }
    }

    /// Records a notification unless it is the one that delivers the subscription's first value.
    public func recordNotificationAfterFirstRun() {
        state.withLock { state in
            guard !state.isCancelled, state.initialRunsSeen > 0 else { return }
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

    /// Whether the view has caught up with every versioned change that concerns it.
    public var isCaughtUp: Bool {
        state.withLock { state in
            if state.isCancelled { return true }
            if state.awaitsTrackingStart && !state.trackingStarted { return false }
            return state.initialRunsSeen >= state.initialRunsExpected && state.seenVersion >= state.neededVersion
        }
    }

    /// Reads every field of the spec through `read`, records the run, and returns the values.
    @discardableResult
    public func run(version: Int = 0, reading read: (FieldRef) -> FieldValue) -> [FieldValue] {
        let values = spec.reads.map(read)
        recordRun(values, version: version)
        return values
    }

    public var description: String { "view(\(spec.reads.map(\.description).joined(separator: ", ")))" }
}
