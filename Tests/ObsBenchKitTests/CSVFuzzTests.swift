import Foundation
import ObsBenchKit
import Testing

/// Generated malformed input for the CSV readers (results and samples, which is what a baseline
/// is): thousands of mutations of a valid file, each either read as rows that survive a round trip
/// or refused with a `ReadError` naming a line, never a crash or a silent half-read. Seeded, so a
/// failure names the seed that reproduces it (`OBSBENCH_FUZZ_SEED`); a fixed number of cases, so a
/// run checks the same files however fast the machine is, and fits in every CI run.
@Suite("CSV fuzz")
struct CSVFuzzTests {
    static let seed: UInt64 = ProcessInfo.processInfo.environment["OBSBENCH_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x0B5B_E4C4_F022
    /// Mutated files per run: the same ones for a given seed, on any machine.
    static let cases = 5_000

    /// Pieces a mutation inserts: the characters and tokens that break CSV and number parsing.
    static let fragments = [
        ",", "\"", "\"\"", "\n", "\r\n", "\r", ",,", "nan", "inf", "-inf", "-", "1e308", "1e999", "0x1p3",
        "99999999999999999999", "-1", " ", "é", "🙂", "\u{0}", "latency", "ns/op", "a\"b",
    ]

    static func randomRow(_ generator: inout SplitMix64) -> ResultRow {
        func text() -> String {
            let length = Int.random(in: 0...6, using: &generator)
            return String((0..<length).map { _ in Array("ab,\"\n\r 1.é-").randomElement(using: &generator)! })
        }
        func number() -> Double {
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: Double(Int.random(in: -1_000...1_000_000, using: &generator))
            case 1: Double.random(in: -1e6...1e6, using: &generator)
            case 2: Double.random(in: 0...1e-6, using: &generator)
            default: Double.random(in: 1e12...1e18, using: &generator)
            }
        }
        var statistics = Statistics(exact: number())
        statistics.count = Int.random(in: 1...10_000, using: &generator)
        statistics.p10 = number()
        statistics.p99 = number()
        statistics.ci95High = number()
        return ResultRow(
            runID: text(), suite: text(), workload: text(), strategy: text(), executor: text(),
            objects: Int.random(in: 0...1_000_000, using: &generator), subscribers: Int.random(in: 0...10_000, using: &generator),
            concurrency: Int.random(in: 0...64, using: &generator), metric: Metric.named(text()), unit: text(),
            statistics: Bool.random(using: &generator) ? statistics : nil, note: text(),
            rounds: Int.random(in: 1...20, using: &generator))
    }

    @Test("random rows, with commas, quotes and line breaks in every text field, read back exactly")
    func roundTrip() throws {
        var generator = SplitMix64(seed: Self.seed)
        for _ in 0..<2_000 {
            let rows = (0..<Int.random(in: 1...5, using: &generator)).map { _ in Self.randomRow(&generator) }
            let text = CSV.line(ResultRow.columns) + rows.map { CSV.line($0.fields) }.joined()
            #expect(try ResultsReader.parse(text) == rows, "seed \(Self.seed)")
        }
    }

    /// One random edit of `text`: cut, insert, duplicate or swap lines, truncate, or change one field.
    static func mutate(_ text: String, _ generator: inout SplitMix64) -> String {
        var scalars = Array(text.unicodeScalars)
        let position = Int.random(in: 0...scalars.count, using: &generator)
        switch Int.random(in: 0..<6, using: &generator) {
        case 0:
            let end = min(scalars.count, position + Int.random(in: 1...40, using: &generator))
            scalars.removeSubrange(position..<end)
        case 1:
            scalars.insert(contentsOf: fragments.randomElement(using: &generator)!.unicodeScalars, at: position)
        case 2:
            scalars.removeSubrange(position...)
        default:
            var lines = text.components(separatedBy: "\n")
            let index = Int.random(in: 0..<lines.count, using: &generator)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: lines.insert(lines[index], at: index)
            case 1: lines.swapAt(index, Int.random(in: 0..<lines.count, using: &generator))
            default:
                var fields = lines[index].components(separatedBy: ",")
                fields[Int.random(in: 0..<fields.count, using: &generator)] = fragments.randomElement(using: &generator)!
                lines[index] = fields.joined(separator: ",")
            }
            return lines.joined(separator: "\n")
        }
        return String(String.UnicodeScalarView(scalars))
    }

    @Test("mutated results and samples files are read whole or refused with a line and a reason, never half-read")
    func mutations() throws {
        var generator = SplitMix64(seed: Self.seed ^ 0xF022)
        let rows = (0..<8).map { _ in Self.randomRow(&generator) }
        let resultsText = CSV.line(ResultRow.columns) + rows.map { CSV.line($0.fields) }.joined()
        let samples = (0..<8).map {
            SampleRow(
                runID: "r", suite: "latency", workload: "w,\"x\"", strategy: "plain", metric: .latency, unit: "ns/op", index: $0, value: Double($0) * 1.5, round: 1 + $0 % 3,
                subscribers: $0)
        }
        let samplesText = CSV.line(SampleRow.columns) + samples.map { CSV.line($0.fields) }.joined()

        var refused = 0
        for cases in 1...Self.cases {
            var results = resultsText
            var sampleFile = samplesText
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                results = Self.mutate(results, &generator)
                sampleFile = Self.mutate(sampleFile, &generator)
            }
            let lineCount = results.filter { $0 == "\n" || $0 == "\r\n" }.count + 2
            do {
                let read = try ResultsReader.parse(results)
                // Read means whole: every value finite, and writing the rows back reads the same rows.
                #expect(read.allSatisfy { row in [row.statistics?.median, row.statistics?.max, row.statistics?.ci95Low].allSatisfy { $0?.isFinite ?? true } })
                let rewritten = CSV.line(ResultRow.columns) + read.map { CSV.line($0.fields) }.joined()
                #expect(try ResultsReader.parse(rewritten) == read, "seed \(Self.seed), case \(cases):\n\(results)")
            } catch {
                refused += 1
                #expect((0...lineCount).contains(error.line) && !error.reason.isEmpty, "seed \(Self.seed), case \(cases): \(error)")
            }
            do {
                let read = try SamplesReader.parse(sampleFile)
                #expect(read.allSatisfy { $0.value.isFinite && $0.round >= 1 && $0.subscribers >= 0 })
            } catch {
                #expect(!error.reason.isEmpty)
            }
        }
        // The mutations must mostly break the file, or the test proves little.
        #expect(refused * 2 > Self.cases, "only \(refused) of \(Self.cases) mutated files were refused")
    }
}
