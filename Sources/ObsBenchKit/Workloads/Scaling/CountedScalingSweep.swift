import ObservationStrategies

/// The scaling sweep under `--measure instructions`: a write with S subscribed views, until every
/// view has re-run, counted in instructions at each S, and the line a + b·S through the counts.
///
/// Each point is counted as the latency suite's write-observed is (``InstructionCounter``): a
/// synchronous strategy's on several records in each layout (its draws), the mean over them; an
/// asynchronous strategy's on record 1, the median of its repeated pairs. A draw on record r
/// subscribes S views placed as the topology places them around r (``ScalingTopology/view(_:base:)``),
/// counts writes to r, and unsubscribes them. What moves a count between processes is per record:
/// whether the written record's tables collide, which depends on where they lie (tens of Ir a
/// write), so a cheap write is drawn on as many records as the latency rows' (80), and a costly
/// one, whose count those tens of Ir barely move, on fewer (``drawnRecords(subscribers:draws:estimatedWrite:)``).
///
/// The sweep is S = 1, 10, 100 (`--quick`) or 1, 10, 100, 1,000, or up to `--subscribers`; after its
/// first two points it stops before a point whose write the line through the last two would put
/// at ``costlyWriteInstructions`` or more (GRDB re-fetching for every view), and its class is then
/// a lower bound.
public enum CountedScalingSweep {
    /// The largest S counted unless `--subscribers` names one: 100 with `--quick`, else 1,000.
    public static let quickLargestSubscriberCount = 100
    public static let largestSubscriberCount = 1_000

    /// The Ir per write from which a sweep stops before the next S: 4 M. Every point is counted
    /// on at least about 300 writes (an asynchronous strategy's probe, warm-ups and three pairs; a
    /// synchronous one's passes and its calls' loops), a minute of Valgrind at 4 M each.
    public static let costlyWriteInstructions = 4_000_000.0

    /// The largest power of two an asynchronous point's loop lengths may be divided by: 64, so that
    /// a write of millions of Ir (GRDB re-fetching for 100 views) is counted on pairs of 3 and 9
    /// writes (quick) rather than 25 and 75 (``InstructionCounter/count(_:emptyBatch:label:maximumDivisor:)``).
    public static let maximumLengthDivisor = 64

    /// Whether a counted sweep whose points so far are `points` (S, Ir per write) stops before
    /// `next`: the line through its last two points, a + b·S, reaches ``costlyWriteInstructions``
    /// per write at `next`. The first two points are always counted. The log-log slope of a cost
    /// a + b·S + c·S² with non-negative terms never falls as S grows, so a stopped sweep's class is
    /// a lower bound ("≥", ``GrowthFit/supportedLabel(slopeInterval:grows:stopped:variable:)``).
    public static func stopsBefore(_ next: Int, after points: [(subscribers: Int, instructions: Double)]) -> Double? {
        guard points.count >= 2, let estimate = estimatedWrite(at: next, after: points) else { return nil }
        return estimate >= costlyWriteInstructions ? estimate : nil
    }

    /// What an asynchronous strategy's counted row's note says: its count includes its delivery
    /// threads, whose timing moves it, and the summary and the gate allow it
    /// ``GatePolicy/defaultAsynchronousInstructionTolerance`` (``isAsynchronous(_:)`` reads it back).
    static let asynchronousNote = "asynchronous delivery: its threads' timing moves the count"

    /// Whether a counted scaling row is an asynchronous strategy's (its note says so).
    public static func isAsynchronous(_ row: ResultRow) -> Bool { row.note.contains(asynchronousNote) }

    /// The views a drawn point may subscribe in one pass over its records: 8,000 (80 records at
    /// S = 100, 8 at S = 1,000).
    public static let viewsPerPass = 8_000

    /// The Ir of counted writes a drawn point spends per drawn operation over its records:
    /// 80 × 20,000 (80 records of a 20 kIr write, 8 of a 200 kIr write, 1 from 1.6 M Ir).
    public static let drawnWriteInstructions = 1_600_000.0

