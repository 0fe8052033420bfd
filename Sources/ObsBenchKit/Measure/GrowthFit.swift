/// How a cost grows with a size: the least-squares line cost = a + b·size (b is the cost of one
/// more unit), the slope over the last step on log-log axes, and the least-squares slope of
/// log(cost) on log(size) with its R², as a complexity fit reads it (about 0 for O(1), 1 for O(n)).
public enum GrowthFit {
    /// The slope over `points` (size, cost); nil with fewer than two distinct sizes or a
    /// non-positive value (logarithms need positive numbers).
    public static func logLogSlope(_ points: [(size: Double, cost: Double)]) -> Double? {
        logLog(points)?.slope
    }

    /// How well the log-log line fits: R² of log(cost) on log(size), 1 for a perfect power law;
    /// nil where `logLogSlope` is nil. A cost of the form a + b·S bends on log-log axes, and a low
    /// R² says the exponent is an average of two regimes, not a growth rate.
    public static func logLogFitQuality(_ points: [(size: Double, cost: Double)]) -> Double? {
        logLog(points)?.rSquared
    }

    /// The least-squares line of log(cost) on log(size): its slope is the exponent, its R² the fit
    /// quality. Nil with fewer than two distinct sizes or a non-positive value.
    public static func logLog(_ points: [(size: Double, cost: Double)]) -> (slope: Double, rSquared: Double)? {
        guard points.allSatisfy({ $0.size > 0 && $0.cost > 0 }) else { return nil }
        return linear(points.map { (log($0.size), log($0.cost)) }).map { ($0.slope, $0.rSquared) }
    }

    /// The least-squares line cost = intercept + slope · size, and its R²; nil with fewer than two
    /// distinct sizes. For write latency against views, `slope` is the cost of each further view
    /// (ns per view) and `intercept` the write's cost with none.
    public static func linear(_ points: [(size: Double, cost: Double)]) -> (intercept: Double, slope: Double, rSquared: Double)? {
        guard Set(points.map(\.size)).count > 1 else { return nil }
        let meanX = points.map(\.size).reduce(0, +) / Double(points.count)
        let meanY = points.map(\.cost).reduce(0, +) / Double(points.count)
        var covariance = 0.0
        var varianceX = 0.0
        var varianceY = 0.0
        for point in points {
            covariance += (point.size - meanX) * (point.cost - meanY)
            varianceX += (point.size - meanX) * (point.size - meanX)
            varianceY += (point.cost - meanY) * (point.cost - meanY)
        }
        let slope = covariance / varianceX
        let rSquared = varianceY == 0 ? 1 : (covariance * covariance) / (varianceX * varianceY)
        return (meanY - slope * meanX, slope, rSquared)
    }

    /// The log-log slope between the two largest sizes: how cost grows over the sweep's last
    /// step (its last decade), where a + b·S has left its constant behind. Nil without two
    /// distinct sizes or with a non-positive cost.
    public static func lastStepSlope(_ points: [(size: Double, cost: Double)]) -> Double? {
        let sorted = points.sorted { $0.size < $1.size }
        guard sorted.count >= 2 else { return nil }
        let (low, high) = (sorted[sorted.count - 2], sorted[sorted.count - 1])
        guard low.size > 0, high.size > low.size, low.cost > 0, high.cost > 0 else { return nil }
        return log(high.cost / low.cost) / log(high.size / low.size)
    }

    /// A point of a sweep: its size, its cost (a median) and the cost's 95% interval.
    public typealias IntervalPoint = (size: Double, cost: Double, low: Double, high: Double)

    /// The 95% interval of ``linear(_:)``'s slope b over `points`, the wider of two, so that b is
    /// beyond noise only where both exclude zero: the range b takes as each point's cost moves
    /// within its own interval (``slopeBounds(_:)``: the points' own noise), and, with three points or
    /// more, b ± t(0.975, n − 2) × its standard error from the points' scatter about the line (what
    /// moved between points: a regime change of the machine during the sweep). Nil where `linear`
    /// is nil.
    public static func linearSlopeInterval(_ points: [IntervalPoint]) -> ClosedRange<Double>? {
        guard let line = linear(points.map { ($0.size, $0.cost) }) else { return nil }
        var (low, high) = slopeBounds(points)
        if points.count > 2 {
            let meanX = points.map(\.size).reduce(0, +) / Double(points.count)
            let sumSquaresX = points.reduce(0) { $0 + ($1.size - meanX) * ($1.size - meanX) }
            let residuals = points.reduce(0) { sum, point in
                let residual = point.cost - (line.intercept + line.slope * point.size)
                return sum + residual * residual
            }
            let margin = studentT975(degreesOfFreedom: points.count - 2) * (residuals / Double(points.count - 2) / sumSquaresX).squareRoot()
            low = Swift.min(low, line.slope - margin)
            high = Swift.max(high, line.slope + margin)
        }
        return Swift.min(low, line.slope)...Swift.max(high, line.slope)
    }

