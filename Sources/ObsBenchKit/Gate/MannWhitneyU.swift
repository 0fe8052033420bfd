import Foundation
import ObservationStrategies

/// The Mann-Whitney U test: whether one sample's values tend to be larger than another's, without
/// assuming a distribution. Exact for up to 60 values in all (the gate compares a few round
/// medians, where the normal approximation is off by a factor of two or more in the tail); normal
/// approximation with tie and continuity corrections above that.
public enum MannWhitneyU {
    /// Up to this many values in all, the p-value is exact.
    public static let exactLimit = 60

    /// The one-sided p-value of "values in `larger` tend to exceed values in `smaller`".
    /// 1 when either sample is empty.
    public static func pValue(_ larger: [Double], exceeds smaller: [Double]) -> Double {
        guard !larger.isEmpty, !smaller.isEmpty else { return 1 }
        let ranks = midRanks(larger + smaller)
        if larger.count + smaller.count <= exactLimit {
            return exactPValue(ranks: ranks, firstCount: larger.count)
        }
        return approximatePValue(ranks: ranks, firstCount: larger.count, tieCorrection: tieCorrection(larger + smaller))
    }

    /// The two-sided p-value of "the two samples come from the same distribution": twice the
    /// one-sided p in the direction the data moved, at most 1.
    public static func twoSidedPValue(_ first: [Double], _ second: [Double]) -> Double {
        min(1, 2 * min(pValue(first, exceeds: second), pValue(second, exceeds: first)))
    }

    /// The smallest two-sided p that samples of these sizes can give. Remembered by sizes: a gate
    /// asks it of every timing it judges, and the exact distribution behind it is not cheap.
    public static func smallestTwoSidedPValue(_ firstCount: Int, _ secondCount: Int) -> Double {
        let sizes = SIMD2(firstCount, secondCount)
        if let known = smallestTwoSided.withLock({ $0[sizes] }) { return known }
        let p = min(1, 2 * smallestPValue(firstCount, secondCount))
        smallestTwoSided.withLock { $0[sizes] = p }
        return p
    }

    private static let smallestTwoSided = Locked<[SIMD2<Int>: Double]>([:])

    /// The fewest rounds per side (up to 20) whose smallest two-sided p is below `level`.
    public static func roundsNeeded(level: Double) -> Int {
        (2...20).first { smallestTwoSidedPValue($0, $0) < level } ?? 20
    }

    /// The smallest one-sided p-value samples of these sizes can give (all of one above all of the other).
    public static func smallestPValue(_ firstCount: Int, _ secondCount: Int) -> Double {
        guard firstCount > 0, secondCount > 0 else { return 1 }
        return pValue((0..<firstCount).map { Double(secondCount + $0) }, exceeds: (0..<secondCount).map(Double.init))
    }

    /// Each value's rank in the pooled values (1-based), ties sharing their mean rank, in input order.
    static func midRanks(_ values: [Double]) -> [Double] {
        let order = values.indices.sorted { values[$0] < values[$1] }
        var ranks = [Double](repeating: 0, count: values.count)
        var start = 0
        while start < order.count {
            var end = start
            while end + 1 < order.count && values[order[end + 1]] == values[order[start]] { end += 1 }
            let rank = Double(start + end) / 2 + 1
            for position in start...end { ranks[order[position]] = rank }
            start = end + 1
        }
        return ranks
    }

    /// The share of all ways to pick `firstCount` of the pooled ranks whose sum is at least the
    /// observed one: counted by dynamic programming over doubled (whole-number) ranks.
    static func exactPValue(ranks: [Double], firstCount: Int) -> Double {
        let doubled = ranks.map { Int(($0 * 2).rounded()) }
        let observed = doubled.prefix(firstCount).reduce(0, +)
        let maximumSum = doubled.reduce(0, +)
        // ways[k][s]: subsets of k ranks with doubled sum s (Double: C(60, 30) exceeds nothing here).
        var ways = [[Double]](repeating: [Double](repeating: 0, count: maximumSum + 1), count: firstCount + 1)
        ways[0][0] = 1
        for rank in doubled {
            for size in stride(from: firstCount, through: 1, by: -1) {
                for sum in stride(from: maximumSum, through: rank, by: -1) where ways[size - 1][sum - rank] > 0 {
                    ways[size][sum] += ways[size - 1][sum - rank]
                }
            }
        }
        let all = ways[firstCount].reduce(0, +)
        let atLeast = ways[firstCount][observed...].reduce(0, +)
        return all > 0 ? atLeast / all : 1
    }

    static func tieCorrection(_ values: [Double]) -> Double {
        Dictionary(grouping: values, by: { $0 }).values.reduce(0) { total, group in
            let tied = Double(group.count)
            return total + (tied > 1 ? tied * tied * tied - tied : 0)
        }
    }

    static func approximatePValue(ranks: [Double], firstCount: Int, tieCorrection: Double) -> Double {
        let n1 = Double(firstCount), n2 = Double(ranks.count - firstCount)
        let u = ranks.prefix(firstCount).reduce(0, +) - n1 * (n1 + 1) / 2
        let mean = n1 * n2 / 2
        let n = n1 + n2
        let variance = n1 * n2 / 12 * ((n + 1) - tieCorrection / (n * (n - 1)))
        guard variance > 0 else { return u > mean ? 0 : 1 }
        let z = (u - mean - 0.5) / variance.squareRoot()
        return 0.5 * erfc(z / 2.0.squareRoot())
    }
}
