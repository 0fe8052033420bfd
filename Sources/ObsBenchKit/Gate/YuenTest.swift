import Foundation

/// Yuen's test: whether two samples' trimmed means differ, as Welch's t test does for plain means,
/// with each side's 20% lowest and highest values trimmed and its variance taken over the
/// winsorized values. The gate applies it to the logarithms of each round's median timing, so a
/// change is a ratio and one stray round on a side (a process that met a busy machine) moves
/// neither the estimate nor the variance much.
///
/// It measures how far apart the rounds lie against how much they spread, where a rank test
/// (Mann-Whitney) counts only orderings: with 8 rounds a side a rank test's smallest two-sided p is
/// 2 / 12,870 = 1.6e-4 however far the rounds move, so a correction over a few hundred timings
/// leaves it no level it can reach, and a timing doubled in 7 of 8 rounds (p = 7.8e-4 by ranks
/// where its undoubled round lies mid-baseline) can never be flagged among more than 64. Yuen's
/// test gives that timing, against a baseline whose rounds agree within 2%, p below 1e-6.
///
/// ```swift
/// let steady = [100.0, 101, 99, 100, 102, 100, 101, 99]
/// let doubled = [200.0, 201, 199, 100, 202, 200, 201, 199]
/// YuenTest.twoSidedPValue(doubled.map(log), steady.map(log))   // < 1e-6
/// ```
public enum YuenTest {
    /// The fraction trimmed from each end of a side: ⌊0.2 n⌋ values (1 of 5 to 9 rounds, none of 4).
    public static let trimmedFraction = 0.2

    /// One side's trimmed mean, the square of its standard error (Yuen's d) and how many values
    /// the trimmed mean keeps.
    struct Side {
        var trimmedMean: Double
        var squaredError: Double
        var kept: Int

        init?(_ values: [Double]) {
            let sorted = values.sorted()
            let n = sorted.count
            let trimmed = Int((YuenTest.trimmedFraction * Double(n)).rounded(.down))
            kept = n - 2 * trimmed
            guard kept >= 2 else { return nil }
            let middle = sorted[trimmed..<(n - trimmed)]
            trimmedMean = middle.reduce(0, +) / Double(kept)
            let winsorized = sorted.indices.map { sorted[min(max($0, trimmed), n - trimmed - 1)] }
            let mean = winsorized.reduce(0, +) / Double(n)
            let variance = winsorized.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(n - 1)
            squaredError = Double(n - 1) * variance / Double(kept * (kept - 1))
        }
    }

    /// The two-sided p-value of "the two samples' trimmed means are equal"; 1 when a side has
    /// fewer than 2 values left after trimming.
    public static func twoSidedPValue(_ first: [Double], _ second: [Double]) -> Double {
        guard let a = Side(first), let b = Side(second) else { return 1 }
        let difference = a.trimmedMean - b.trimmedMean
        let error = a.squaredError + b.squaredError
        guard error > 0 else { return difference == 0 ? 1 : 0 }
        let t = difference / error.squareRoot()
        let freedom = error * error / (a.squaredError * a.squaredError / Double(a.kept - 1) + b.squaredError * b.squaredError / Double(b.kept - 1))
        return StudentT.twoSidedPValue(t: t, degreesOfFreedom: freedom)
    }

    /// The smallest difference of trimmed means (in the values' own units) that is significant at
    /// `level`, for a current run of `currentCount` values spread as `baseline` is: what the test
    /// could see, known before the change. nil when the baseline cannot be tested.
    public static func smallestSignificantDifference(baseline: [Double], currentCount: Int, level: Double) -> Double? {
        guard let base = Side(baseline), currentCount >= 2 else { return nil }
        let trimmed = Int((trimmedFraction * Double(currentCount)).rounded(.down))
        let kept = currentCount - 2 * trimmed
        guard kept >= 2 else { return nil }
        // The current side's squared error if its values spread as the baseline's do.
        let current = base.squaredError * Double(base.kept * (base.kept - 1)) / Double(baseline.count - 1) * Double(currentCount - 1) / Double(kept * (kept - 1))
        let error = base.squaredError + current
        guard error > 0 else { return 0 }
        let freedom = error * error / (base.squaredError * base.squaredError / Double(base.kept - 1) + current * current / Double(kept - 1))
        return StudentT.criticalValue(level: level, degreesOfFreedom: freedom) * error.squareRoot()
    }
}

/// Student's t distribution, for ``YuenTest``: its two-sided tail through the regularized
/// incomplete beta function, and the value a two-sided tail of a given size starts at.
public enum StudentT {
    /// P(|T| ≥ |t|) with `degreesOfFreedom`.
    public static func twoSidedPValue(t: Double, degreesOfFreedom v: Double) -> Double {
        guard t.isFinite else { return 0 }
        return min(1, max(0, regularizedIncompleteBeta(x: v / (v + t * t), a: v / 2, b: 0.5)))
    }

    /// The t at which the two-sided tail is `level`, by bisection.
    public static func criticalValue(level: Double, degreesOfFreedom v: Double) -> Double {
        var low = 0.0, high = 1.0
        while twoSidedPValue(t: high, degreesOfFreedom: v) > level, high < 1e12 { high *= 2 }
        for _ in 0..<200 {
            let middle = (low + high) / 2
            if twoSidedPValue(t: middle, degreesOfFreedom: v) > level { low = middle } else { high = middle }
        }
        return high
    }

    /// I_x(a, b), by its continued fraction (Numerical Recipes, `betai`).
    static func regularizedIncompleteBeta(x: Double, a: Double, b: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let logBeta: Double = lgamma(a + b) - lgamma(a) - lgamma(b)
        let logPowers: Double = a * log(x) + b * log(1 - x)
        let front = exp(logBeta + logPowers)
        if x < (a + 1) / (a + b + 2) { return front * continuedFraction(x: x, a: a, b: b) / a }
        return 1 - front * continuedFraction(x: 1 - x, a: b, b: a) / b
    }

    private static func continuedFraction(x: Double, a: Double, b: Double) -> Double {
        let tiny = 1e-300
        var c = 1.0
        var d = 1 - (a + b) * x / (a + 1)
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var h = d
        for m in 1...300 {
            let m = Double(m)
            var step = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
            d = 1 + step * d
            if abs(d) < tiny { d = tiny }
            c = 1 + step / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            h *= d * c
            step = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
            d = 1 + step * d
            if abs(d) < tiny { d = tiny }
            c = 1 + step / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) < 3e-16 { break }
        }
        return h
    }
}
