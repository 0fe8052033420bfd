/// How a cost grows with a size: the least-squares slope of log(cost) against log(size), as a
/// complexity fit reads it (about 0 for O(1), 1 for O(n), 2 for O(n²)).
public enum GrowthFit {
    /// The slope over `points` (size, cost); nil with fewer than two distinct sizes or a
    /// non-positive value (logarithms need positive numbers).
    public static func logLogSlope(_ points: [(size: Double, cost: Double)]) -> Double? {
        guard points.allSatisfy({ $0.size > 0 && $0.cost > 0 }) else { return nil }
        let xs = points.map { log($0.size) }
        let ys = points.map { log($0.cost) }
        guard Set(xs).count > 1 else { return nil }
        let meanX = xs.reduce(0, +) / Double(xs.count)
        let meanY = ys.reduce(0, +) / Double(ys.count)
        var covariance = 0.0
        var variance = 0.0
        for (x, y) in zip(xs, ys) {
            covariance += (x - meanX) * (y - meanY)
            variance += (x - meanX) * (x - meanX)
        }
        return covariance / variance
    }

    /// How a summary names a slope: O(1), O(S), O(S²), or the exponent between them.
    public static func label(_ slope: Double, variable: String = "S") -> String {
        switch slope {
        case ..<0.2: "O(1)"
        case 0.8..<1.2: "O(\(variable))"
        case 1.8..<2.2: "O(\(variable)²)"
        default: "O(\(variable)^\(String(format: "%.1f", slope)))"
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
