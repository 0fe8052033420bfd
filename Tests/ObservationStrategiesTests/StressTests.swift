import BuiltInStrategies
import ObservationStrategies
import Testing

/// Drives one store from several tasks on the cooperative pool at once: every strategy is a
/// main-actor store, so each writer hops to the main actor for each read-modify-write, and the
/// writers' hops interleave in whatever order the threads arrive.
///
/// The harness counts what happened (updates lost, reads that went back in time, each view's
/// re-runs); the tests check that it counts right, on fixture stores that lose updates and re-run
/// views on purpose. Of the built-in strategies they check only what each declares, as the
/// conformance kit's rule 4 does: a view ends on the store's own final value and re-runs per write
/// as its declared granularity, deduplication and coalescing say. How many updates a built-in
/// strategy loses is a measured outcome, not a test's to require (issue 44).
@Suite("Stress", .timeLimit(.minutes(2)))
@MainActor
struct StressTests {
    nonisolated static let writers = 4
    nonisolated static let incrementsPerWriter = 250
    nonisolated static let total = writers * incrementsPerWriter

    /// The store, handed to pool tasks: a main-actor class is Sendable, each call a hop to it.
    @MainActor
    final class SharedStore {
        let store: any ObservationStrategy
        private(set) var counterReads: [Int] = []

        init(_ store: any ObservationStrategy) { self.store = store }

        /// Record 1's priority is the shared counter; writer `w` also stamps record `w + 1`'s title.
        func increment(writer: Int, step: Int) throws {
            guard case .priority(let count) = try store.read(.priority, of: 1) else { throw StressFailure.wrongField }
            try store.write(.priority(count + 1), to: 1)
            try store.write(.title("writer \(writer) step \(step)"), to: writer + 1)
        }

        func readCounter() throws -> Int {
            guard case .priority(let count) = try store.read(.priority, of: 1) else { throw StressFailure.wrongField }
            counterReads.append(count)
            return count
        }
    }

    enum StressFailure: Error { case wrongField }

    /// What one stress run counted.
    struct Outcome {
        /// The counter before and after the writers, as the store read it.
        var start: Int
        var final: Int
        /// Updates the counter does not show: `start + total − final`.
        var lostUpdates: Int { start + StressTests.total - final }
        /// Reads of the counter lower than the read before them.
        var readsBackInTime: Int
        /// The view of the counter (record 1's priority), and each writer's view of its stamp.
        var counterView: ViewHandle.ViewState
        var stampViews: [ViewHandle.ViewState]
    }

    /// Reads lower than the read before them.
    nonisolated static func backInTime(_ reads: [Int]) -> Int {
        zip(reads, reads.dropFirst()).count { $1 < $0 }
    }

    /// Runs `writers` pool tasks of `incrementsPerWriter` increments each, and a reader, against
    /// `store` (records 1...writers + 1), then settles and counts.
    static func stress(_ store: any ObservationStrategy) async throws -> Outcome {
        let shared = SharedStore(store)
        let start = try shared.readCounter()
        let counterView = try store.subscribe(.record(1, .priority))
        let stampViews = try (1...writers).map { try store.subscribe(.record($0 + 1, .title)) }
        await store.settle()

        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 1...writers {
                group.addTask {
                    for step in 1...incrementsPerWriter {
                        try await shared.increment(writer: writer, step: step)
                        if step.isMultiple(of: 16) { await Task.yield() }
                    }
                }
            }
            group.addTask {
                for _ in 0..<200 {
                    _ = try await shared.readCounter()
                    await Task.yield()
                }
            }
            try await group.waitForAll()
        }
        await store.settle()
        let final = try shared.readCounter()
        return Outcome(
            start: start, final: final, readsBackInTime: backInTime(shared.counterReads), counterView: counterView.snapshot, stampViews: stampViews.map(\.snapshot))
    }

    @Test("the harness counts the updates a store loses and the re-runs its views show, exactly", arguments: [nil, 8] as [Int?], [nil, 5] as [Int?])
    func harnessCounts(dropEvery: Int?, extraRunEvery: Int?) async throws {
        let store = try CountingFixtureStore(records: TaskRecord.sample(count: Self.writers + 1), dropEvery: dropEvery, extraRunEvery: extraRunEvery)
        let outcome = try await Self.stress(store)
        let lost = dropEvery.map { Self.total / $0 } ?? 0
        #expect(store.droppedWrites == lost, "the fixture dropped what it was told to")
        #expect(outcome.lostUpdates == lost)
        #expect(outcome.final == outcome.start + Self.total - lost)
        #expect(outcome.readsBackInTime == 0)
        // The counter's view re-runs once per write the store kept; each stamp view once per
        // write, and once more for every `extraRunEvery`th.
        #expect(outcome.counterView.reruns == Self.total - lost)
        #expect(outcome.counterView.lastSeen == [.priority(outcome.final)])
        for (index, view) in outcome.stampViews.enumerated() {
            #expect(view.reruns == Self.incrementsPerWriter + (extraRunEvery.map { Self.incrementsPerWriter / $0 } ?? 0))
            #expect(view.lastSeen == [.title("writer \(index + 1) step \(Self.incrementsPerWriter)")])
        }
        await store.tearDown()
    }

    @Test("reads are counted as going back in time where one is lower than the read before it")
    func backInTimeCount() {
        #expect(Self.backInTime([]) == 0 && Self.backInTime([3]) == 0)
        #expect(Self.backInTime([1, 1, 2, 5, 5]) == 0)
        #expect(Self.backInTime([1, 4, 2, 3, 1, 6]) == 2)
    }

    @Test(
        "under writers on several pool threads at once, views end on the store's final values and re-run as often as declared",
        arguments: StrategyRegistry.all)
    func concurrentWriters(entry: StrategyEntry) async throws {
        let capabilities = entry.descriptor.capabilities
        let store = try entry.makeStore(TaskRecord.sample(count: Self.writers + 1))
        let outcome = try await Self.stress(store)

        // What rule 4 of the conformance kit checks, derived from the declared capabilities: a
        // store that observes shows its views the final values, one that does not shows them none.
        let observes = capabilities.granularity != .none
        let stamps = try (1...Self.writers).map { try store.read(.title, of: $0 + 1) }
        #expect(outcome.counterView.lastSeen == [.priority(observes ? outcome.final : outcome.start)])
        for (index, view) in outcome.stampViews.enumerated() {
            #expect(view.lastSeen == [observes ? stamps[index] : .title("Task \(index + 2)")])
        }
        // Every write changed the value its view reads, so a strategy that neither coalesces nor
        // ignores changes re-runs once per write; a coalescing one at least once, at most that.
        // A store-granular one without deduplication re-runs every view for every write (each
        // increment writes the counter and the writer's stamp).
        let everyWrite = capabilities.granularity == .store && !capabilities.deduplicates
        for (view, ownWrites) in [(outcome.counterView, Self.total)] + outcome.stampViews.map({ ($0, Self.incrementsPerWriter) }) {
            let writes = everyWrite ? 2 * Self.total : ownWrites
            if !observes {
                #expect(view.reruns == 0)
            } else if capabilities.coalesces {
                #expect((1...writes).contains(view.reruns), "\(view.reruns) re-runs for \(writes) writes")
            } else {
                #expect(view.reruns == writes, "\(view.reruns) re-runs for \(writes) writes")
            }
            #expect(view.failure == nil)
        }
        await store.tearDown()
    }
}

