import ObservationStrategies

/// What a workload needs to run against one strategy inside one worker process.
public struct WorkloadContext: Sendable {
    public var runID: String
    public var suite: String
    /// The strategy measured; nil in a suite that measures none (hops, store-isolation, pool),
    /// whose rows name `-`.
    public var strategy: StrategyEntry?
    public var sampler: SamplerSettings
    /// Records in the store the workload builds.
    public var objects: Int
    /// Store sizes a sweeping workload (memory) uses: `--objects` alone when given, else the suite's.
    public var objectSweep: [Int]
    /// Whether the run is `--quick` (sweeps stop earlier).
    public var quick: Bool
    /// The largest subscriber count a subscriber sweep (scaling) reaches; nil means its default.
    public var subscribers: Int?
    /// Whether cost per operation is timed or counted in instructions under Callgrind.
    public var measure: CostMeasure
    /// How instructions are counted, when `measure` is `.instructions`.
    public var instructionSettings: InstructionSettings

    public init(
        runID: String, suite: String, strategy: StrategyEntry?, sampler: SamplerSettings, objects: Int, objectSweep: [Int]? = nil, quick: Bool = false, subscribers: Int? = nil,
        measure: CostMeasure = .time, instructionSettings: InstructionSettings = .standard()
    ) {
        self.runID = runID
        self.suite = suite
        self.strategy = strategy
        self.sampler = sampler
        self.objects = objects
        self.objectSweep = objectSweep ?? [objects]
        self.quick = quick
        self.subscribers = subscribers
        self.measure = measure
        self.instructionSettings = instructionSettings
    }

    /// The strategy measured, for a workload of a suite that measures strategies.
    public func measuredStrategy() throws -> StrategyEntry {
        guard let strategy else { throw WorkloadError.noStrategy(suite: suite) }
        return strategy
    }

    /// What rows name as their strategy: the strategy's name, or `-` when the suite measures none.
    public var strategyName: String { strategy?.name ?? RowKey.noStrategy }

    /// A fresh store of `objects` records of this context's strategy.
    @MainActor
    public func makeStore() throws -> any ObservationStrategy {
        try measuredStrategy().makeStore(TaskRecord.sample(count: objects))
    }
}

/// What a workload measured: result rows and the raw samples behind them; under
/// `--measure instructions`, once the parent has read the worker's dumps, the counted rows'
/// per-function profiles too; for the memory suite, once the parent has read a heap-profiling
/// worker's dumps, the memory rows' allocation sites.
public struct WorkloadOutput: Sendable {
    public var rows: [ResultRow] = []
    public var samples: [SampleRow] = []
    /// The counted rows' profiles (made by the parent, never by the worker).
    public var profiles: [OperationProfile] = []
    /// Profiles that could not be made, as error rows of `profile.csv`.
    public var profileErrors: [ProfileRow] = []
    /// In a heap-profiling memory worker, the profiles each memory row is a difference of.
    public var heapSpans: [HeapSpan] = []
    /// The memory rows' heap profiles by allocation site (made by the parent from the spans).
    public var memoryProfile: [MemoryProfileRow] = []

    public init(rows: [ResultRow] = [], samples: [SampleRow] = []) {
        self.rows = rows
        self.samples = samples
    }

    public mutating func append(_ other: WorkloadOutput) {
        rows += other.rows
        samples += other.samples
        profiles += other.profiles
        profileErrors += other.profileErrors
        heapSpans += other.heapSpans
        memoryProfile += other.memoryProfile
    }
}

/// One measured scenario that runs against any strategy through the `ObservationStrategy` protocol
/// only. One workload per file; a suite is a list of them.
public protocol Workload: Sendable {
    /// The name in `results.csv`'s `workload` column.
    var name: String { get }
    /// One line for `obsbench list`: what is measured, and up to where.
    var summary: String { get }
    /// Whether the workload can count instructions (`--measure instructions`): true for
    /// workloads whose cost per operation goes through `WorkloadContext.measureCost`.
    var countsInstructions: Bool { get }
    /// Whose work its rows measure besides the measuring thread's, which decides whether a count
    /// may move with another thread's timing (``MeasuredThreads``). The gate reads it from here and
    /// from the baseline's declaration of the strategy, never from the run it judges. Default:
    /// ``MeasuredThreads/strategyDelivery``, the conservative answer.
    var measuredThreads: MeasuredThreads { get }
    /// Whether a row whose `workload` column says `rowWorkload` is this workload's. Default: its
    /// ``name``; a workload that writes rows under other names (the concrete loops) says which.
    func writesRows(named rowWorkload: String) -> Bool
    @MainActor func run(_ context: WorkloadContext) async throws -> WorkloadOutput
}