    /// The least and the greatest slope of ``linear(_:)``'s line as each point's cost moves within
    /// its own interval: b is a weighted sum of the costs, so each bound takes each point's low or
    /// high end by the sign of its weight. Call it where `linear` is not nil (two distinct sizes).
    static func slopeBounds(_ points: [IntervalPoint]) -> (low: Double, high: Double) {
        let meanX = points.map(\.size).reduce(0, +) / Double(points.count)
        let sumSquaresX = points.reduce(0) { $0 + ($1.size - meanX) * ($1.size - meanX) }
        var low = 0.0
        var high = 0.0
        for point in points {
            let weight = (point.size - meanX) / sumSquaresX
            low += weight * (weight >= 0 ? point.low : point.high)
            high += weight * (weight >= 0 ? point.high : point.low)
        }
        return (low, high)
    }

    /// The rise over a sweep, as a multiple of its smallest median, that the line a + b·S must
    /// predict (|b| × (largest S − smallest S)) before b counts as beyond noise: 1, a doubling.
    /// Each point is measured in its own stretch of one worker, and a shared machine's regime can
    /// change between them, which no point's own interval sees: in the committed runs, the lines of
    /// sweeps that do not grow rose or fell by at most 0.90 of their smallest median (`published`
    /// disjoint, one slow point), those of sweeps that grow by 6.6 or more.
    public static let minimumRise = 1.0

    /// b of the line a + b·S over `points`, its 95% interval (``linearSlopeInterval(_:)``), and
    /// whether it is beyond noise: its interval excludes zero and the rise it predicts over the
    /// sweep is at least ``minimumRise`` of the smallest median. Nil where `linear` is nil.
    public static func costPerView(_ points: [IntervalPoint]) -> (value: Double, interval: ClosedRange<Double>, beyondNoise: Bool)? {
        guard let line = linear(points.map { ($0.size, $0.cost) }), let interval = linearSlopeInterval(points),
            let smallest = points.map(\.cost).min(), let first = points.map(\.size).min(), let last = points.map(\.size).max()
        else { return nil }
        let rise = abs(line.slope) * (last - first)
        return (line.slope, interval, !interval.contains(0) && rise >= minimumRise * smallest)
    }

    /// The 95% interval of ``lastStepSlope(_:)``: the slope from the lower point's high end to the
    /// higher point's low end, and from its low end to the high end. Nil where `lastStepSlope` is
    /// nil or an interval reaches zero (a logarithm of it is unbounded).
    public static func lastStepSlopeInterval(_ points: [IntervalPoint]) -> ClosedRange<Double>? {
        let sorted = points.sorted { $0.size < $1.size }
        guard let slope = lastStepSlope(sorted.map { ($0.size, $0.cost) }) else { return nil }
        let (lower, upper) = (sorted[sorted.count - 2], sorted[sorted.count - 1])
        guard lower.low > 0, upper.low > 0 else { return nil }
        let decades = log(upper.size / lower.size)
        let low = log(upper.low / lower.high) / decades
        let high = log(upper.high / lower.low) / decades
        return Swift.min(low, slope)...Swift.max(high, slope)
    }

    /// Student's t distribution's 97.5th percentile (a two-sided 95% interval) for 1 to 30 degrees
    /// of freedom; the normal's 1.96 beyond.
    static func studentT975(degreesOfFreedom: Int) -> Double {
        let table = [
            12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
            2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
        ]
        return degreesOfFreedom >= 1 && degreesOfFreedom <= table.count ? table[degreesOfFreedom - 1] : 1.96
    }

    /// The log-log slope below which a summary names growth O(1) (``label(_:variable:)``).
    public static let constantBelow = 0.2

