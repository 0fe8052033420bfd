import Foundation
import ObservationStrategies

/// The cost of one write as the number of subscribed views grows, for one topology: write-to-
/// quiescence latency at S = 1, 10, 100, 1,000, 10,000 views (`--quick`: up to 1,000), re-runs
/// delivered and needed per write, and how latency grows with S, from data:
///
/// - `cost_per_view`: b of the least-squares line latency = a + b·S (ns per further view), its
///   95% interval in `ci95_low`/`ci95_high` (``GrowthFit/linearSlopeInterval(_:)``);
/// - `last_decade_slope`: the log-log slope between the two largest S, its interval from the two
///   medians' intervals likewise (``GrowthFit/lastStepSlopeInterval(_:)``);
/// - `growth_exponent`: the log-log least-squares slope over the sweep, with its R²
///   (`growth_exponent_r2`): a + b·S bends on log-log axes, so the exponent alone reads it low.
///
/// The sweep stops early where its growth is already decided and the next point would take long:
/// once latency grew as S^0.9 or faster over the last decade (log-log slope ≥ ``stopSlope``: within
/// a tenth of linear, as a + b·S reads where a is not yet negligible) and the next S is estimated
/// at ``costlyWriteNanoseconds`` or more per write. A cost a + b·S + c·S² with non-negative terms
/// has a log-log slope that never falls as S grows, so the larger points could only make the
/// growth steeper; the rows' notes and the table say where the sweep stopped, and the table gives
/// the growth the last decade's interval supports as a lower bound (GRDB re-fetching for 10,000
/// views that all read one field: seconds per write).
///
/// Every topology uses one store size (the largest S + 1 records, or `--objects` if larger), so
/// topologies differ only in what the views read. Settling costs what the strategy's delivery
/// costs: the asynchronous strategies wait only for the views a write concerned.
///
/// Under `--measure instructions` the same write is counted at each S instead
/// (``CountedScalingSweep``): instructions per write, and b of a + b·S in Ir per further view.
public struct SubscriberScalingWorkload: Workload {
    public let topology: ScalingTopology
    public let countsInstructions = true
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

    /// The log-log slope over the last decade from which a costly sweep stops: 0.9, growth as S^0.9
    /// or steeper (not "at least linear": within a tenth of it).
    public static let stopSlope = 0.9
    /// The estimated write time of the next S from which a decided sweep stops: 0.5 s.
    public static let costlyWriteNanoseconds = 500e6

    /// Whether a sweep whose points so far are `points` stops before `next`: the last decade grew
    /// as S^``stopSlope`` or steeper and `next` would cost ``costlyWriteNanoseconds`` or more per write,
    /// extrapolated at that decade's slope. Returns the slope and the estimate when it stops.
    public static func stopsBefore(_ next: Int, after points: [(subscribers: Int, nanoseconds: Double)]) -> (slope: Double, estimate: Double)? {
        guard points.count >= 2, let slope = GrowthFit.lastStepSlope(points.map { (Double($0.subscribers), $0.nanoseconds) }), slope >= stopSlope else { return nil }
        let last = points[points.count - 1]
        let estimate = last.nanoseconds * pow(Double(next) / Double(last.subscribers), slope)
        return estimate >= costlyWriteNanoseconds ? (slope, estimate) : nil
    }

