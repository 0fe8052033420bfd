import ObservationStrategies

/// A store of one's own as a new user writes one with Swift concurrency: its state is an array on
/// the main actor, and an actor fans each new state out to one `AsyncStream` per view, whose
/// main-actor task re-runs the view with it. Every write sends the whole new state; every view
/// re-runs for every state (granularity `.store`, nothing deduplicated or coalesced), after the
/// write returns (asynchronous delivery): `settle()` waits until every view has run every state
/// sent before it.
///
/// Sends, subscriptions and cancellations go to the actor through one ordered stream (its
/// inbox), so a view sees exactly the states written after it subscribed, in order. A
/// transaction applies every write, then sends one state: no view sees one half-applied.
///
/// Whether a write copies the array depends on whether the actor (or a view's stream) still
/// holds the state sent before: the writing thread's own count follows the other threads'
/// timing. It is the third store `.ci/run` gates by `docs/custom-store.md`'s recipe, beside
/// ``DictionaryStore`` and ``CoalescingStore``:
///
/// ```swift
/// ObsBench.main(strategies: StrategyRegistry.all + [StrategyEntry(ActorStreamsStore.self)])
/// ```
@MainActor
public final class ActorStreamsStore: ObservationStrategy {
    nonisolated public static let descriptor = StrategyDescriptor(
        name: "actor-streams",
        summary:
            "records in an array on the main actor; each write sends the new state to an actor that yields it to one AsyncStream per view, re-run by its main-actor task (an asynchronous example from Examples/CustomStore)",
        dependency: "none (Examples/CustomStore)",
        capabilities: Capabilities(granularity: .store, deduplicates: false, delivery: .asynchronous, transactional: true, coalesces: false)
    )

    typealias State = [DictionaryStore.Record]

    private var records: State
    private let inbox: AsyncStream<Fanout.Message>.Continuation
    private let fanout = Fanout()
    private let fanoutTask: Task<Void, Never>
    private var views: [ObjectIdentifier: (view: ViewHandle, task: Task<Void, Never>)] = [:]
    /// Runs of views still owed: each send adds one per view subscribed, each delivery removes one.
    private var owed = 0
    private var settling: [CheckedContinuation<Void, Never>] = []

    public init(records: [TaskRecord]) throws {
        self.records = try [DictionaryStore.Record](validating: records)
        let (messages, inbox) = AsyncStream.makeStream(of: Fanout.Message.self)
        self.inbox = inbox
        let fanout = self.fanout
        fanoutTask = Task { await fanout.run(messages) }
    }

    public func read(_ field: TaskField, of id: Int) throws -> FieldValue {
        try records.value(field, of: id)
    }

    public func readInsideView(_ field: TaskField, of id: Int, times: Int) throws -> FieldValue {
        try records.value(field, of: id, times: times)
    }

    public func write(_ value: FieldValue, to id: Int) throws {
        try records.check(id)
        records[id - 1].apply(value)
        send()
    }

    public func transaction(_ writes: [FieldWrite]) throws {
        for write in writes { try records.check(write.id) }
        for write in writes { records[write.id - 1].apply(write.value) }
        send()
    }

    /// Sends the state as it is now to every view subscribed.
    private func send() {
        owed += views.count
        inbox.yield(.state(records))
    }

    public func subscribe(_ spec: ViewSpec) throws -> ViewHandle {
        guard !spec.reads.isEmpty else { throw StrategyError.emptyView }
        for ref in spec.reads { try records.check(ref.id) }
        let view = ViewHandle(spec: spec)
        let state = records
        _ = view.recordRun { state[$0.id - 1].value(of: $0.field) }
        let (states, continuation) = AsyncStream.makeStream(of: State.self)
        let id = ObjectIdentifier(view)
        inbox.yield(.subscribe(id, continuation))
        // Holds the store weakly: a view's task outlives nothing but its stream.
        let task = Task { [weak self] in
            for await state in states {
                _ = view.recordRun { state[$0.id - 1].value(of: $0.field) }
                self?.delivered()
            }
        }
        views[id] = (view, task)
        return view
    }

    /// One view ran one state: wakes `settle()` when no run is owed.
    private func delivered() {
        owed -= 1
        guard owed == 0 else { return }
        let waiting = settling
        settling.removeAll()
        for continuation in waiting { continuation.resume() }
    }

    public func unsubscribe(_ view: ViewHandle) {
        view.cancel()
        // The states already sent still reach its task (counted, not recorded); then its stream ends.
        guard views.removeValue(forKey: ObjectIdentifier(view)) != nil else { return }
        inbox.yield(.unsubscribe(ObjectIdentifier(view)))
    }

    /// Waits until every view has run every state sent before this call.
    public func settle() async {
        guard owed > 0 else { return }
        await withCheckedContinuation { settling.append($0) }
    }

    public func tearDown() async {
        await settle()
        for (id, entry) in views {
            entry.view.cancel()
            inbox.yield(.unsubscribe(id))
        }
        inbox.finish()
        await fanoutTask.value
        for entry in views.values { await entry.task.value }
        views.removeAll()
        records.removeAll()
    }

    /// The store itself: views' tasks hold it weakly, and the actor never holds it.
    public func objectsThatMustBeFreed() -> [AnyObject] { [self] }
}

/// The actor that fans each state out to the views' streams, in the order the store sent them.
actor Fanout {
    /// What the store sends, in order.
    enum Message: Sendable {
        case state(ActorStreamsStore.State)
        case subscribe(ObjectIdentifier, AsyncStream<ActorStreamsStore.State>.Continuation)
        case unsubscribe(ObjectIdentifier)
    }

    private var streams: [ObjectIdentifier: AsyncStream<ActorStreamsStore.State>.Continuation] = [:]

    /// Handles the store's messages until it finishes the stream; then ends every view's stream.
    func run(_ messages: AsyncStream<Message>) async {
        for await message in messages {
            switch message {
            case .state(let state): for stream in streams.values { stream.yield(state) }
            case .subscribe(let id, let stream): streams[id] = stream
            case .unsubscribe(let id): streams.removeValue(forKey: id)?.finish()
            }
        }
        for stream in streams.values { stream.finish() }
        streams.removeAll()
    }
}