    /// The growth class a sweep's figures support, or nil where they support none (the table says
    /// "class within noise"). `slopeInterval` is ``lastStepSlopeInterval(_:)``; `grows` says
    /// whether b is positive and beyond noise (``costPerView(_:)``).
    ///
    /// - O(1) where the whole slope interval is below ``constantBelow``.
    /// - Otherwise a class only where the cost grows (`grows`) and the slope interval lies above
    ///   zero: the class of both ends where they agree (``label(_:variable:)``: O(S) from 0.8 to
    ///   under 1.2), else the exponent's range to a tenth ("O(S^1.2–1.4)"; "O(S^1.2)" where both
    ///   ends round alike).
    /// - A sweep that stopped early (`stopped`) grows at least as steeply as it last did, and never
    ///   less at larger S: "≥" the class of the interval's lower end, to a tenth below it.
    public static func supportedLabel(slopeInterval: ClosedRange<Double>, grows: Bool, stopped: Bool = false, variable: String = "S") -> String? {
        if !stopped, slopeInterval.upperBound < constantBelow { return "O(1)" }
        guard grows, slopeInterval.lowerBound > 0 else { return nil }
        if stopped {
            let floored = (slopeInterval.lowerBound * 10).rounded(.down) / 10
            guard floored > 0 else { return nil }
            return "≥ " + (floored == 1 ? "O(\(variable))" : floored == 2 ? "O(\(variable)²)" : "O(\(variable)^\(NumberFormat.fixed(floored, digits: 1)))")
        }
        let (low, high) = (label(slopeInterval.lowerBound, variable: variable), label(slopeInterval.upperBound, variable: variable))
        if low == high { return low }
        let (lowExponent, highExponent) = (NumberFormat.fixed(slopeInterval.lowerBound, digits: 1), NumberFormat.fixed(slopeInterval.upperBound, digits: 1))
        return lowExponent == highExponent ? "O(\(variable)^\(lowExponent))" : "O(\(variable)^\(lowExponent)–\(highExponent))"
    }

    /// A counted sweep's growth (``CountedScalingSweep``): b of the least-squares line through the
    /// counts, its interval from the points' own intervals alone (``linearSlopeInterval(_:)``'s first
    /// part: counts have no sampling noise, so a curve's scatter about the line is no uncertainty of
    /// b), and the class the last decade's slope interval decides (``supportedLabel(slopeInterval:grows:stopped:variable:)``,
    /// with `grows` where b's interval lies above zero). For counts that agree in every layout each
    /// interval is a point: b and the class are exact. Nil without two distinct S.
    public static func countedGrowth(_ points: [IntervalPoint], stopped: Bool = false) -> CountedGrowth? {
        guard let line = linear(points.map { ($0.size, $0.cost) }) else { return nil }
        let (low, high) = slopeBounds(points)
        // Counts that agree in every layout: b is exact (the sums above differ from it in their last bits).
        let exact = points.allSatisfy { $0.low == $0.high }
        let interval = exact ? line.slope...line.slope : Swift.min(low, line.slope)...Swift.max(high, line.slope)
        let label = lastStepSlopeInterval(points).flatMap { supportedLabel(slopeInterval: $0, grows: interval.lowerBound > 0, stopped: stopped) }
        return CountedGrowth(perView: line.slope, intercept: line.intercept, interval: interval, label: label)
    }

    /// What ``countedGrowth(_:stopped:)`` found.
    public struct CountedGrowth: Sendable, Equatable {
        /// b: instructions per further view.
        public var perView: Double
        /// a: the line's instructions per write at S = 0.
        public var intercept: Double
        /// b's interval, from the counts' own intervals.
        public var interval: ClosedRange<Double>
        /// The growth class the last decade decides; nil where it decides none.
        public var label: String?

        /// Whether b is told apart from zero: its interval excludes zero, or is the exact value 0.
        public var decided: Bool { !interval.contains(0) || interval.lowerBound == interval.upperBound }

        /// A table cell: "1234 Ir/view · O(S)", "within noise · class within noise".
        public var cell: String {
            // Under a twentieth of an instruction per view prints as 0.0, never as -0.0.
            let cost = decided ? NumberFormat.instructions(abs(perView) < 0.05 ? 0 : perView) + "/view" : "within noise"
            return cost + " · " + (label ?? "class within noise")
        }
    }

    /// How a summary names a slope: O(1), O(S), O(S²), or the exponent between them.
    public static func label(_ slope: Double, variable: String = "S") -> String {
        switch slope {
        case ..<0.2: "O(1)"
        case 0.8..<1.2: "O(\(variable))"
        case 1.8..<2.2: "O(\(variable)²)"
        default: "O(\(variable)^\(NumberFormat.fixed(slope, digits: 1)))"
        }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
