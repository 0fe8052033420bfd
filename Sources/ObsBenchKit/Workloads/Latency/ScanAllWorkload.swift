import ObservationStrategies

/// A total over the whole store: read `priority` of every record, untracked, through the
/// strategy's scan (`readEach`: `read` per record, or GRDB's one query), and sum it, at
/// N = 10,000 and 100,000 records (`--quick`: 10,000), where the records no longer fit in the
/// caches as they do at the latency suite's 1,000. One operation is one whole scan.
///
/// For the strategies with a concrete reference (`ConcreteLoops`: `plain`, `observable`,
/// `published`), the same scan on the strategy's own record type in a tight loop is measured too
/// (`scan-all-concrete`), so the harness's share (an existential call, a record-id check and a
/// field enum per record) can be read off. The empty loop subtracted is the batch's; the scan's
/// own loop over the records belongs to the scan.
///
/// Under `--measure instructions` the scans are counted only with `--cache-sim`, where their L1
/// and last-level misses say how much of a scan's cost is records that no longer fit the caches
/// (a scan is 10,000 to 100,000 reads: counted on loops divided by up to 128, ``maximumDivisor``).
/// Without cache simulation they would add minutes to every instruction run for counts that the
/// per-record latency rows already give.
public struct ScanAllWorkload: Workload {
    public let name = "scan-all"
    public let summary = "read one field of every record untracked and sum it, N = 10,000 and 100,000 (--quick: 10,000); one op is one scan"

    /// Nothing is delivered: the operation's counts are the calling thread's alone.
    public let measuredThreads = MeasuredThreads.callingThread

    /// Its rows: the scan through the protocol, and on the concrete record type.
    public func writesRows(named rowWorkload: String) -> Bool { [name, Self.concreteName].contains(rowWorkload) }
    /// The concrete reference's rows.
    public static let concreteName = "scan-all-concrete"

    /// The store sizes scanned, full and `--quick`.
    public static func sizes(quick: Bool) -> [Int] { quick ? [10_000] : [10_000, 100_000] }

    public init() {}

    public var countsInstructions: Bool { true }

    /// How far a scan's counted loops may be divided: a scan costs 10,000 to 100,000 reads, and
    /// one of `published` at 100,000 records is about 0.5 G Ir (26.6 ms timed). At 128 a costly
    /// scan is counted on 3 and 11 scans (`--quick`: 1 and 4), 3 repeats, after a probe of 7 and a
    /// warm-up of 11: about 60 scans a row, where 64 made it about 130 and `published`'s
    /// 100,000-record rows did not finish within the 900 s worker timeout under `--cache-sim`.
    public static let maximumDivisor = 128

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        var output = WorkloadOutput()
        if context.measure == .instructions, !context.instructionSettings.cacheSimulation { return output }
        // A scan lasts from microseconds to a tenth of a second (GRDB: one query per record):
        // a few samples per round, every round pooled, rather than the 30 of a 1 ms operation.
        var settings = context.sampler
        settings.minimumSamples = 3
        for size in Self.sizes(quick: context.quick) {
            var sized = context
            sized.objects = size
            let records = TaskRecord.sample(count: size)
            let store = try context.measuredStrategy().makeStore(records)
            let measured = try await sized.measureCost(
                { iterations in
                    for _ in 0..<iterations {
                        var sum = 0
                        try store.readEach(.priority, of: 1...size) { value in
                            if case .priority(let priority) = value { sum &+= priority }
                        }
                        blackHole(sum)
                    }
                },
                emptyBatch: { iterations in
                    // The batch's own loop; the scan's loop over the records is part of the scan.
                    for _ in 0..<iterations { blackHole(size) }
                }, sampler: settings, label: name, maximumDivisor: Self.maximumDivisor)
            await store.tearDown()
            output.append(
                sized.latencyOutput(
                    workload: name, subscribers: 0, measured: measured,
                    note: "priority of all \(size) records through the strategy's readEach, summed; one op is one scan"))
            guard let loops = try context.measuredStrategy().makeConcreteLoops(records) else { continue }
            let concrete = try await sized.measureCost(
                { iterations in
                    for _ in 0..<iterations { blackHole(loops.read(size)) }
                },
                emptyBatch: { iterations in
                    for _ in 0..<iterations { blackHole(size) }
                }, sampler: settings, label: Self.concreteName, maximumDivisor: Self.maximumDivisor)
            output.append(
                sized.latencyOutput(
                    workload: Self.concreteName, subscribers: 0, measured: concrete,
                    note: "priority of all \(size) records on the concrete record type in a tight loop, summed; one op is one scan"))
        }
        return output
    }
}