/// A fixture that breaks its declaration on purpose, for the harness to count: `plain`'s records,
/// with views of its own re-run synchronously after each write to a field they read. Every
/// `dropEvery`th write to the counter (record 1's priority) is lost: neither stored nor shown.
/// Every `extraRunEvery`th write to a record's title re-runs that title's views twice.
@MainActor
final class CountingFixtureStore: ForwardingStore {
    nonisolated static let descriptor = StrategyDescriptor(
        name: "counting-fixture", summary: "plain records, views re-run per write; loses counter writes and re-runs views twice on purpose", dependency: "none",
        capabilities: Capabilities(granularity: .property, deduplicates: false, delivery: .synchronous, transactional: false, coalesces: false))

    let inner: PlainStrategy
    private let dropEvery: Int?
    private let extraRunEvery: Int?
    private var views: [ViewHandle] = []
    private var counterWrites = 0
    private var titleWrites: [Int: Int] = [:]
    /// Counter writes lost so far.
    private(set) var droppedWrites = 0

    init(records: [TaskRecord], dropEvery: Int?, extraRunEvery: Int?) throws {
        inner = try PlainStrategy(records: records)
        self.dropEvery = dropEvery
        self.extraRunEvery = extraRunEvery
    }

    convenience init(records: [TaskRecord]) throws { try self.init(records: records, dropEvery: nil, extraRunEvery: nil) }

    func write(_ value: FieldValue, to id: Int) throws {
        var runs = 1
        switch (value.field, id) {
        case (.priority, 1):
            counterWrites += 1
            if let dropEvery, counterWrites.isMultiple(of: dropEvery) {
                droppedWrites += 1
                return
            }
        case (.title, _):
            titleWrites[id, default: 0] += 1
            if let extraRunEvery, titleWrites[id]!.isMultiple(of: extraRunEvery) { runs = 2 }
        default: break
        }
        try inner.write(value, to: id)
        let changed = FieldRef(id, value.field)
        for view in views where view.spec.reads.contains(changed) {
            for _ in 0..<runs { view.recordRun(try view.spec.reads.map { try inner.read($0.field, of: $0.id) }) }
        }
    }

    func transaction(_ writes: [FieldWrite]) throws {
        for write in writes { _ = try inner.read(write.value.field, of: write.id) }
        for write in writes { try self.write(write.value, to: write.id) }
    }

    func subscribe(_ spec: ViewSpec) throws -> ViewHandle {
        let view = try inner.subscribe(spec)
        views.append(view)
        return view
    }

    func unsubscribe(_ view: ViewHandle) {
        inner.unsubscribe(view)
        views.removeAll { $0 === view }
    }

    func settle() async {}

    func tearDown() async {
        views.removeAll()
        await inner.tearDown()
    }

}