    /// The records a point at `subscribers` views is drawn on, of `draws` (the latency rows'):
    /// all of them, but no more than keep the views subscribed in a pass within ``viewsPerPass``
    /// and, when the write's cost at this S can be estimated (`estimatedWrite`, Ir), its counted
    /// writes within ``drawnWriteInstructions``; at least 1.
    ///
    /// ```swift
    /// // observable, quick: S = 1 → 80; scaling-unrelated (2.4 kIr) at S = 10 and 100 → 80;
    /// // scaling-shared (135 kIr at S = 10) → 11, (1.4 M Ir at S = 100) → 1.
    /// CountedScalingSweep.drawnRecords(subscribers: 10, draws: 80, estimatedWrite: 150_000)  // 10
    /// ```
    public static func drawnRecords(subscribers: Int, draws: Int, estimatedWrite: Double? = nil) -> Int {
        var records = min(draws, viewsPerPass / max(subscribers, 1))
        if let estimatedWrite, estimatedWrite > 0 { records = min(records, Int(drawnWriteInstructions / estimatedWrite)) }
        return max(1, records)
    }

    /// What a write at `subscribers` views will cost, from the points counted so far (S, Ir per
    /// write): the line through the last two, or with one point, that point's cost in proportion
    /// to S (an upper bound of a + b·S with a ≥ 0); nil before the first.
    public static func estimatedWrite(at subscribers: Int, after points: [(subscribers: Int, instructions: Double)]) -> Double? {
        guard let last = points.last else { return nil }
        guard points.count >= 2 else { return last.instructions * Double(subscribers) / Double(max(last.subscribers, 1)) }
        let previous = points[points.count - 2]
        let perView = (last.instructions - previous.instructions) / Double(last.subscribers - previous.subscribers)
        return last.instructions + max(0, perView) * Double(subscribers - last.subscribers)
    }

    /// The S a counted sweep visits, before any stop.
    public static func subscriberCounts(context: WorkloadContext) -> [Int] {
        SubscriberScalingWorkload.subscriberCounts(upTo: context.subscribers ?? (context.quick ? quickLargestSubscriberCount : largestSubscriberCount))
    }

    /// Records in the store of a counted sweep: every topology's views around every drawn record
    /// fit, and at least the largest S + 1, as in the timed sweep (or `--objects` if larger).
    public static func storeRecords(counts: [Int], draws: Int, objects: Int) -> Int {
        let needed = counts.flatMap { subscribers in
            ScalingTopology.allCases.map { $0.recordsNeeded(subscribers: subscribers, base: drawnRecords(subscribers: subscribers, draws: draws)) }
        }
        return max(objects, (counts.max() ?? 1) + 1, needed.max() ?? 1)
    }

