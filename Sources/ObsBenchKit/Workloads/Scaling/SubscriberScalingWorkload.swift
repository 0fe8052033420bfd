import ObservationStrategies

/// The cost of one write as the number of subscribed views grows, for one topology: write-to-
/// quiescence latency at S = 1, 10, 100, 1,000, 10,000 views (`--quick`: up to 1,000), re-runs
/// delivered and needed per write, and the growth exponent (the slope of latency against S on
/// log-log axes, least squares over the sweep), so "O(S)" or "O(1)" comes from data.
public struct SubscriberScalingWorkload: Workload {
    public let topology: ScalingTopology
    public var name: String { "scaling-\(topology.rawValue)" }
    public var summary: String {
        switch topology {
        case .shared: "S views read one field; write it (S re-runs needed), until quiescence"
        case .disjoint: "view i reads record i; write record 1 (1 re-run needed), until quiescence"
        case .unrelated: "S views read a title; write the same record's isComplete (0 needed), until quiescence"
        case .pending: "S views armed on other records; write record 1 (0 needed), until quiescence"
        }
    }

    /// The largest S of the sweep, full and `--quick`, unless `--subscribers` names one.
    public static let defaultLargestSubscriberCount = 10_000
    public static let quickLargestSubscriberCount = 1_000

    /// The sweep up to `largest`: 1, 10, 100… below it, then `largest` itself.
    public static func subscriberCounts(upTo largest: Int) -> [Int] {
        var counts = [1]
        var next = 10
        while next < largest {
            counts.append(next)
            next *= 10
        }
        if largest > 1 { counts.append(largest) }
        return counts
    }

    public init(topology: ScalingTopology) {
        self.topology = topology
    }

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        let counts = Self.subscriberCounts(upTo: context.subscribers ?? (context.quick ? Self.quickLargestSubscriberCount : Self.defaultLargestSubscriberCount))
        let records = max(context.objects, topology.recordsNeeded(subscribers: counts.max()!))
        let store = try context.strategy.makeStore(TaskRecord.sample(count: records))
        // Each point gets a share of the sampling budget, and at least 10 samples.
        var settings = context.sampler
        settings.budgetNanoseconds /= 4
        settings.warmUpNanoseconds /= 4
        settings.minimumSamples = 10
        var output = WorkloadOutput()
        var views: [ViewHandle] = []
        var points: [(subscribers: Int, nanoseconds: Double)] = []
        var sequence = 0
        for subscribers in counts {
            while views.count < subscribers { views.append(try store.subscribe(topology.view(views.count))) }
            await store.settle()
            let rerunsBefore = views.reduce(0) { $0 + $1.reruns }
            var writes = 0
            let sampled = try await Sampler(settings: settings).sample({ iterations in
                for _ in 0..<iterations {
                    sequence &+= 1
                    let write = topology.write(sequence, titles: ScalingTopology.titles)
                    try store.write(write.value, to: write.id)
                    await store.settle()
                }
                writes += iterations
            }, emptyBatch: { iterations in
                for _ in 0..<iterations {
                    sequence &+= 1
                    blackHole(topology.write(sequence, titles: ScalingTopology.titles))
                }
            })
            if let failure = views.lazy.compactMap({ $0.snapshot.failure }).first { throw WorkloadError.viewFailed(failure) }
            let delivered = Double(views.reduce(0) { $0 + $1.reruns } - rerunsBefore) / Double(max(writes, 1))
            let needed = Double(topology.rerunsNeeded(subscribers: subscribers))
            var latency = context.latencyOutput(
                workload: name, subscribers: subscribers, measured: .time(sampled),
                note: "\(subscribers) views (\(topology.rawValue)) on a store of \(records); settle() after each write")
            for index in latency.rows.indices { latency.rows[index].objects = records }
            output.append(latency)
            output.rows += [
                context.countRow(workload: name, objects: records, subscribers: subscribers, metric: "reruns_per_write", unit: "reruns/write",
                                 value: delivered, note: "re-runs delivered over \(writes) writes (warm-up included)"),
                context.countRow(workload: name, objects: records, subscribers: subscribers, metric: "reruns_needed_per_write", unit: "reruns/write",
                                 value: needed, note: "views that read what each write changed"),
                context.countRow(workload: name, objects: records, subscribers: subscribers, metric: "spurious_fraction", unit: "fraction",
                                 value: delivered > 0 ? max(0, delivered - needed) / delivered : 0,
                                 note: "share of delivered re-runs that no read field called for"),
            ]
            points.append((subscribers, Statistics.percentile(sampled.nanosecondsPerOperation.sorted(), 0.5)))
        }
        for view in views { store.unsubscribe(view) }
        await store.settle()
        await store.tearDown()
        if let slope = GrowthFit.logLogSlope(points.map { (Double($0.subscribers), $0.nanoseconds) }) {
            output.rows.append(context.countRow(
                workload: name, objects: records, subscribers: counts.max()!, metric: "growth_exponent", unit: "log-log slope",
                value: slope,
                note: "least-squares slope of log(latency) on log(S) over S = \(counts.map(String.init).joined(separator: ", ")); ~0 is O(1), ~1 is O(S)"))
        }
        return output
    }
}
