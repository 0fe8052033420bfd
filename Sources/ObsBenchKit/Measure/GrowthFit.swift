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