    /// Runs the counted sweep of `topology` (see the type's documentation).
    @MainActor
    static func run(_ workload: SubscriberScalingWorkload, context: WorkloadContext) async throws -> WorkloadOutput {
        let topology = workload.topology, name = workload.name
        let strategy = try context.measuredStrategy()
        let synchronous = strategy.descriptor.capabilities.delivery == .synchronous
        let draws = context.instructionSettings.draws
        let counts = subscriberCounts(context: context)
        let records = storeRecords(counts: counts, draws: synchronous ? draws : 1, objects: context.objects)
        let store = try strategy.makeStore(TaskRecord.sample(count: records))
        var output = WorkloadOutput()
        var points: [(subscribers: Int, instructions: Double)] = []
        var sequence = 0
        var failure: String?
        var stopped: String?
        for subscribers in counts {
            if let estimate = stopsBefore(subscribers, after: points) {
                stopped =
                    "sweep stopped before S = \(subscribers): the line through the last two counts reaches "
                    + "\(NumberFormat.instructions(estimate)) per write there, over \(NumberFormat.instructions(costlyWriteInstructions))"
                break
            }
            func emptyLoop(record: Int) -> Batch {
                { iterations in
                    for _ in 0..<iterations {
                        sequence &+= 1
                        blackHole(topology.write(sequence, titles: ScalingTopology.titles, base: record))
                    }
                }
            }
            let drawing: Drawing = { record in
                var views: [ViewHandle] = []
                views.reserveCapacity(subscribers)
                for index in 0..<subscribers { views.append(try store.subscribe(topology.view(index, base: record))) }
                await store.settle()
                return MeasuredDraw(
                    batch: { iterations in
                        for _ in 0..<iterations {
                            sequence &+= 1
                            let write = topology.write(sequence, titles: ScalingTopology.titles, base: record)
                            try store.write(write.value, to: write.id)
                            await store.settle()
                        }
                    },
                    emptyBatch: emptyLoop(record: record),
                    end: {
                        failure = failure ?? views.lazy.compactMap { $0.snapshot.failure }.first
                        for view in views { store.unsubscribe(view) }
                        await store.settle()
                    })
            }
            let label = "\(context.suite) \(name) S=\(subscribers) \(context.strategyName)"
            let counter = InstructionCounter(settings: context.instructionSettings)
            let measured: Counted
            if synchronous, draws > 1 {
                let drawn = drawnRecords(subscribers: subscribers, draws: draws, estimatedWrite: estimatedWrite(at: subscribers, after: points))
                // The empty loop computes the next write and subscribes nothing: its passes set
                // up no views (at S = 100, 8,000 a pass).
                let emptyDrawing: Drawing = { record in MeasuredDraw(batch: { _ in }, emptyBatch: emptyLoop(record: record)) }
                measured = try await counter.count(drawing: drawing, emptyDrawing: emptyDrawing, records: Array(1...drawn), label: label)
            } else {
                let draw = try await drawing(1)
                measured = try await counter.count(draw.batch, emptyBatch: draw.emptyBatch, label: label, maximumDivisor: maximumLengthDivisor)
                try await draw.end()
            }
            if let failure { throw WorkloadError.viewFailed(failure) }
            let counted = context.latencyOutput(
                workload: name, objects: records, subscribers: subscribers, measured: .instructions(measured),
                note: "\(subscribers) views (\(topology.rawValue)) on a store of \(records); settle() after each write" + (synchronous ? "" : "; " + asynchronousNote))
            if let value = Statistics(measured.instructionsPerOperation)?.median { points.append((subscribers, value)) }
            output.append(counted)
        }
        await store.tearDown()
        output.rows += growthRows(points, name: name, records: records, context: context)
        if let stopped {
            for index in output.rows.indices where output.rows[index].workload == name { output.rows[index].note += "; " + stopped }
        }
        return output
    }

    /// b of the line a + b·S through the counts (Ir per further view), and the log-log slope over
    /// the last decade, in this layout; `results.csv` keeps their mean over the layouts. The
    /// summary table fits the layouts' mean counts instead, the same b (a least-squares slope is
    /// linear in the counts).
    static func growthRows(_ points: [(subscribers: Int, instructions: Double)], name: String, records: Int, context: WorkloadContext) -> [ResultRow] {
        let fitted = points.map { (size: Double($0.subscribers), cost: $0.instructions) }
        let sweep = "S = " + points.map { String($0.subscribers) }.joined(separator: ", ")
        let largest = points.map(\.subscribers).max() ?? 1
        var rows: [ResultRow] = []
        if let line = GrowthFit.linear(fitted) {
            rows.append(
                context.countRow(
                    workload: name, objects: records, subscribers: largest, metric: .instructionsPerView, value: line.slope,
                    note:
                        "b of the least-squares line Ir/write = a + b·S over \(sweep) (a = \(NumberFormat.instructions(line.intercept)), R² = \(NumberFormat.fixed(line.rSquared, digits: 6)))"
                ))
        }
        if points.count >= 2, let slope = GrowthFit.lastStepSlope(fitted) {
            let (low, high) = (points[points.count - 2].subscribers, points[points.count - 1].subscribers)
            rows.append(
                context.countRow(
                    workload: name, objects: records, subscribers: largest, metric: .instructionsLastDecadeSlope, value: slope,
                    note: "log-log slope of the counts from S = \(low) to S = \(high); ~0 is O(1), ~1 is O(S), ~2 is O(S²)"))
        }
        return rows
    }
}
