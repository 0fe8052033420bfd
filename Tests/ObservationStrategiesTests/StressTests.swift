import ObservationStrategies
import Testing

/// Drives one store from several tasks on the cooperative pool at once: every strategy is a
/// main-actor store, so each writer hops to the main actor for each read-modify-write, and the
/// writers' hops interleave in whatever order the threads arrive. The counters must add up.
@Suite("Stress", .timeLimit(.minutes(2)))
@MainActor
struct StressTests {
    nonisolated static let writers = 4
    nonisolated static let incrementsPerWriter = 250

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

    @Test(
        "writers on several pool threads at once lose no update; views end on the final values and re-run as often as declared",
        arguments: StrategyRegistry.all)
    func concurrentWriters(entry: StrategyEntry) async throws {
        let capabilities = entry.descriptor.capabilities
        let shared = SharedStore(try entry.makeStore(TaskRecord.sample(count: Self.writers + 1)))
        let store = shared.store
        let start = try shared.readCounter()
        let counterView = try store.subscribe(.record(1, .priority))
        let stampViews = try (1...Self.writers).map { try store.subscribe(.record($0 + 1, .title)) }
        await store.settle()

        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 1...Self.writers {
                group.addTask {
                    for step in 1...Self.incrementsPerWriter {
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

        let total = Self.writers * Self.incrementsPerWriter
        let final = try shared.readCounter()
        #expect(final == start + total, "lost updates: \(start + total - final)")
        #expect(shared.counterReads == shared.counterReads.sorted(), "a read went back in time")
        #expect(shared.counterReads.allSatisfy { (start...start + total).contains($0) })

        let observes = capabilities.granularity != .none
        #expect(counterView.lastSeen == [.priority(observes ? final : start)])
        for (index, view) in stampViews.enumerated() {
            let expected = observes ? "writer \(index + 1) step \(Self.incrementsPerWriter)" : "Task \(index + 2)"
            #expect(view.lastSeen == [.title(expected)])
        }
        // Every write changed the value its view reads, so a strategy that neither coalesces nor
        // ignores changes re-runs once per write; a coalescing one at least once, at most that.
        // A store-granular one without deduplication re-runs every view for every write (each
        // increment writes the counter and the writer's stamp).
        let everyWrite = capabilities.granularity == .store && !capabilities.deduplicates
        for (view, ownWrites) in [(counterView, total)] + stampViews.map({ ($0, Self.incrementsPerWriter) }) {
            let writes = everyWrite ? 2 * total : ownWrites
            let reruns = view.reruns
            if !observes {
                #expect(reruns == 0)
            } else if capabilities.coalesces {
                #expect((1...writes).contains(reruns), "\(reruns) re-runs for \(writes) writes")
            } else {
                #expect(reruns == writes, "\(reruns) re-runs for \(writes) writes")
            }
            #expect(view.snapshot.failure == nil)
        }
        await store.tearDown()
    }
}