extension Workload {
    public var countsInstructions: Bool { false }
    public var measuredThreads: MeasuredThreads { .strategyDelivery }
    public func writesRows(named rowWorkload: String) -> Bool { rowWorkload == name }
}

/// Whose work a workload's rows measure, so that the gate can tell a count that must repeat
/// exactly from one that moves with another thread's timing. A property of the workload, not of
/// the run:
///
/// ```swift
/// WriteUnobservedWorkload().measuredThreads  // .callingThread: exact, whatever the strategy declares
/// WriteObservedWorkload().measuredThreads    // .strategyDelivery: asynchronous where the baseline
///                                            // declares the strategy's delivery asynchronous
/// RoundTripHopWorkload(kind: .mainActor).measuredThreads  // .poolThreads: always
/// ```
public enum MeasuredThreads: String, Sendable, CaseIterable {
    /// The operation runs on the calling thread and returns; nothing is delivered (no view, or
    /// none that the operation notifies). Its counts repeat exactly whatever the strategy declares.
    case callingThread = "calling thread"
    /// The strategy's delivery and its own threads too: views re-run, queues and tasks the store
    /// keeps (a memory row counts every thread's allocations). Moves with thread timing where the
    /// strategy delivers asynchronously.
    case strategyDelivery = "the strategy's delivery"
    /// Threads of the runtime's pools or dispatch's (actor hops, the pool suite, concurrent
    /// writers): its counts move with their timing whatever is measured.
    case poolThreads = "pool threads"
}

/// A cost per operation, measured one of the two ways.
public enum CostPerOperation: Sendable {
    case time(Sampled)
    case instructions(Counted)

    /// The median cost per operation, in the measure's own unit.
    public var median: Double? {
        switch self {
        case .time(let sampled): Statistics(sampled.nanosecondsPerOperation)?.median
        case .instructions(let counted): Statistics(counted.instructionsPerOperation)?.median
        }
    }
}

extension WorkloadContext {
    /// Measures `batch` per operation as the run asks: timed by the sampler (`settings`, default
    /// the context's), or counted under Callgrind at two loop lengths. `emptyBatch` must have the
    /// same loop shape with the measured work removed; its cost is subtracted either way.
    @MainActor
    public func measureCost(
        _ batch: @escaping Batch, emptyBatch: @escaping Batch, sampler settings: SamplerSettings? = nil, label: String,
        maximumDivisor: Int = InstructionSettings.maximumLengthDivisor, repeatsWhenShortest: Int? = nil
    ) async throws -> CostPerOperation {
        switch measure {
        case .time:
            .time(try await Sampler(settings: settings ?? sampler).sample(batch, emptyBatch: emptyBatch))
        case .instructions:
            .instructions(
                try await InstructionCounter(settings: instructionSettings).count(
                    batch, emptyBatch: emptyBatch, label: "\(suite) \(label) \(strategyName)", maximumDivisor: maximumDivisor,
                    repeatsWhenShortest: repeatsWhenShortest))
        }
    }

    /// Measures an operation on a record, as ``measureCost(_:emptyBatch:sampler:label:)`` does, but
    /// sets it up through `drawing` so that it can be counted on many records: under
    /// `--measure instructions` a synchronous strategy's operation is counted on records
    /// 1...`instructionSettings.draws` (``MeasuredDraw`` says why) and the value is their mean.
    /// Timings, and asynchronous strategies' counts (whose pairs spread by thread timing, and are
    /// repeated instead), measure record 1. `drawScale` multiplies the counted lengths on each
    /// record (``InstructionCounter/count(drawing:records:scale:label:)``).
    @MainActor
    public func measureCost(label: String, sampler settings: SamplerSettings? = nil, drawScale: Int = 1, drawing: Drawing) async throws -> CostPerOperation {
        if measure == .instructions, instructionSettings.draws > 1, strategy?.descriptor.capabilities.delivery == .synchronous {
            let records = Array(1...max(1, min(instructionSettings.draws, objects)))
            return .instructions(
                try await InstructionCounter(settings: instructionSettings).count(
                    drawing: drawing, records: records, scale: drawScale, label: "\(suite) \(label) \(strategyName)"))
        }
        let draw = try await drawing(1)
        let measured = try await measureCost(draw.batch, emptyBatch: draw.emptyBatch, sampler: settings, label: label)
        try await draw.end()
        return measured
    }

