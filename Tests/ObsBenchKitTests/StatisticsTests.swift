import ObsBenchKit
import Testing

@Suite("Statistics")
struct StatisticsTests {
    @Test("percentiles interpolate linearly between ranks, as NumPy's default does")
    func percentiles() throws {
        let stats = try #require(Statistics([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]))
        #expect(stats.count == 10)
        #expect(stats.median == 5.5)
        #expect(abs(stats.p10 - 1.9) < 1e-12)
        #expect(abs(stats.p90 - 9.1) < 1e-12)
        #expect(abs(stats.p99 - 9.91) < 1e-12)
        #expect(stats.min == 1)
        #expect(stats.max == 10)
        #expect(stats.mean == 5.5)
    }

    @Test("order of the samples does not matter")
    func unordered() throws {
        let stats = try #require(Statistics([9, 1, 5, 3, 7]))
        #expect(stats.median == 5)
        #expect(stats.min == 1 && stats.max == 9)
    }

    @Test("the bootstrap interval brackets the median, is reproducible, and collapses for constant samples")
    func bootstrap() throws {
        let samples = (0..<101).map { Double($0) }
        let first = try #require(Statistics(samples))
        let second = try #require(Statistics(samples.reversed()))
        #expect(first.ci95Low <= first.median && first.median <= first.ci95High)
        #expect(first.ci95Low > 35 && first.ci95High < 65)
        #expect(first == second)
        let constant = try #require(Statistics([4, 4, 4, 4]))
        #expect(constant.ci95Low == 4 && constant.ci95High == 4)
    }

    @Test("empty or non-finite samples give no statistics")
    func invalidSamples() {
        #expect(Statistics([]) == nil)
        #expect(Statistics([1, .nan]) == nil)
        #expect(Statistics([1, .infinity]) == nil)
    }

    @Test("an exact count has every statistic equal to it")
    func exact() {
        let stats = Statistics(exact: 3)
        #expect([stats.median, stats.p10, stats.p90, stats.p99, stats.min, stats.max, stats.mean, stats.ci95Low, stats.ci95High].allSatisfy { $0 == 3 })
    }
}
