import ObservationStrategies

/// Bytes per object over a store's life: fresh, after one write to every object (some strategies
/// allocate lazily on first write), with one view on every object, and what is left once the
/// store and its views are gone (a leak shows there). One store per size in the sweep.
///
/// The records are built inside the measured window and released once the store is built, so
/// what counts is what the store keeps (a strategy that keeps the array it was given pays for it).
/// The writes go in transactions of 1,000 (one per record), so strategies whose every commit
/// copies or re-fetches the whole store are not quadratic in N. Views are subscribed up to
/// `maximumViewedObjects` records: 100,000 GRDB observations take minutes to start.
///
/// Each size's leftover is measured against that size's own start, so whatever an earlier size
/// left and a later size's window frees counts against the later one (`grdb-pool` left 322 KB at
/// 1,000 records and 645 KB at 10,000, and −64 B at 100,000). So the workload also writes the
/// largest leftover of the sweep as a row of its own (`peak_bytes_left_after_teardown`), which the
/// gate judges as an exact count.
public struct StoreLifecycleWorkload: Workload {
    public let name = "store-lifecycle"
    public let summary = "bytes per object fresh, after a write to each, with a view on each; bytes left after tear-down"

    public init() {}

    public static let maximumViewedObjects = 10_000

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        let probe = try context.memoryProbe()
        let note = context.allocatorNote(probe)
        var output = WorkloadOutput()
        try await warmUp(context)
        var leftovers: [(objects: Int, bytes: Int, difference: MemoryProbe.Reading)] = []
        for count in context.objectSweep {
            var views: [ViewHandle] = []
            views.reserveCapacity(count)
            let start = context.reading(probe)

            var store: (any ObservationStrategy)? = try context.measuredStrategy().makeStore(TaskRecord.sample(count: count))
            await store?.settle()
            let built = context.reading(probe).since(start)
            let fresh = built.liveBytes
            let freshAllocations = built.allocations

            for first in stride(from: 1, through: count, by: 1_000) {
                let ids = first...Swift.min(first + 999, count)
                try store?.transaction(ids.map { FieldWrite($0, .priority(1_000 + $0)) })
                await store?.settle()
            }
            let writtenReading = context.reading(probe).since(start)
            let written = writtenReading.liveBytes

            let viewing = count <= Self.maximumViewedObjects
            if viewing {
                for id in 1...count { views.append(try store!.subscribe(.record(id, .title))) }
                await store?.settle()
            }
            let viewedReading = context.reading(probe).since(start)
            let viewed = viewedReading.liveBytes

            for view in views { store?.unsubscribe(view) }
            views.removeAll(keepingCapacity: true)
            await store?.settle()
            await store?.tearDown()
            store = nil
            let leftReading = context.reading(probe).since(start)
            let left = leftReading.liveBytes
            withExtendedLifetime(views) {}
            leftovers.append((count, left, leftReading))

            let perObject = Double(count)
            let rows = [
                context.countRow(
                    workload: name, objects: count, subscribers: 0, metric: .freshBytesPerObject,
                    value: Double(fresh) / perObject, note: "store of \(count) records just built: \(fresh) B; \(note)"),
                context.countRow(
                    workload: name, objects: count, subscribers: 0, metric: .freshAllocationsPerObject,
                    value: freshAllocations.map { Double($0) / perObject },
                    note: freshAllocations.map { "\($0) allocations building the store" } ?? "allocation counts need jemalloc (\(JemallocLibrary.installHint))"),
                context.countRow(
                    workload: name, objects: count, subscribers: 0, metric: .writtenBytesPerObject,
                    value: Double(written) / perObject, note: "after one write of priority to every record (transactions of 1000), settled: \(written) B; \(note)"),
                context.countRow(
                    workload: name, objects: count, subscribers: viewing ? count : 0, metric: .viewedBytesPerObject,
                    value: viewing ? Double(viewed) / perObject : nil,
                    note: viewing
                        ? "with one view reading title on every record: \(viewed) B, obsbench's own view handle included (the same for every strategy); \(note)"
                        : "not measured above \(Self.maximumViewedObjects) records (starting 100,000 GRDB observations takes minutes)"),
                context.countRow(
                    workload: name, objects: count, subscribers: 0, metric: .bytesLeftAfterTeardown,
                    value: Double(left), note: "live bytes after unsubscribing, tearDown() and releasing the store, against before it was built; \(note)"),
            ]
            output.rows += rows
            let spans: [(MemoryProbe.Reading, HeapQuantity, Double)] = [
                (built, .liveBytes, perObject), (built, .allocations, perObject), (writtenReading, .liveBytes, perObject),
                (viewedReading, .liveBytes, viewing ? perObject : 0), (leftReading, .liveBytes, 1),
            ]
            output.heapSpans += zip(rows, spans).compactMap { HeapSpan(row: $0, difference: $1.0, quantity: $1.1, per: $1.2) }
        }
        if let peak = leftovers.max(by: { $0.bytes < $1.bytes }), let largest = leftovers.map(\.objects).max() {
            let each = leftovers.map { "N=\($0.objects) \($0.bytes) B" }.joined(separator: ", ")
            let row = context.countRow(
                workload: name, objects: largest, subscribers: 0, metric: .peakBytesLeftAfterTeardown, value: Double(peak.bytes),
                note: "the largest live bytes left after tear-down over the sweep, at N=\(peak.objects) (\(each)); \(note)")
            output.rows.append(row)
            output.heapSpans += [HeapSpan(row: row, difference: peak.difference, quantity: .liveBytes, per: 1)].compactMap { $0 }
        }
        return output
    }

    /// Builds, writes, views and tears down a small store before anything is measured, so the
    /// runtime's one-time allocations (type metadata, protocol conformance caches) made the first
    /// time these paths run do not land in the first point of the sweep.
    @MainActor
    private func warmUp(_ context: WorkloadContext) async throws {
        let store = try context.measuredStrategy().makeStore(TaskRecord.sample(count: 10))
        await store.settle()
        try store.transaction((1...10).map { FieldWrite($0, .priority(1_000 + $0)) })
        await store.settle()
        let views = try (1...10).map { try store.subscribe(.record($0, .title)) }
        await store.settle()
        for view in views { store.unsubscribe(view) }
        await store.settle()
        await store.tearDown()
    }
}
