import ObsBenchKit
import Testing

@Suite("Pooling worker rounds")
struct RoundMergerTests {
    static func row(_ workload: String, metric: String, value: Double?, note: String = "n") -> ResultRow {
        ResultRow(
            runID: "r", suite: "latency", workload: workload, strategy: "plain", executor: "main-actor",
            objects: 10, subscribers: 0, concurrency: 1, metric: Metric.named(metric), unit: "ns/op",
            statistics: value.map { Statistics(exact: $0) }, note: note)
    }

    static func samples(_ values: [Double], round: Int, of row: ResultRow = RoundMergerTests.row("read", metric: "latency", value: nil)) -> [SampleRow] {
        values.enumerated().map { SampleRow(runID: "r", key: RowKey(row), index: $0.offset, value: $0.element, round: round) }
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
        #expect(merged.map(\.metric) == [.loopOverhead, .rerunsPerWrite])
        #expect(merged[0].statistics?.median == 2)
        #expect(merged[0].statistics?.count == 3)
        #expect(merged[1].statistics?.min == 1 && merged[1].statistics?.max == 1)
        #expect(merged[1].note == "n")
        #expect(merged.allSatisfy { $0.rounds == 3 })
    }

    @Test("a row some rounds gave no value is pooled over the rounds that did, counts them and names the others")
    func incompleteRounds() {
        // Round 2 wrote the row without a value: statistics over rounds 1 and 3, never round 1's alone.
        let rounds = [
            [Self.row("read", metric: "loop_overhead", value: 1)], [Self.row("read", metric: "loop_overhead", value: nil)],
            [Self.row("read", metric: "loop_overhead", value: 3)],
        ]
        let merged = RoundMerger.merge(rounds: rounds, samples: [])
        #expect(merged.count == 1)
        #expect(merged[0].rounds == 2)
        #expect(merged[0].statistics?.median == 2 && merged[0].statistics?.count == 2)
        #expect(merged[0].note.hasSuffix("; 2 of 3 rounds: none from round 2"), "\(merged[0].note)")

        // Round 2 failed (an error row instead): the sampled row pools rounds 1 and 3 and says so.
        let error = ResultRow.error(runID: "r", suite: "latency", strategy: "plain", message: "worker crashed")
        let failed = RoundMerger.merge(
            rounds: [[Self.row("read", metric: "latency", value: 2)], [error], [Self.row("read", metric: "latency", value: 20)]],
            samples: Self.samples([1, 2, 3], round: 1) + Self.samples([10, 20, 30], round: 3))
        #expect(failed.count == 2 && failed[1].isError)
        #expect(failed[0].rounds == 2 && failed[0].statistics == Statistics([1, 2, 3, 10, 20, 30]))
        #expect(failed[0].note == "n; samples of 2 rounds pooled; 2 of 3 rounds: none from round 2")

        // Only round 1 of three counted an instruction row: one value, not a mean over layouts.
        let counted = RoundMerger.merge(
            rounds: [[Self.row("read", metric: "instructions", value: 280)], [Self.row("read", metric: "instructions", value: nil)], []], samples: [])
        #expect(counted[0].rounds == 1 && !counted[0].isMeanOverLayouts && counted[0].value == 280)
        #expect(counted[0].note.hasSuffix("; 1 of 3 rounds: none from rounds 2, 3"))

        // No round gave a value (a figure the strategy does not have): the row stays as it is.
        let none = RoundMerger.merge(rounds: [[Self.row("read", metric: "allocations", value: nil)], [Self.row("read", metric: "allocations", value: nil)]], samples: [])
        #expect(none[0].statistics == nil && none[0].rounds == 2 && none[0].note == "n")
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

    @Test("rows that differ only in concurrency pool their own samples; samples without the full key pool only where one row matches")
    func samplesFollowTheirRowsKey() {
        func hop(_ callers: Int, _ value: Double) -> ResultRow {
            var row = Self.row("round-trip", metric: "latency", value: value)
            row.strategy = RowKey.noStrategy
            row.executor = "actor"
            row.concurrency = callers
            return row
        }
        let rounds = [[hop(1, 2), hop(4, 20)], [hop(1, 2), hop(4, 20)]]
        let samples =
            Self.samples([1, 2], round: 1, of: hop(1, 0)) + Self.samples([3, 4], round: 2, of: hop(1, 0))
            + Self.samples([10, 20], round: 1, of: hop(4, 0)) + Self.samples([30, 40], round: 2, of: hop(4, 0))
        let merged = RoundMerger.merge(rounds: rounds, samples: samples)
        #expect(merged.map(\.statistics) == [Statistics([1, 2, 3, 4]), Statistics([10, 20, 30, 40])])

        // A file without the full key: hops' samples carried their callers in `subscribers`, so
        // these two rows are told apart; two isolation kinds at one caller count are not, and
        // each is summarised over its rounds' values instead.
        func partial(_ sample: SampleRow) -> SampleRow {
            var sample = sample
            sample.subscribers = sample.concurrency ?? 0
            sample.rowKey = nil
            return sample
        }
        #expect(RoundMerger.merge(rounds: rounds, samples: samples.map(partial)).map(\.statistics) == [Statistics([1, 2, 3, 4]), Statistics([10, 20, 30, 40])])
        var other = hop(1, 200)
        other.executor = "mutex"
        let twoKinds = RoundMerger.merge(rounds: [[hop(1, 2), other], [hop(1, 4), other]], samples: samples.map(partial))
        #expect(twoKinds.map(\.statistics) == [Statistics([2, 4]), Statistics([200, 200])])
    }
}
