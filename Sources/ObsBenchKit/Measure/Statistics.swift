/// Order statistics, mean and a bootstrap confidence interval of the median for one set of samples.
public struct Statistics: Sendable, Equatable {
    public var count: Int
    public var median: Double
    public var p10: Double
    public var p90: Double
    public var p99: Double
    public var min: Double
    public var max: Double
    public var mean: Double
    /// 95% bootstrap percentile interval of the median.
    public var ci95Low: Double
    public var ci95High: Double

    /// Summarises `samples`. Returns nil for an empty set or one holding a non-finite value.
    public init?(_ samples: [Double], bootstrapResamples: Int = 1_000, seed: UInt64 = 0x0B5_BE4C) {
        guard !samples.isEmpty, samples.allSatisfy(\.isFinite) else { return nil }
        let sorted = samples.sorted()
        count = sorted.count
        median = Self.percentile(sorted, 0.5)
        p10 = Self.percentile(sorted, 0.1)
        p90 = Self.percentile(sorted, 0.9)
        p99 = Self.percentile(sorted, 0.99)
        min = sorted[0]
        max = sorted[sorted.count - 1]
        mean = sorted.reduce(0, +) / Double(sorted.count)
        (ci95Low, ci95High) = Self.bootstrapMedianInterval(sorted, resamples: bootstrapResamples, seed: seed)
    }

    /// A set of identical values (an exact count): every statistic is that value.
    public init(exact value: Double, count: Int = 1) {
        self.count = count
        median = value; p10 = value; p90 = value; p99 = value
        min = value; max = value; mean = value
        ci95Low = value; ci95High = value
    }

    /// The `fraction` percentile of sorted values, interpolating linearly between ranks
    /// (the definition NumPy uses by default).
    public static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        precondition(!sorted.isEmpty)
        let rank = fraction * Double(sorted.count - 1)
        let lower = Int(rank.rounded(.down))
        let upper = Swift.min(lower + 1, sorted.count - 1)
        let weight = rank - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * weight
    }

    /// The 2.5th and 97.5th percentiles of the medians of `resamples` resamples with replacement.
    /// Deterministic for a given seed, so two summaries of the same samples agree.
    static func bootstrapMedianInterval(_ sorted: [Double], resamples: Int, seed: UInt64) -> (Double, Double) {
        guard sorted.count > 1, resamples > 0 else { return (sorted[0], sorted[0]) }
        var generator = SplitMix64(seed: seed)
        var medians: [Double] = []
        medians.reserveCapacity(resamples)
        var resample = [Double](repeating: 0, count: sorted.count)
        for _ in 0..<resamples {
            for index in resample.indices {
                resample[index] = sorted[Int(generator.next() % UInt64(sorted.count))]
            }
            resample.sort()
            medians.append(percentile(resample, 0.5))
        }
        medians.sort()
        return (percentile(medians, 0.025), percentile(medians, 0.975))
    }
}

/// A small, fast, seedable generator (SplitMix64) so that bootstrap intervals are reproducible.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
