/// How long and how finely the sampler measures.
public struct SamplerSettings: Sendable, Equatable {
    /// Time spent running the operation before anything is kept.
    public var warmUpNanoseconds: UInt64
    /// Each sample runs a batch of operations lasting at least this long.
    public var targetSampleNanoseconds: UInt64
    /// Samples are taken until both `minimumSamples` and the time budget are reached, or `maximumSamples`.
    public var minimumSamples: Int
    public var maximumSamples: Int
    public var budgetNanoseconds: UInt64
    /// The worker rounds these settings are one share of (``shared(by:)``); 1: the whole.
    public var rounds = 1

    public init(warmUpNanoseconds: UInt64, targetSampleNanoseconds: UInt64, minimumSamples: Int, maximumSamples: Int, budgetNanoseconds: UInt64) {
        self.warmUpNanoseconds = warmUpNanoseconds
        self.targetSampleNanoseconds = targetSampleNanoseconds
        self.minimumSamples = minimumSamples
        self.maximumSamples = maximumSamples
        self.budgetNanoseconds = budgetNanoseconds
    }

    /// The default: 1 ms samples, at least 30, for about 0.5 s per measurement.
    public static let standard = SamplerSettings(
        warmUpNanoseconds: 100_000_000, targetSampleNanoseconds: 1_000_000,
        minimumSamples: 30, maximumSamples: 400, budgetNanoseconds: 500_000_000)

    /// One of `rounds` worker rounds' share: the time budget divided among the rounds, and the
    /// warm-up too, down to 15 ms (fifteen 1 ms samples: enough to size a batch and warm caches).
    public func shared(by rounds: Int) -> SamplerSettings {
        guard rounds > 1 else { return self }
        var settings = self
        settings.budgetNanoseconds = budgetNanoseconds / UInt64(rounds)
        settings.warmUpNanoseconds = Swift.max(warmUpNanoseconds / UInt64(rounds), Swift.min(warmUpNanoseconds, 15_000_000))
        settings.maximumSamples = Swift.max(minimumSamples, maximumSamples / rounds)
        settings.rounds = rounds
        return settings
    }

    /// Sized for CI (`--quick`): 250 µs samples, at least 30, for about 0.1 s per measurement.
    public static let quick = SamplerSettings(
        warmUpNanoseconds: 20_000_000, targetSampleNanoseconds: 250_000,
        minimumSamples: 30, maximumSamples: 200, budgetNanoseconds: 100_000_000)
}

/// A batch of `iterations` operations, timed as one sample.
public typealias Batch = @MainActor (_ iterations: Int) async throws -> Void

/// The result of sampling one operation: nanoseconds per operation, loop overhead removed.
public struct Sampled: Sendable {
    /// One value per sample: (batch time − calibrated loop overhead) / batch size, in ns per operation.
    public var nanosecondsPerOperation: [Double]
    /// Operations per sample.
    public var batchSize: Int
    /// The empty loop's cost per iteration, measured in this process and subtracted.
    public var loopOverheadNanoseconds: Double
    /// Total operations run while sampling (warm-up excluded).
    public var operations: Int
}

/// Warms an operation up, sizes batches so each sample lasts far above the clock's resolution and
/// call cost, subtracts the empty loop's cost calibrated in the same process, and takes samples.
@MainActor
public struct Sampler {
    public var settings: SamplerSettings

    public init(settings: SamplerSettings) {
        self.settings = settings
    }

    /// Samples `batch`. `emptyBatch` must have the same loop shape with the measured work removed;
    /// its per-iteration cost is what gets subtracted.
    public func sample(_ batch: Batch, emptyBatch: Batch) async throws -> Sampled {
        let batchSize = try await calibrateBatchSize(batch)
        let overhead = try await loopOverhead(emptyBatch, batchSize: batchSize)
        var values: [Double] = []
        values.reserveCapacity(settings.minimumSamples)
        let started = MonotonicClock.now()
        while values.count < settings.maximumSamples {
            let begin = MonotonicClock.now()
            try await batch(batchSize)
            let elapsed = MonotonicClock.now() &- begin
            values.append(Swift.max(0, Double(elapsed) / Double(batchSize) - overhead))
            if values.count >= settings.minimumSamples, MonotonicClock.now() &- started >= settings.budgetNanoseconds { break }
        }
        return Sampled(nanosecondsPerOperation: values, batchSize: batchSize, loopOverheadNanoseconds: overhead, operations: values.count * batchSize)
    }

    /// Runs the batch during the warm-up time, doubling its size until one batch lasts at least
    /// the target sample duration; returns that size.
    func calibrateBatchSize(_ batch: Batch) async throws -> Int {
        var size = 1
        let warmUpEnd = MonotonicClock.now() &+ settings.warmUpNanoseconds
        var sized = false
        while true {
            let begin = MonotonicClock.now()
            try await batch(size)
            let elapsed = MonotonicClock.now() &- begin
            if !sized {
                if elapsed >= settings.targetSampleNanoseconds {
                    sized = true
                } else {
                    // Grow towards the target, at most 16x per step.
                    let factor = elapsed == 0 ? 16 : Swift.min(16, Swift.max(2, Int(settings.targetSampleNanoseconds / elapsed) + 1))
                    size = Swift.min(size * factor, 1 << 30)
                    continue
                }
            }
            if MonotonicClock.now() >= warmUpEnd { return size }
        }
    }

    /// The median per-iteration cost of the empty batch at the measured batch size.
    func loopOverhead(_ emptyBatch: Batch, batchSize: Int) async throws -> Double {
        var costs: [Double] = []
        for _ in 0..<15 {
            let begin = MonotonicClock.now()
            try await emptyBatch(batchSize)
            costs.append(Double(MonotonicClock.now() &- begin) / Double(batchSize))
        }
        return Statistics.percentile(costs.sorted(), 0.5)
    }
}
