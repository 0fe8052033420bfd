import Foundation
import ObservationStrategies
import Testing

@testable import ObsBenchKit

/// The report and the claims check: verdicts on rows with known answers, the committed claims
/// file against what obsbench can produce, and a report that stands alone.
@Suite("Report and claims")
struct ReportTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func row(_ suite: String, _ workload: String, _ strategy: String, _ metric: String, _ value: Double?, objects: Int = 1_000, subscribers: Int = 0) -> ResultRow {
        ResultRow(
            runID: "r", suite: suite, workload: workload, strategy: strategy, executor: "main-actor", objects: objects, subscribers: subscribers,
            concurrency: 1, metric: metric, unit: "u", statistics: value.map { Statistics(exact: $0) }, note: value == nil ? "needs jemalloc" : "")
    }

    static func claim(_ checks: [Check]) -> Claim {
        Claim(id: "c", claim: "a claim", source: "somewhere", checks: checks)
    }

    static func check(_ row: RowSelector, minus: RowSelector? = nil, add: Double? = nil, factor: Double? = nil, low: Double?, high: Double?) -> Check {
        Check(what: "x", row: row, minus: minus, add: add, factor: factor, unit: "ns", low: low, high: high)
    }

    static func select(_ strategy: String, workload: String = "read-untracked", largest: String? = nil) -> RowSelector {
        RowSelector(suite: "latency", workload: workload, strategy: strategy, metric: "latency", largest: largest)
    }

    @Test("a claim holds inside its range, is refuted outside it, and is not measurable without its rows")
    func verdicts() {
        let rows = [Self.row("latency", "read-untracked", "observable", "latency", 3), Self.row("latency", "read-untracked", "published", "latency", 50)]
        #expect(ClaimVerdict(claim: Self.claim([Self.check(Self.select("observable"), low: 2, high: 5)]), rows: rows).verdict == .holds)
        #expect(ClaimVerdict(claim: Self.claim([Self.check(Self.select("published"), low: 2, high: 5)]), rows: rows).verdict == .refuted)
        let missing = ClaimVerdict(claim: Self.claim([Self.check(Self.select("grdb-pool"), low: 2, high: 5)]), rows: rows)
        #expect(missing.verdict == .notMeasurable)
        #expect(missing.findings[0].contains("the run has no row latency/read-untracked/grdb-pool/latency"))
        // One check out of range refutes the claim even when another is missing.
        let mixed = ClaimVerdict(claim: Self.claim([Self.check(Self.select("grdb-pool"), low: 2, high: 5), Self.check(Self.select("published"), low: nil, high: 10)]), rows: rows)
        #expect(mixed.verdict == .refuted)
        var unmeasurable = Self.claim([])
        unmeasurable.notMeasurable = "no way to count it here"
        let declared = ClaimVerdict(claim: unmeasurable, rows: rows)
        #expect(declared.verdict == .notMeasurable && declared.findings == ["no way to count it here"])
    }

    @Test("a check computes (row − minus + add) × factor, picks the largest point of a sweep, and refuses ambiguous or empty rows")
    func arithmeticAndSelection() {
        let rows = [
            Self.row("latency", "read-untracked", "observable", "latency", 10), Self.row("latency", "read-untracked", "plain", "latency", 4),
            Self.row("memory", "store-lifecycle", "plain", "fresh_bytes_per_object", 60, objects: 1_000),
            Self.row("memory", "store-lifecycle", "plain", "fresh_bytes_per_object", 57, objects: 100_000),
            Self.row("memory", "write-allocations", "plain", "allocations_per_write", nil),
            ResultRow.error(runID: "r", suite: "scaling", strategy: "published", message: "crashed"),
        ]
        let computed = ClaimVerdict.measure(Self.check(Self.select("observable"), minus: Self.select("plain"), add: 16, factor: 0.5, low: nil, high: nil), rows: rows)
        #expect((try? computed.get().0) == 11)
        let memory = RowSelector(suite: "memory", workload: "store-lifecycle", strategy: "plain", metric: "fresh_bytes_per_object", largest: "objects")
        let largest = ClaimVerdict.measure(Self.check(memory, low: nil, high: nil), rows: rows)
        #expect((try? largest.get().0) == 57)
        #expect((try? largest.get().1) == " (N=100000)")
        var ambiguous = memory
        ambiguous.largest = nil
        #expect(ambiguous.select(from: rows).failureDescription?.contains("2 rows match") == true)
        let empty = RowSelector(suite: "memory", workload: "write-allocations", strategy: "plain", metric: "allocations_per_write")
        #expect(empty.select(from: rows).failureDescription?.contains("has no value here: needs jemalloc") == true)
        let failed = RowSelector(suite: "scaling", workload: "scaling-shared", strategy: "published", metric: "latency")
        #expect(failed.select(from: rows).failureDescription?.contains("worker of published failed") == true)
    }

    @Test("the committed claims file reads, and every claim names suites, workloads and strategies obsbench runs")
    func committedClaims() throws {
        let file = try ClaimsFile.load(Self.root.appendingPathComponent("claims/claims.json").path)
        #expect(file.claims.count >= 13)
        #expect(Set(file.claims.map(\.id)).count == file.claims.count, "claim ids must be unique")
        for claim in file.claims {
            #expect(!claim.source.isEmpty && (claim.checks.isEmpty == (claim.notMeasurable != nil)), "\(claim.id)")
            for check in claim.checks {
                #expect(check.low != nil || check.high != nil, "\(claim.id): a check must predict something")
                for selector in [check.row] + (check.minus.map { [$0] } ?? []) {
                    let suite = try #require(SuiteRegistry.suite(named: selector.suite), "\(claim.id): unknown suite \(selector.suite)")
                    #expect(suite.workloads.contains { $0.name == selector.workload }, "\(claim.id): unknown workload \(selector.workload)")
                    #expect(selector.strategy == "-" || StrategyRegistry.entry(named: selector.strategy) != nil, "\(claim.id): unknown strategy \(selector.strategy)")
                    #expect(selector.largest == nil || ["objects", "subscribers"].contains(selector.largest!), "\(claim.id)")
                }
            }
        }
    }

    @Test("the report names each profile's winner, inlines the charts it finds, and links nothing outside the page")
    func report() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("obsbench-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("plots"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("<?xml version=\"1.0\"?>\n<!DOCTYPE svg>\n<svg xmlns=\"http://www.w3.org/2000/svg\"><rect/></svg>".utf8)
            .write(to: folder.appendingPathComponent("plots/latency.svg"))
        let rows = [
            Self.row("latency", "write-observed", "plain", "latency", 100), Self.row("latency", "write-observed", "observable", "latency", 3_000),
            Self.row("latency", "write-observed", "published", "latency", 1_500), Self.row("latency", "read-untracked", "observable", "latency", 50),
            Self.row("latency", "read-untracked", "plain", "latency", 11),
        ]
        let claims = ClaimsFile(method: "how", claims: [Self.claim([Self.check(Self.select("observable"), minus: Self.select("plain"), low: 2, high: 5)])])
        let report = RunReport(runDirectory: folder, rows: rows, metadata: nil, claims: .success(claims), chartNote: nil)
        let markdown = report.markdown()
        #expect(markdown.contains("| Write-heavy, each change shown (a live editor, a progress display) | **published** (1.50 µs) | observable (3.00 µs) |"))
        #expect(markdown.contains("the memory suite was not run"))
        #expect(markdown.contains("![latency chart](plots/latency.svg)"))
        #expect(markdown.contains("x: 39 ns — claimed 2–5 ✗ | **refuted** |"))
        #expect(markdown.contains("0 hold, 1 refuted, 0 not measurable here, of 1 claims"))
        let html = report.html()
        #expect(html.contains("<figure><svg xmlns=\"http://www.w3.org/2000/svg\"><rect/></svg>"))
        #expect(!html.contains("<?xml") && !html.contains("src=") && !html.contains("<link"), "the page must stand alone")
        #expect(html.contains("<td><strong>published</strong> (1.50 µs)</td>"))
    }

    @Test("inline markup: code and bold become tags, everything else is escaped, an odd marker stays")
    func inlineMarkup() {
        #expect(RunReport.inline("`a` and **b** <c> & d<br>e") == "<code>a</code> and <strong>b</strong> &lt;c&gt; &amp; d<br>e")
        #expect(RunReport.inline("a ` b") == "a ` b")
        #expect(RunReport.inline("`a` b ` c") == "<code>a</code> b ` c")
    }
}

extension Result {
    var failureDescription: String? {
        if case .failure(let error) = self { return "\(error)" }
        return nil
    }
}
