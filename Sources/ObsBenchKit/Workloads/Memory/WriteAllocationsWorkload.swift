import ObservationStrategies

/// Allocations per write, with no subscriber and with one view reading the written field, each
/// write followed by `settle()` (so delivery's allocations count). For an asynchronous strategy
/// that includes `settle()`'s own waiting when a delivery is pending (a continuation; for GRDB a
/// timeout timer): a few allocations per write that synchronous strategies never pay.
public struct WriteAllocationsWorkload: Workload {
    public let name = "write-allocations"
    public let summary = "allocations and bytes allocated per write (all threads), with 0 and 1 subscriber"

    static let writes = 1_000

    public init() {}

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        let probe = try context.memoryProbe()
        let store = try context.makeStore()
        await store.settle()
        var output = WorkloadOutput()
        var next = 1_000
        for subscribers in [0, 1] {
            let view = subscribers == 1 ? try store.subscribe(.record(1, .priority)) : nil
            await store.settle()
            // Warm-up: lazily created publishers, caches and queues are not a per-write cost.
            for _ in 0..<100 {
                next += 1
                try store.write(.priority(next), to: 1)
                await store.settle()
            }
            // What taking a reading costs, subtracted below (zero with jemalloc; kept honest anyway).
            let before = context.reading(probe)
            let start = context.reading(probe)
            let probeCost = start.since(before)
            for _ in 0..<Self.writes {
                next += 1
                try store.write(.priority(next), to: 1)
                await store.settle()
            }
            let spent = context.reading(probe).since(start)
            let count = spent.allocations.map { $0 - (probeCost.allocations ?? 0) }
            let allocatedBytes = spent.allocatedBytes.map { $0 - (probeCost.allocatedBytes ?? 0) }
            let retained = spent.liveBytes
            if let failure = view?.snapshot.failure { throw WorkloadError.viewFailed(failure) }
            if let view { store.unsubscribe(view) }
            let writes = Double(Self.writes)
            let missing = "needs jemalloc's counters (\(JemallocLibrary.installHint)); \(probe.allocator.description) has none"
            let rows = [
                context.countRow(
                    workload: name, subscribers: subscribers, metric: .allocationsPerWrite,
                    value: count.map { Double($0) / writes },
                    note: count.map {
                        "\($0) allocations over \(Self.writes) writes of priority of record 1, settled after each, all threads (asynchronous strategies: settle()'s own wait included)"
                    } ?? missing),
                context.countRow(
                    workload: name, subscribers: subscribers, metric: .bytesAllocatedPerWrite,
                    value: allocatedBytes.map { Double($0) / writes },
                    note: allocatedBytes.map { "\($0) B allocated over \(Self.writes) writes, all threads (frees not subtracted)" } ?? missing),
                context.countRow(
                    workload: name, subscribers: subscribers, metric: .retainedBytesPerWrite,
                    value: Double(retained) / writes,
                    note: "live bytes after \(Self.writes) writes minus before; \(context.allocatorNote(probe))"),
            ]
            output.rows += rows
            output.heapSpans += zip(rows, [HeapQuantity.allocations, .allocatedBytes, .liveBytes]).compactMap {
                HeapSpan(row: $0, difference: spent, quantity: $1, per: writes)
            }
        }
        await store.tearDown()
        return output
    }
}