    public init(topology: ScalingTopology) {
        self.topology = topology
    }

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        if context.measure == .instructions { return try await CountedScalingSweep.run(self, context: context) }
        let counts = Self.subscriberCounts(upTo: context.subscribers ?? (context.quick ? Self.quickLargestSubscriberCount : Self.defaultLargestSubscriberCount))
        let largest = counts.max()!
        let records = max(context.objects, ScalingTopology.allCases.map { $0.recordsNeeded(subscribers: largest) }.max()!)
        let store = try context.measuredStrategy().makeStore(TaskRecord.sample(count: records))
        // Each point gets an eighth of the sampling budget (75 ms; a median of at least 10
        // samples decides a point on a fit over four decades), and at least 10 samples.
        var settings = context.sampler
        settings.budgetNanoseconds /= 8
        settings.warmUpNanoseconds /= 8
        settings.minimumSamples = 10
        var output = WorkloadOutput()
        var views: [ViewHandle] = []
        var points: [(subscribers: Int, nanoseconds: Double)] = []
        var intervals: [GrowthFit.IntervalPoint] = []
        var sequence = 0
        // The empty batch makes the same writes without applying them, from a count of its own: had
        // it advanced `sequence`, an empty batch of 63 (mod 64) would make the next real write the
        // title the last one wrote, which @Observable (Swift 6.2 and later) does not report. A CI
        // run's gate then failed on observable's scaling-disjoint re-runs, 1 -> 0.9998 per write.
        var emptySequence = 0
        var stopped: String?
        for subscribers in counts {
            if let (slope, estimate) = Self.stopsBefore(subscribers, after: points) {
                stopped =
                    "sweep stopped before S = \(subscribers): latency grew as S^\(NumberFormat.fixed(slope, digits: 2)) over the last decade, "
                    + "a growth larger S can only steepen, and S = \(subscribers) would take about \(NumberFormat.nanoseconds(estimate)) per write"
                break
            }
            while views.count < subscribers { views.append(try store.subscribe(topology.view(views.count))) }
            await store.settle()
            // A point whose write takes seconds (GRDB re-fetching for 10,000 views) gets fewer
            // samples, estimated from the previous point as if cost grew linearly with S.
            settings.minimumSamples = Self.minimumSamples(estimatedNanoseconds: points.last.map { $0.nanoseconds * Double(subscribers) / Double($0.subscribers) })
            let rerunsBefore = views.reduce(0) { $0 + $1.reruns }
            var writes = 0
            let sampled = try await Sampler(settings: settings).sample(
                { iterations in
                    for _ in 0..<iterations {
                        sequence &+= 1
                        let write = topology.write(sequence, titles: ScalingTopology.titles)
                        try store.write(write.value, to: write.id)
                        await store.settle()
                    }
                    writes += iterations
                },
                emptyBatch: { iterations in
                    for _ in 0..<iterations {
                        emptySequence &+= 1
                        blackHole(topology.write(emptySequence, titles: ScalingTopology.titles))
                    }
                })
            if let failure = views.lazy.compactMap({ $0.snapshot.failure }).first { throw WorkloadError.viewFailed(failure) }
            let delivered = Double(views.reduce(0) { $0 + $1.reruns } - rerunsBefore) / Double(max(writes, 1))
            let needed = Double(topology.rerunsNeeded(subscribers: subscribers))
            let latency = context.latencyOutput(
                workload: name, objects: records, subscribers: subscribers, measured: .time(sampled),
                note:
                    "\(subscribers) views (\(topology.rawValue)) on a store of \(records); settle() after each write; \(sampled.nanosecondsPerOperation.count) samples of \(sampled.batchSize) write(s)"
            )
            if let row = latency.rows.first(where: { $0.metric == .latency }), let median = row.value {
                let interval = FloorComparison.interval(of: row)
                intervals.append((Double(subscribers), median, interval.lowerBound, interval.upperBound))
            }
            output.append(latency)
            output.rows += [
                context.countRow(
                    workload: name, objects: records, subscribers: subscribers, metric: .rerunsPerWrite,
                    value: delivered, note: "re-runs delivered over \(writes) writes (warm-up included)"),
                context.countRow(
                    workload: name, objects: records, subscribers: subscribers, metric: .rerunsNeededPerWrite,
                    value: needed, note: "views that read what each write changed"),
                context.countRow(
                    workload: name, objects: records, subscribers: subscribers, metric: .spuriousFraction,
                    value: delivered > 0 ? max(0, delivered - needed) / delivered : 0,
                    note: "share of delivered re-runs that no read field called for"),
            ]
            points.append((subscribers, Statistics.percentile(sampled.nanosecondsPerOperation.sorted(), 0.5)))
        }
        for view in views { store.unsubscribe(view) }
        await store.settle()
        await store.tearDown()
        output.rows += growthRows(points, intervals: intervals, records: records, context: context)
        if let stopped {
            for index in output.rows.indices where output.rows[index].workload == name { output.rows[index].note += "; " + stopped }
        }
        return output
    }

    /// Samples a point gets: 10, or as many as fit in about 2 s when one write is estimated to take
    /// longer than 0.2 s, and never fewer than 3.
    public static func minimumSamples(estimatedNanoseconds: Double?) -> Int {
        guard let estimate = estimatedNanoseconds, estimate > 0 else { return 10 }
        return min(10, max(3, Int(2e9 / estimate)))
    }

    /// The growth figures of a sweep (see the type's documentation).
    /// `intervals` are the latency rows' medians with their 95% intervals: the growth rows carry
    /// their own intervals in `ci95_low`/`ci95_high`.
    private func growthRows(
        _ points: [(subscribers: Int, nanoseconds: Double)], intervals: [GrowthFit.IntervalPoint], records: Int, context: WorkloadContext
    ) -> [ResultRow] {
        let fitted = points.map { (size: Double($0.subscribers), cost: $0.nanoseconds) }
        let sweep = "S = " + points.map { String($0.subscribers) }.joined(separator: ", ")
        let largest = points.map(\.subscribers).max() ?? 1
        func row(_ metric: Metric, _ value: Double, _ note: String, interval: ClosedRange<Double>? = nil) -> ResultRow {
            var row = context.countRow(workload: name, objects: records, subscribers: largest, metric: metric, value: value, note: note)
            if let interval {
                row.statistics?.ci95Low = interval.lowerBound
                row.statistics?.ci95High = interval.upperBound
            }
            return row
        }
        var rows: [ResultRow] = []
        if let line = GrowthFit.linear(fitted) {
            rows.append(
                row(
                    .costPerView, line.slope,
                    "b of the least-squares line latency = a + b·S over \(sweep) (a = \(NumberFormat.nanoseconds(line.intercept)), R² = \(NumberFormat.fixed(line.rSquared, digits: 3))); "
                        + "ci95: the wider of the medians' own intervals and the scatter about the line",
                    interval: GrowthFit.linearSlopeInterval(intervals)))
        }
        if let slope = GrowthFit.lastStepSlope(fitted), points.count >= 2 {
            let (low, high) = (points[points.count - 2].subscribers, points[points.count - 1].subscribers)
            rows.append(
                row(
                    .lastDecadeSlope, slope, "log-log slope from S = \(low) to S = \(high); ~0 is O(1), ~1 is O(S), ~2 is O(S²); ci95 from the two medians' intervals",
                    interval: GrowthFit.lastStepSlopeInterval(intervals)))
        }
        if let (slope, quality) = GrowthFit.logLog(fitted) {
            rows.append(
                row(
                    .growthExponent, slope,
                    "least-squares slope of log(latency) on log(S) over \(sweep), R² = \(NumberFormat.fixed(quality, digits: 3)); reads a + b·S low, see last_decade_slope"))
            rows.append(row(.growthExponentR2, quality, "fit quality of growth_exponent: 1 is a straight line on log-log axes"))
        }
        return rows
    }
}
