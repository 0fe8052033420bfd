import Foundation

/// The Mann-Whitney U test: whether one sample's values tend to be larger than another's, without
/// assuming a distribution. Normal approximation with a correction for ties and for continuity,
/// good for the tens to hundreds of samples a measurement keeps.
public enum MannWhitneyU {
    /// The one-sided p-value of "values in `larger` tend to exceed values in `smaller`".
    /// 1 when either sample is empty.
    public static func pValue(_ larger: [Double], exceeds smaller: [Double]) -> Double {
        let n1 = Double(larger.count), n2 = Double(smaller.count)
        guard n1 > 0, n2 > 0 else { return 1 }
        // Rank the pooled values, ties sharing their mean rank.
        let pooled = (larger.map { ($0, true) } + smaller.map { ($0, false) }).sorted { $0.0 < $1.0 }
        var rankSumLarger = 0.0
        var tieCorrection = 0.0
        var index = 0
        while index < pooled.count {
            var end = index
            while end + 1 < pooled.count && pooled[end + 1].0 == pooled[index].0 { end += 1 }
            let rank = Double(index + end) / 2 + 1
            let tied = Double(end - index + 1)
            if tied > 1 { tieCorrection += tied * tied * tied - tied }
            for position in index...end where pooled[position].1 { rankSumLarger += rank }
            index = end + 1
        }
        let u = rankSumLarger - n1 * (n1 + 1) / 2
        let mean = n1 * n2 / 2
        let n = n1 + n2
        let variance = n1 * n2 / 12 * ((n + 1) - tieCorrection / (n * (n - 1)))
        guard variance > 0 else { return u > mean ? 0 : 1 }
        let z = (u - mean - 0.5) / variance.squareRoot()
        return 0.5 * erfc(z / 2.0.squareRoot())
    }
}
