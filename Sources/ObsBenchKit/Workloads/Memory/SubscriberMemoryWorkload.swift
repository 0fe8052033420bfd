import ObservationStrategies

/// Bytes per subscriber: S views on one record (S = 1, 10, 100, 1,000), each reading its title.
public struct SubscriberMemoryWorkload: Workload {
    public let name = "views-on-one-object"
    public let summary = "bytes per subscriber with S = 1, 10, 100, 1000 views on one record"

    public static let subscriberCounts = [1, 10, 100, 1_000]

    public init() {}

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        let probe = try context.memoryProbe()
        let note = context.allocatorNote(probe)
        let store = try context.makeStore()
        await store.settle()
        var output = WorkloadOutput()
        var views: [ViewHandle] = []
        views.reserveCapacity(Self.subscriberCounts.max()!)
        for subscribers in Self.subscriberCounts {
            let start = context.reading(probe)
            for _ in 0..<subscribers { views.append(try store.subscribe(.record(1, .title))) }
            await store.settle()
            let difference = context.reading(probe).since(start)
            let grown = difference.liveBytes
            for view in views { store.unsubscribe(view) }
            views.removeAll(keepingCapacity: true)
            await store.settle()
            let row = context.countRow(
                workload: name, subscribers: subscribers, metric: .bytesPerSubscriber,
                value: Double(grown) / Double(subscribers),
                note: "\(subscribers) views on record 1 of \(context.objects): \(grown) B, obsbench's own view handle included (the same for every strategy); \(note)")
            output.rows.append(row)
            output.heapSpans += [HeapSpan(row: row, difference: difference, quantity: .liveBytes, per: Double(subscribers))].compactMap { $0 }
        }
        await store.tearDown()
        return output
    }
}
