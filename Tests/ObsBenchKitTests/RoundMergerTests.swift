import ObsBenchKit
import Testing

@Suite("Pooling worker rounds")
struct RoundMergerTests {
    static func row(_ workload: String, metric: String, value: Double?, note: String = "n") -> ResultRow {
        ResultRow(
            runID: "r", suite: "latency", workload: workload, strategy: "plain", executor: "main-actor",
            objects: 10, subscribers: 0, concurrency: 1, metric: metric, unit: "ns/op",
            statistics: value.map { Statistics(exact: $0) }, note: note)
    }

    static func samples(_ values: [Double], round: Int) -> [SampleRow] {
        values.enumerated().map { index, value in
            SampleRow(runID: "r", suite: "latency", workload: "read", strategy: "plain", metric: "latency", unit: "ns/op", index: index, value: value, round: round)
        }
    }

    @Test("a sampled row is recomputed from every round's samples pooled")
    func pooledSamples() {
        let rounds = [[Self.row("read", metric: "latency", value: 2)], [Self.row("read", metric: "latency", value: 20)]]
        let merged = RoundMerger.merge(rounds: rounds, samples: Self.samples([1, 2, 3], round: 1) + Self.samples([10, 20, 30], round: 2))
        #expect(merged.count == 1)
        #expect(merged[0].rounds == 2)
        #expect(merged[0].statistics == Statistics([1, 2, 3, 10, 20, 30]))
        #expect(merged[0].statistics?.median == 6.5)
    }

    @Test("a row without samples is summarised over its per-round values; identical counts stay exact")
    func unsampledRows() {
        let rounds = [
            [Self.row("read", metric: "loop_overhead", value: 1), Self.row("write", metric: "reruns_per_write", value: 1)],
            [Self.row("read", metric: "loop_overhead", value: 3), Self.row("write", metric: "reruns_per_write", value: 1)],
            [Self.row("read", metric: "loop_overhead", value: 2), Self.row("write", metric: "reruns_per_write", value: 1)],
        ]
        let merged = RoundMerger.merge(rounds: rounds, samples: [])
        #expect(merged.map(\.metric) == ["loop_overhead", "reruns_per_write"])
        #expect(merged[0].statistics?.median == 2)
        #expect(merged[0].statistics?.count == 3)
        #expect(merged[1].statistics?.min == 1 && merged[1].statistics?.max == 1)
        #expect(merged[1].note == "n")
        #expect(merged.allSatisfy { $0.rounds == 3 })
    }

    @Test("error rows pass through naming their round; one round is returned unchanged")
    func errorsAndSingleRound() {
        let error = ResultRow.error(runID: "r", suite: "latency", strategy: "plain", message: "worker crashed")
        let merged = RoundMerger.merge(rounds: [[Self.row("read", metric: "latency", value: 1)], [error]], samples: [])
        #expect(merged.count == 2)
        #expect(merged[0].rounds == 1)
        #expect(merged[1].isError && merged[1].note == "round 2/2: worker crashed")
        let single = [Self.row("read", metric: "latency", value: 1)]
        #expect(RoundMerger.merge(rounds: [single], samples: []) == single)
    }
}
