import Dispatch
import ObservationStrategies

/// Bytes per instance of the isolation a store can be built on: a default actor holding one
/// counter, a class holding a serial `DispatchQueue` and a counter (the GCD way to guard a store),
/// and a plain class holding a counter (the floor: an object and its field); and bytes per empty
/// store of the store-isolation suite (`StoreKind`: the GCD queue store, the `@MainActor` store,
/// the actor store, each with what it publishes to the UI), the design note's "~200 B vs ~64 B".
///
/// It needs no strategy, so it runs only in `plain`'s memory worker and its rows name no strategy
/// (`-`); the kind of isolation is in `executor`.
public struct IsolationFootprintWorkload: Workload {
    public let name = "isolation-footprint"
    public let summary =
        "bytes per default actor, per DispatchQueue-guarded store, per plain class, and per empty store of the store-isolation suite, 10,000 of each (plain's worker only)"

    /// Dispatch allocates and frees a queue's internals on its own threads' schedule.
    public let measuredThreads = MeasuredThreads.poolThreads

    public init() {}

    public static let instances = 10_000

    /// The kinds measured, in `executor` column order.
    public enum Kind: Sendable, CaseIterable, Hashable {
        case defaultActor
        case dispatchQueueStore
        case plainClass
        case store(StoreKind)

        public static var allCases: [Kind] { [.defaultActor, .dispatchQueueStore, .plainClass] + StoreKind.allCases.map(Kind.store) }

        /// Whether the kind's bytes and allocations repeat exactly between runs: not for a store
        /// (the `DispatchQueue`-guarded one, and the store-isolation suite's), whose dispatch
        /// queue's internals dispatch allocates and frees on its own schedule (224.0 against 224 B
        /// per instance seen between two runs; allocations move by a few in 10,000 between builds).
        public var countsExactly: Bool {
            switch self {
            case .dispatchQueueStore, .store: false
            case .defaultActor, .plainClass: true
            }
        }

        /// An exact count, or for a store, reported and not judged.
        public var bytesMetric: Metric { countsExactly ? .bytesPerInstance : .bytesPerStore }

        /// The same for allocations.
        public var allocationsMetric: Metric { countsExactly ? .allocationsPerInstance : .allocationsPerStore }

        public var rawValue: String {
            switch self {
            case .defaultActor: "default-actor"
            case .dispatchQueueStore: "dispatch-queue-store"
            case .plainClass: "plain-class"
            case .store(let kind): kind.rawValue
            }
        }
    }

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        guard context.strategy?.name == RowKey.floorStrategy else { return WorkloadOutput() }
        let probe = try context.memoryProbe()
        var output = WorkloadOutput()
        for (index, kind) in Kind.allCases.enumerated() {
            // The previous kind's instances were just freed; a dispatch queue (and what its
            // queue-specific data holds) is released asynchronously. Let that happen before
            // counting, or those late frees are subtracted from this kind's bytes.
            if index > 0 { try await Task.sleep(for: .milliseconds(100)) }
            var kept: [AnyObject] = []
            kept.reserveCapacity(Self.instances)
            let start = context.reading(probe)
            for index in 0..<Self.instances {
                switch kind {
                case .defaultActor: kept.append(CounterActor(index))
                case .dispatchQueueStore: kept.append(QueueGuardedCounter(index))
                case .plainClass: kept.append(PlainCounter(index))
                case .store(let store): kept.append(store.make() as AnyObject)
                }
            }
            let built = context.reading(probe).since(start)
            withExtendedLifetime(kept) {}
            let count = Double(Self.instances)
            let bytes = ResultRow(
                runID: context.runID, suite: context.suite, workload: name, strategy: RowKey.noStrategy, executor: kind.rawValue,
                objects: Self.instances, subscribers: 0, concurrency: 1, metric: kind.bytesMetric, unit: kind.bytesMetric.unit,
                statistics: Statistics(exact: Double(built.liveBytes) / count),
                note: "\(Self.instances) instances kept alive: \(built.liveBytes) B; \(context.allocatorNote(probe))")
            let allocations = ResultRow(
                runID: context.runID, suite: context.suite, workload: name, strategy: RowKey.noStrategy, executor: kind.rawValue,
                objects: Self.instances, subscribers: 0, concurrency: 1, metric: kind.allocationsMetric, unit: kind.allocationsMetric.unit,
                statistics: built.allocations.map { Statistics(exact: Double($0) / count) },
                note: built.allocations == nil ? "allocation counts need jemalloc" : context.allocatorNote(probe))
            output.rows += [bytes, allocations]
            output.heapSpans += zip([bytes, allocations], [HeapQuantity.liveBytes, .allocations]).compactMap {
                HeapSpan(row: $0, difference: built, quantity: $1, per: count)
            }
        }
        return output
    }
}

/// A default actor guarding one counter.
actor CounterActor {
    var value: Int
    init(_ value: Int) { self.value = value }
}

/// A store guarding one counter with its own serial queue, as GCD-era stores do.
final class QueueGuardedCounter {
    let queue = DispatchQueue(label: "obsbench.queue-store")
    var value: Int
    init(_ value: Int) { self.value = value }
}

/// A plain class holding one counter: what the object alone costs.
final class PlainCounter {
    var value: Int
    init(_ value: Int) { self.value = value }
}