    /// Rows for a cost per operation: its statistics, and the empty loop's cost that was
    /// subtracted from them (measured in this process), plus the raw samples, each with its row's
    /// key. `objects` is the store's size, the context's unless given.
    func latencyOutput(workload: String, objects: Int? = nil, subscribers: Int, measured: CostPerOperation, note: String) -> WorkloadOutput {
        func rowKey(_ metric: Metric) -> RowKey {
            RowKey(
                suite: suite, workload: workload, strategy: strategyName, executor: RowKey.mainActor, metric: metric, unit: metric.unit,
                objects: objects ?? self.objects, subscribers: subscribers, concurrency: 1)
        }
        func row(_ metric: Metric, _ statistics: Statistics?, _ note: String) -> ResultRow {
            ResultRow(runID: runID, key: rowKey(metric), statistics: statistics, note: note)
        }
        func samples(_ metric: Metric, _ values: [Double]) -> [SampleRow] {
            let key = rowKey(metric)
            return values.enumerated().map { SampleRow(runID: runID, key: key, index: $0.offset, value: $0.element) }
        }
        switch measured {
        case .time(let sampled):
            return WorkloadOutput(
                rows: [
                    row(.latency, Statistics(sampled.nanosecondsPerOperation), "\(note); \(sampled.batchSize) ops per sample; loop overhead subtracted"),
                    row(
                        .loopOverhead, Statistics(exact: sampled.loopOverheadNanoseconds),
                        "the empty batch (the same loop without the measured work), median of 15; subtracted from latency"),
                ], samples: samples(.latency, sampled.nanosecondsPerOperation))
        case .instructions(let counted):
            let settings = counted.settings
            let threads = CountedThreads.counted(for: strategy)
            let method =
                counted.records > 0
                ? "\(threads.note); \(Counted.drawnNote(records: counted.records)), (Ir at \(counted.drawWarmUp + counted.drawLength) ops − Ir at \(counted.drawWarmUp)) / \(counted.drawLength) on each, after \(counted.drawWarmUp) not counted"
                : "\(threads.note); (Ir at \(settings.longLength) ops − Ir at \(settings.shortLength)) / \(settings.longLength - settings.shortLength), \(settings.repeats) repeats"
            var instructions = row(.instructions, Statistics(counted.instructionsPerOperation), "\(note); \(method); empty loop subtracted")
            instructions.profileDumps = counted.profileDumps
            var output = WorkloadOutput(
                rows: [
                    instructions,
                    row(
                        .instructionLoopOverhead, Statistics(exact: counted.loopOverheadInstructions),
                        "the empty batch (the same loop without the measured work), counted the same way; subtracted from instructions"),
                ], samples: samples(.instructions, counted.instructionsPerOperation))
            if let cache = counted.cachePerOperation, !cache.isEmpty {
                let caches = "simulated caches (\(CallgrindInvocation.cacheDescription))"
                output.rows += [
                    row(
                        .estimatedCycles, Statistics(cache.map(\.estimatedCycles)),
                        "ESTIMATE from \(caches): L1 hits + 5 × LL hits + 35 × RAM accesses per op; \(method)"),
                    row(.l1Misses, Statistics(cache.map(\.l1Misses)), "\(caches): I1mr + D1mr + D1mw per op, exact for this layout; \(method)"),
                    row(.lastLevelMisses, Statistics(cache.map(\.lastLevelMisses)), "\(caches): ILmr + DLmr + DLmw per op (to memory), exact for this layout; \(method)"),
                ]
                output.samples += samples(.l1Misses, cache.map(\.l1Misses)) + samples(.lastLevelMisses, cache.map(\.lastLevelMisses))
            }
            return output
        }
    }

    /// A row for an exact count (deterministic: the gate compares it strictly). A nil value is a
    /// row that says, in its note, why the count could not be measured here.
    func countRow(workload: String, objects: Int? = nil, subscribers: Int, metric: Metric, value: Double?, note: String) -> ResultRow {
        ResultRow(
            runID: runID, suite: suite, workload: workload, strategy: strategyName, executor: RowKey.mainActor,
            objects: objects ?? self.objects, subscribers: subscribers, concurrency: 1, metric: metric, unit: metric.unit,
            statistics: value.map { Statistics(exact: $0) }, note: note)
    }
}

/// Why a workload could not produce a number.
public enum WorkloadError: Error, CustomStringConvertible {
    /// The strategy ended a view's subscription with an error while it was being measured.
    case viewFailed(String)
    /// This platform offers no way to measure what the workload measures.
    case notMeasurable(String)
    /// A workload that measures a strategy ran in a suite that measures none.
    case noStrategy(suite: String)

    public var description: String {
        switch self {
        case .viewFailed(let message): "the measured view failed: \(message)"
        case .notMeasurable(let message): "not measurable here: \(message)"
        case .noStrategy(let suite): "this workload measures a strategy, and suite \(suite) measures none"
        }
    }
}
