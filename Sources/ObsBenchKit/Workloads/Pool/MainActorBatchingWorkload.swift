import ObservationStrategies

/// 1,000 items sent from a background task to a main-actor view: one hop per item, or one hop
/// with all of them. One operation is the 1,000 items; time and voluntary context switches.
public struct MainActorBatchingWorkload: Workload {
    /// How the items reach the main actor.
    public enum Delivery: String, Sendable, CaseIterable {
        case perItem = "per-item"
        case batched
    }

    public let name = "main-actor-batching"
    public let summary = "1,000 items from a background task to a main-actor view: a hop per item against one batched hop (time and switches)"

    /// Its rows count the runtime's or dispatch's threads, whose timing moves them.
    public let measuredThreads = MeasuredThreads.poolThreads
    public static let items = 1_000

    public init() {}

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        var output = WorkloadOutput()
        for delivery in Delivery.allCases {
            let view = ItemsView()
            var batches = 0
            let before = ProcessCounters.read()
            let measured = try await context.measureCost(
                { iterations in
                    await Task.detached {
                        for _ in 0..<iterations {
                            switch delivery {
                            case .perItem:
                                for item in 0..<Self.items { await view.append(item) }
                            case .batched:
                                await view.append(contentsOf: Array(0..<Self.items))
                            }
                        }
                    }.value
                    batches += iterations
                },
                emptyBatch: { iterations in
                    await Task.detached { for index in 0..<iterations { blackHole(index) } }.value
                }, sampler: context.storeSampler, label: "\(name) \(delivery.rawValue)")
            let after = ProcessCounters.read()
            guard view.count == batches * Self.items else {
                throw WorkloadError.viewFailed("\(delivery.rawValue): the view holds \(view.count) items, \(batches * Self.items) were sent")
            }
            var latency = context.latencyOutput(
                workload: name, subscribers: 1, measured: measured,
                note:
                    "\(Self.items) items from a detached task to a main-actor view, \(delivery == .perItem ? "one hop each" : "one hop in all"); one op is the \(Self.items) items")
            latency.labelAsHop(executor: delivery.rawValue, callers: 1)
            output.append(latency)
            output.rows.append(
                context.voluntarySwitchesRow(
                    workload: name, metric: .voluntarySwitchesPer1000Items, before: before, after: after,
                    operations: batches, subscribers: 1, executor: delivery.rawValue, note: "\(batches) × \(Self.items) items"))
        }
        return output
    }
}

/// A main-actor view holding the items it was sent.
@MainActor
final class ItemsView {
    private var items: [Int] = []
    var count: Int { items.count }

    func append(_ item: Int) { items.append(item) }
    func append(contentsOf more: [Int]) { items.append(contentsOf: more) }
}
