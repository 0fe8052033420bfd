import Testing

@testable import GRDBStrategies
@testable import ObservationStrategies

/// The asynchronous strategies' `settle()` waits only for the views a write concerned: its
/// bookkeeping (views inspected) must not grow with views that sit idle in the store, or the
/// scaling suite would measure the harness's O(S) instead of the strategy's.
@Suite("Settle bookkeeping", .timeLimit(.minutes(2)))
@MainActor
struct SettleBookkeepingTests {
    /// Views settle inspects over `writes` writes to record 1's title, with `idle` views armed
    /// on other records (none of which a write concerns) and one view reading the written title.
    static func inspections<Store: ObservationStrategy>(
        _ type: Store.Type, idle: Int, writes: Int = 20,
        pending: KeyPath<Store, PendingViews>
    ) async throws -> Int {
        let store = try Store(records: TaskRecord.sample(count: idle + 1))
        let watched = try store.subscribe(.record(1, .title))
        let idleViews = try (0..<idle).map { try store.subscribe(.record($0 + 2, .title)) }
        await store.settle()
        let before = store[keyPath: pending].inspections
        for sequence in 1...writes {
            try store.write(.title("Changed \(sequence)"), to: 1)
            await store.settle()
        }
        let inspected = store[keyPath: pending].inspections - before
        #expect(watched.reruns == writes, "the watched view re-ran once per write")
        #expect(idleViews.allSatisfy { $0.reruns == 0 })
        #expect(store[keyPath: pending].count == 0)
        await store.tearDown()
        return inspected
    }

    @Test("observations: with 1,000 idle views, settling after a write inspects a few views, not 1,000")
    func observations() async throws {
        let pending = \ObservationsStrategy.pending
        let inspected = try await Self.inspections(ObservationsStrategy.self, idle: 1_000, pending: pending)
        #expect((20...100).contains(inspected), "a few inspections per write (one per wake-up of settle), not one per idle view (20,000 or more): \(inspected) for 20 writes")
    }

    @Test("grdb-queue: with 1,000 idle views, settling after a write inspects a few views, not 1,000")
    func grdbQueue() async throws {
        let pending = \GRDBQueueStrategy.pending
        let inspected = try await Self.inspections(GRDBQueueStrategy.self, idle: 1_000, pending: pending)
        #expect((20...100).contains(inspected), "a few inspections per write (one per wake-up of settle), not one per idle view (20,000 or more): \(inspected) for 20 writes")
    }
}
