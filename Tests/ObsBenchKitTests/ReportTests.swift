import BuiltInStrategies
import Foundation
import ObservationStrategies
import Testing

@testable import ObsBenchKit

/// The report and the claims check: verdicts on rows with known answers, the committed claims
/// file against what obsbench can produce, and a report that stands alone.
@Suite("Report and claims")
struct ReportTests {
    init() { BuiltInStrategiesKnown.declare() }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A row measured in `processes` worker processes (2 unless said), each of which gave `value`
    /// (or the values of `perProcess`, by round number).
    static func row(
        _ suite: String, _ workload: String, _ strategy: String, _ metric: String, _ value: Double?, objects: Int = 1_000, subscribers: Int = 0,
        processes: Int = 2, perProcess: [Int: Double]? = nil
    ) -> ResultRow {
        var row = ResultRow(
            runID: "r", suite: suite, workload: workload, strategy: strategy, executor: "main-actor", objects: objects, subscribers: subscribers,
            concurrency: 1, metric: Metric.named(metric), unit: "u", statistics: value.map { Statistics(exact: $0) }, note: value == nil ? "needs jemalloc" : "",
            rounds: processes)
        if let value { row.roundValues = perProcess ?? Dictionary(uniqueKeysWithValues: (1...processes).map { ($0, value) }) }
        return row
    }

    static func claim(_ checks: [Check]) -> Claim {
        Claim(id: "c", claim: "a claim", source: "somewhere", checks: checks)
    }

    static func check(_ row: RowSelector, minus: RowSelector? = nil, add: Double? = nil, factor: Double? = nil, low: Double?, high: Double?) -> Check {
        Check(what: "x", row: row, minus: minus, add: add, factor: factor, unit: "ns", low: low, high: high)
    }

    static func select(_ strategy: String, workload: String = "read-untracked", largest: String? = nil) -> RowSelector {
        RowSelector(suite: "latency", workload: workload, strategy: strategy, metric: .latency, largest: largest)
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

    @Test("a claim resting on one process is not shown to repeat, one whose processes disagree says so, and one that repeats says on how many")
    func processes() throws {
        let claim = Self.claim([Self.check(Self.select("observable"), minus: Self.select("plain"), low: 2, high: 5)])
        let plain = Self.row("latency", "read-untracked", "plain", "latency", 1, processes: 3)
        // One process of observable: it would hold, and says it has not been shown to repeat.
        let once = ClaimVerdict(claim: claim, rows: [Self.row("latency", "read-untracked", "observable", "latency", 4, processes: 1), plain])
        #expect(once.verdict == .notShownToRepeat && once.processes == 1)
        #expect(once.findings.last?.hasPrefix("one process: every number above comes from one worker process, so it would hold") == true, "\(once.findings)")
        // Three processes, the pooled figure inside the range, one process outside it.
        let split = Self.row("latency", "read-untracked", "observable", "latency", 4, processes: 3, perProcess: [1: 4, 2: 4.5, 3: 9])
        let disagreeing = ClaimVerdict(claim: claim, rows: [split, plain])
        #expect(disagreeing.verdict == .roundsDisagree && disagreeing.findings.last == "rounds disagree: it holds in 2 of the 3 processes every number was measured in")
        // Every process inside: it holds, on 3 processes.
        let agreeing = ClaimVerdict(claim: claim, rows: [Self.row("latency", "read-untracked", "observable", "latency", 4, processes: 3), plain])
        #expect(agreeing.verdict == .holds && agreeing.findings.last == "rests on 3 processes, each giving the same verdict", "\(agreeing.findings)")
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
        let memory = RowSelector(suite: "memory", workload: "store-lifecycle", strategy: "plain", metric: .freshBytesPerObject, largest: "objects")
        let largest = ClaimVerdict.measure(Self.check(memory, low: nil, high: nil), rows: rows)
        #expect((try? largest.get().0) == 57)
        #expect((try? largest.get().1) == " (N=100000)")
        var ambiguous = memory
        ambiguous.largest = nil
        #expect(ambiguous.select(from: rows).failureDescription?.contains("2 rows match") == true)
        let empty = RowSelector(suite: "memory", workload: "write-allocations", strategy: "plain", metric: .allocationsPerWrite)
        #expect(empty.select(from: rows).failureDescription?.contains("has no value here: needs jemalloc") == true)
        let failed = RowSelector(suite: "scaling", workload: "scaling-shared", strategy: "published", metric: .latency)
        #expect(failed.select(from: rows).failureDescription?.contains("worker of published failed") == true)
    }

    @Test("a ratio divides (row − minus + add) × factor by its divisor's row − minus, at the first row's sweep point, and is not measured where the divisor is not above 0")
    func ratio() throws {
        func row(_ workload: String, _ strategy: String, _ value: Double, objects: Int = 1_000) -> ResultRow {
            Self.row("latency", workload, strategy, "instructions", value, objects: objects)
        }
        func select(_ workload: String, _ strategy: String, largest: String? = nil) -> RowSelector {
            RowSelector(suite: "latency", workload: workload, strategy: strategy, metric: .instructions, largest: largest)
        }
        // Made-up counts: net of plain, the concrete loop 200 − 10 = 190, the protocol path 260 − 60 = 200.
        let rows = [
            row("read-untracked-concrete", "observable", 200), row("read-untracked-concrete", "plain", 10),
            row("read-untracked", "observable", 260), row("read-untracked", "plain", 60),
            row("read-untracked", "published", 60), row("read-untracked-concrete", "published", 5),
            // A sweep: the divisor is read at the point the first row was taken at (N = 10,000).
            row("scan-all", "observable", 900, objects: 10_000), row("scan-all", "observable", 90, objects: 1_000),
            row("scan-all", "plain", 300, objects: 10_000), row("scan-all", "plain", 30, objects: 1_000),
        ]
        var share = Check(
            what: "concrete / protocol", row: select("read-untracked-concrete", "observable"), minus: select("read-untracked-concrete", "plain"), factor: 100,
            unit: "%", low: 97, high: 103)
        share.dividedBy = Divisor(row: select("read-untracked", "observable"), minus: select("read-untracked", "plain"))
        #expect((try? ClaimVerdict.measure(share, rows: rows).get().0) == 95)
        let verdict = ClaimVerdict(claim: Self.claim([share]), rows: rows)
        #expect(verdict.verdict == .refuted)
        #expect(verdict.findings == ["concrete / protocol: 95 % — claimed 97–103 ✗", "rests on 2 processes, each giving the same verdict"])
        share.low = 90
        #expect(ClaimVerdict(claim: Self.claim([share]), rows: rows).verdict == .holds)
        // add applies before the division: (190 + 10) / 200.
        share.add = 10
        share.factor = nil
        #expect((try? ClaimVerdict.measure(share, rows: rows).get().0) == 1)

        // The divisor without minus, at the sweep point the first row was taken at.
        let sweep = Check(
            what: "scan over plain's", row: select("scan-all", "observable", largest: "objects"), dividedBy: Divisor(row: select("scan-all", "plain", largest: "objects")),
            unit: "×", low: 2.9, high: 3.1)
        #expect((try? ClaimVerdict.measure(sweep, rows: rows).get().0) == 3)

        // published's protocol path is plain's: 60 − 60 = 0 is no denominator.
        var zero = share
        zero.row = select("read-untracked-concrete", "published")
        zero.dividedBy = Divisor(row: select("read-untracked", "published"), minus: select("read-untracked", "plain"))
        let undefined = ClaimVerdict(claim: Self.claim([zero]), rows: rows)
        #expect(undefined.verdict == .notMeasurable)
        #expect(
            undefined.findings[0].contains(
                "the ratio's denominator latency/read-untracked/published/instructions − latency/read-untracked/plain/instructions is 0 here, not above 0"))
        // A divisor's row missing: not measured, the row named.
        var missing = share
        missing.dividedBy = Divisor(row: select("read-untracked", "grdb-pool"))
        #expect(ClaimVerdict(claim: Self.claim([missing]), rows: rows).findings[0].contains("the run has no row latency/read-untracked/grdb-pool/instructions"))
        // Timed rows only: the message says the rows are of another metric.
        let timed = [Self.row("latency", "read-untracked-concrete", "observable", "latency", 30)]
        #expect(ClaimVerdict(claim: Self.claim([share]), rows: timed).findings[0].contains("rows are latency (made with another --measure?)"))

        // The claims file reads divided_by, and refuses a bad largest in it.
        let json = """
            {"method": "m", "claims": [{"id": "r", "claim": "c", "source": "s", "checks": [{"what": "w", "unit": "%", "low": 97, "high": 103, "factor": 100,
              "row": {"suite": "latency", "workload": "read-untracked-concrete", "strategy": "observable", "metric": "instructions"},
              "divided_by": {"row": {"suite": "latency", "workload": "read-untracked", "strategy": "observable", "metric": "instructions", "largest": "LARGEST"}}}]}]}
            """
        let file = try JSONDecoder().decode(ClaimsFile.self, from: Data(json.replacingOccurrences(of: "LARGEST", with: "objects").utf8))
        #expect(file.claims[0].checks[0].dividedBy?.row.workload == "read-untracked")
        try file.validate("claims.json")
        let bad = try JSONDecoder().decode(ClaimsFile.self, from: Data(json.replacingOccurrences(of: "LARGEST", with: "rounds").utf8))
        #expect(throws: ClaimsError.self) { try bad.validate("claims.json") }
    }

    @Test("the committed claims file reads, and every claim names suites, workloads and strategies obsbench runs")
    func committedClaims() throws {
        let file = try ClaimsFile.load(Self.root.appendingPathComponent("claims/claims.json").path)
        #expect(file.claims.count == 23)
        #expect(Set(file.claims.map(\.id)).count == file.claims.count, "claim ids must be unique")
        for claim in file.claims {
            #expect(!claim.source.isEmpty && (claim.checks.isEmpty == (claim.notMeasurable != nil)), "\(claim.id)")
            for check in claim.checks + (claim.requires ?? []) {
                #expect(check.low != nil || check.high != nil || check.above != nil, "\(claim.id): a check must predict something")
                for selector in check.selectors {
                    let suite = try #require(SuiteRegistry.suite(named: selector.suite), "\(claim.id): unknown suite \(selector.suite)")
                    #expect(suite.workloads.contains { $0.writesRows(named: selector.workload) }, "\(claim.id): unknown workload \(selector.workload)")
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
            // Eight processes each, every one putting published ahead: a winner, not a tie.
            Self.row("latency", "write-observed", "plain", "latency", 100, processes: 8),
            Self.row("latency", "write-observed", "observable", "latency", 3_000, processes: 8),
            Self.row("latency", "write-observed", "published", "latency", 1_500, processes: 8), Self.row("latency", "read-untracked", "observable", "latency", 50),
            Self.row("latency", "read-untracked", "plain", "latency", 11),
        ]
        let claims = ClaimsFile(method: "how", claims: [Self.claim([Self.check(Self.select("observable"), minus: Self.select("plain"), low: 2, high: 5)])])
        let report = RunReport(runDirectory: folder, rows: rows, metadata: nil, claims: .success(claims), chartNote: nil)
        let markdown = report.markdown()
        #expect(
            markdown.contains(
                "| Write-heavy, each change shown (a live editor, a progress display) | **published** (1.50 µs) | observable (3.00 µs) | observes and does not coalesce (capabilities.coalesces: false) | a write until the one view reading it has re-run (strategies that coalesce show fewer changes: not ranked) | `latency/write-observed latency` |"
            ))
        #expect(markdown.contains("nobody is ranked: the run has no memory/store-lifecycle fresh_bytes_per_object row (the memory suite was not run)"))
        #expect(
            markdown.contains(
                "- **Read-heavy views (bodies read many fields)** — not ranked: observable, published (lacks its deciding rows: no latency/read-in-view latency row; the subscription suite was not run)\n"
            ))
        #expect(markdown.contains("![latency chart](plots/latency.svg)"))
        #expect(markdown.contains("x: 39 ns — claimed 2–5 ✗<br>rests on 2 processes, each giving the same verdict | **refuted** |"), "\(markdown)")
        #expect(markdown.contains("0 hold, 1 refuted, 0 not measurable here, 0 not shown to repeat (one process), 0 where rounds disagree, of 1 claims"))
        let html = report.html()
        #expect(html.contains("<figure><svg xmlns=\"http://www.w3.org/2000/svg\"><rect/></svg>"))
        #expect(!html.contains("<?xml") && !html.contains("src=") && !html.contains("<link"), "the page must stand alone")
        #expect(html.contains("<td><strong>published</strong> (1.50 µs)</td>"))
    }

    // MARK: Claims about torn states

    static let tornSelector = RowSelector(suite: "consistency", workload: "invariant-1-writer", strategy: "grdb-queue", metric: .tornObservations)

    /// "0 torn" with the requirement that the views re-ran.
    static var tornClaim: Claim {
        var reruns = tornSelector
        reruns.metric = .rerunsPerTransaction
        var claim = claim([Check(what: "torn", row: tornSelector, unit: "", low: 0, high: 0)])
        claim.requires = [Check(what: "re-runs", row: reruns, unit: "re-runs", above: 0)]
        return claim
    }

    static func consistencyRows(torn: Double, reruns: Double?) -> [ResultRow] {
        [row("consistency", "invariant-1-writer", "grdb-queue", "torn_observations", torn)]
            + (reruns.map { [row("consistency", "invariant-1-writer", "grdb-queue", "reruns_per_transaction", $0)] } ?? [])
    }

    @Test("a claim of no torn states is judged only where the views re-ran: 0 torn with 0 re-runs is not measurable, not a hold")
    func tornClaimNeedsReruns() {
        let idle = ClaimVerdict(claim: Self.tornClaim, rows: Self.consistencyRows(torn: 0, reruns: 0))
        #expect(idle.verdict == .notMeasurable)
        #expect(idle.findings.first == "not judged: 1 of its 1 requirements not met, so its checks say nothing here")
        #expect(idle.findings.contains("requires re-runs: 0 re-runs — needed > 0 ✗"))
        #expect(idle.findings.contains("torn: 0 — claimed 0 ✓ (not judged)"))
        let unknown = ClaimVerdict(claim: Self.tornClaim, rows: Self.consistencyRows(torn: 0, reruns: nil))
        #expect(unknown.verdict == .notMeasurable)
        #expect(ClaimVerdict(claim: Self.tornClaim, rows: Self.consistencyRows(torn: 0, reruns: 1.5)).verdict == .holds)
        #expect(ClaimVerdict(claim: Self.tornClaim, rows: Self.consistencyRows(torn: 3, reruns: 1.5)).verdict == .refuted)
        // Without the requirement, the same rows would have held on a view that never ran.
        var bare = Self.tornClaim
        bare.requires = nil
        #expect(ClaimVerdict(claim: bare, rows: Self.consistencyRows(torn: 0, reruns: 0)).verdict == .holds)
    }

    @Test("the claims file refuses a check on torn states whose claim does not require re-runs above 0 for the same rows")
    func tornClaimWithoutRerunsIsRefused() throws {
        try ClaimsFile(method: "m", claims: [Self.tornClaim]).validate("claims.json")
        var bare = Self.tornClaim
        bare.requires = nil
        #expect(throws: ClaimsError.self) { try ClaimsFile(method: "m", claims: [bare]).validate("claims.json") }
        var zeroAllowed = Self.tornClaim
        zeroAllowed.requires![0].above = nil
        zeroAllowed.requires![0].low = 0
        #expect(throws: ClaimsError.self) { try ClaimsFile(method: "m", claims: [zeroAllowed]).validate("claims.json") }
        var otherStrategy = Self.tornClaim
        otherStrategy.requires![0].row.strategy = "grdb-pool"
        #expect(throws: ClaimsError.self) { try ClaimsFile(method: "m", claims: [otherStrategy]).validate("claims.json") }
        var nothing = Self.tornClaim
        nothing.requires![0].above = nil
        #expect(throws: ClaimsError.self) { try ClaimsFile(method: "m", claims: [nothing]).validate("claims.json") }
        #expect(ClaimVerdict.range(Check(what: "x", row: Self.tornSelector, unit: "", high: 9, above: 0)) == "> 0, ≤ 9")
    }

    // MARK: The guide

    static func metadata(suites: [String], strategies: [StrategyDescriptor]) -> RunMetadata {
        RunMetadata(
            runID: "r", time: "t", gitRevision: "g", host: "h", cpuModel: "c", coreCount: 2, swiftVersion: "6.3", buildConfiguration: "release", allocator: "a",
            suites: suites, strategies: strategies.map(\.name), quick: true, commandLine: [], status: .completed, finishedTime: nil, clockResolutionNanoseconds: 1,
            clockCallCostNanoseconds: 1, strategyDetails: strategies)
    }

    static func builtIn(_ name: String) -> StrategyDescriptor { StrategyRegistry.entry(named: name)!.descriptor }

    /// A store of one's own, as `run.json` describes it.
    static func custom(_ name: String, dependency: String = "none", transactional: Bool = false) -> StrategyDescriptor {
        StrategyDescriptor(
            name: name, summary: "a store of one's own", dependency: dependency,
            capabilities: Capabilities(granularity: .property, deduplicates: false, delivery: .synchronous, transactional: transactional, coalesces: false))
    }

    /// One strategy's one-observation consistency rows (1 and 2 writers: `commits` transactions
    /// each, a full run's by default) and its two-field transaction.
    static func crossFieldRows(_ strategy: String, torn: (Double, Double), reruns: (Double, Double), transaction: Double, commits: (Double, Double) = (1_000, 2_000))
        -> [ResultRow]
    {
        [
            row("consistency", "invariant-1-writer", strategy, "torn_observations", torn.0, objects: 20),
            row("consistency", "invariant-2-writers", strategy, "torn_observations", torn.1, objects: 20),
            row("consistency", "invariant-1-writer", strategy, "reruns_per_transaction", reruns.0, objects: 20),
            row("consistency", "invariant-2-writers", strategy, "reruns_per_transaction", reruns.1, objects: 20),
            row("consistency", "invariant-1-writer", strategy, "transactions", commits.0, objects: 20),
            row("consistency", "invariant-2-writers", strategy, "transactions", commits.1, objects: 20),
            row("latency", "transaction-2-fields", strategy, "latency", transaction),
        ]
    }

    static func entry(_ guide: ProfileGuide, _ prefix: String) throws -> ProfileGuide.Entry {
        try #require(guide.entries.first { $0.profile.hasPrefix(prefix) })
    }

    @Test("the derived section's avoidable share never says all or none of the re-runs when it is neither")
    func avoidableShare() {
        #expect(RunReport.avoidableShare(891, of: 895) == "99.6 %")
        #expect(RunReport.avoidableShare(895, of: 895) == "100 %")
        #expect(RunReport.avoidableShare(2, of: 895) == "0.2 %")
        #expect(RunReport.avoidableShare(0, of: 895) == "0 %")
        #expect(RunReport.avoidableShare(90, of: 180) == "50 %")
    }

    @Test("a timed profile names a winner only where at least 6 paired rounds all put it ahead of the next; otherwise both are tied, with why")
    func guideTies() throws {
        func write(_ strategy: String, _ rounds: [Double]) -> ResultRow {
            let byRound = Dictionary(uniqueKeysWithValues: rounds.enumerated().map { ($0.offset + 1, $0.element) })
            return Self.row("latency", "write-observed", strategy, "latency", rounds.sorted()[rounds.count / 2], processes: rounds.count, perProcess: byRound)
        }
        // published's pooled median is lower, but observable is ahead in 1 of 8 rounds.
        let interleaved = [write("published", [90, 95, 91, 130, 92, 94, 93, 96]), write("observable", [100, 101, 99, 100, 102, 100, 101, 99])]
        let tied = try Self.entry(ProfileGuide(rows: interleaved), "Write-heavy")
        #expect(tied.ranking.map(\.strategy) == ["published", "observable"])
        #expect(tied.tie == "rounds disagree: published ahead in 7 of 8 rounds", "\(tied.tie ?? "nil")")
        // The page's first lines say it in one line per profile.
        let answer = RunReport.answer(tied)
        #expect(answer.hasPrefix("**Write-heavy, each change shown**: tied, published ") && answer.hasSuffix("(rounds disagree: published ahead in 7 of 8 rounds)"), "\(answer)")
        let separated = [write("published", [90, 95, 91, 93, 92, 94, 93, 96]), write("observable", [100, 101, 99, 100, 102, 100, 101, 99])]
        #expect(try Self.entry(ProfileGuide(rows: separated), "Write-heavy").tie == nil)
        let oneProcess = [write("published", [90]), write("observable", [100])]
        #expect(try Self.entry(ProfileGuide(rows: oneProcess), "Write-heavy").tie == "one process each: not shown to repeat")
        // The report names both, tied, in the winner's column.
        let markdown = RunReport(runDirectory: URL(fileURLWithPath: "/nonexistent"), rows: interleaved, metadata: nil, claims: .failure(ClaimsError.leftOut), chartNote: nil)
            .blocks.compactMap { block -> [[String]]? in if case .table(_, let rows) = block { rows } else { nil } }.flatMap { $0 }
        #expect(markdown.contains { $0.first?.hasPrefix("Write-heavy") == true && $0[1].hasPrefix("tied: **published**") }, "\(markdown)")
    }

    @Test("the guide at a glance: each ranked strategy's deciding figure over the winner's, a tied second as tied and shaded as the winner, — where not ranked")
    func glance() throws {
        func write(_ strategy: String, _ rounds: [Double]) -> ResultRow {
            let byRound = Dictionary(uniqueKeysWithValues: rounds.enumerated().map { ($0.offset + 1, $0.element) })
            return Self.row("latency", "write-observed", strategy, "latency", rounds.sorted()[rounds.count / 2], processes: rounds.count, perProcess: byRound)
        }
        let separated = [
            write("published", [90, 95, 91, 93, 92, 94, 93, 96]), write("observable", [180, 181, 179, 180, 182, 180, 181, 179]),
            write("state-subject", [2_000, 2_010, 1_990, 2_000, 2_020, 2_000, 2_010, 1_990]),
        ]
        guard case .shadedTable(let header, let rows, let ratios) = try #require(RunReport.glance(ProfileGuide(rows: separated))) else {
            Issue.record("not a shaded table")
            return
        }
        #expect(header == ["strategy", "Write-heavy, each change shown"])
        // 93, 180 and 2,000 (the rows' values): over 93.
        #expect(rows == [["published", "×1.00"], ["observable", "×1.94"], ["state-subject", "×21.51"]], "\(rows)")
        #expect(ratios[0] == [nil, 1] && ratios[2][1]! > 21)
        #expect(RunReport.shade(1) == " style=\"background: hsl(120, 70%, 82%)\"" && RunReport.shade(21.4) == " style=\"background: hsl(0, 70%, 82%)\"")
        #expect(RunReport.shade(nil).isEmpty)
        // observable ahead of published in one round of eight: both tied, the second shaded as the first.
        let interleaved = [write("published", [90, 95, 91, 130, 92, 94, 93, 96]), write("observable", [100, 101, 99, 100, 102, 100, 101, 99])]
        guard case .shadedTable(_, let tiedRows, let tiedRatios) = try #require(RunReport.glance(ProfileGuide(rows: interleaved))) else { return }
        #expect(tiedRows == [["published", "×1.00, tied"], ["observable", "×1.06, tied"]], "\(tiedRows)")
        #expect(tiedRatios.map { $0[1] } == [1, 1])
        // A profile that ranks nobody has no column; a strategy it does not rank, a dash.
        #expect(RunReport.glance(ProfileGuide(rows: [])) == nil)
    }

    @Test("cross-field invariants rank only strategies declaring transactions whose views re-ran and showed nothing torn; the rest is observed, not ranked")
    func crossFieldRanksOnlyTransactional() throws {
        let rows =
            Self.crossFieldRows("published", torn: (0, 0), reruns: (1, 1), transaction: 100)
            + Self.crossFieldRows("state-subject", torn: (0, 0), reruns: (1, 1), transaction: 300)
            + Self.crossFieldRows("observations", torn: (0, 0), reruns: (0.5, 0.4), transaction: 500)
            + Self.crossFieldRows("grdb-queue", torn: (2, 0), reruns: (1, 1), transaction: 50)
            + Self.crossFieldRows("grdb-pool", torn: (0, 0), reruns: (0, 0.3), transaction: 60)
            + Self.crossFieldRows("plain", torn: (0, 0), reruns: (0, 0), transaction: 10)
        let entry = try Self.entry(ProfileGuide(rows: rows), "Cross-field")
        #expect(!Self.builtIn("published").capabilities.transactional, "the test's premise: published declares no transactions")
        #expect(entry.ranking.map(\.strategy) == ["state-subject", "observations"], "published is fastest and showed nothing torn, but promises nothing")
        #expect(entry.remark == nil)
        #expect(entry.observed.map(\.strategy) == ["published"])
        #expect(
            entry.observed[0].value == "0 torn states shown by one observation (invariant-1-writer, invariant-2-writers), 1 and 1 view re-runs per commit, 3000 states observed")
        let leftOut = Dictionary(uniqueKeysWithValues: entry.leftOut.map { ($0.strategy, $0.reason) })
        #expect(Set(leftOut.keys) == ["grdb-queue", "grdb-pool"], "plain observes nothing and is left out silently")
        #expect(
            leftOut["grdb-queue"]
                == "its run contradicts its declaration: transactional: true, but one observation showed states that existed at no commit boundary in invariant-1-writer (2 torn, the most of its 2 rounds) (see the consistency table)"
        )
        #expect(leftOut["grdb-pool"]?.contains("did not re-run in every consistency workload") == true)
        #expect(entry.needs.map(\.description).contains("consistency/invariant-2-writers reruns_per_transaction"))
    }

    @Test("'nothing torn' from 2 observed states ranks nobody and says not enough observed; from 1,000 or more it ranks")
    func nothingTornNeedsEnoughObserved() throws {
        // A store that coalesces under a background writer: 1-2 views re-run per 200 commits (a quick run).
        let few =
            Self.crossFieldRows("state-subject", torn: (0, 0), reruns: (0.005, 0.0025), transaction: 300, commits: (200, 400))
            + Self.crossFieldRows("observations", torn: (0, 0), reruns: (0.005, 0.0025), transaction: 500, commits: (200, 400))
        let entry = try Self.entry(ProfileGuide(rows: few), "Cross-field")
        #expect(entry.ranking.isEmpty, "crowned from 2 observed states: \(entry.ranking)")
        #expect(entry.leftOut.map(\.strategy) == ["state-subject", "observations"])
        #expect(entry.leftOut.allSatisfy { $0.reason.hasPrefix("not enough observed: ") && $0.reason.contains("2 states observed") }, "\(entry.leftOut)")
        #expect(entry.remark?.contains("nobody is ranked: not enough observed") == true, "\(entry.remark ?? "")")
        #expect(entry.needs.map(\.description).contains("consistency/invariant-1-writer transactions"))

        // A quick run in which every commit re-ran the view: 600 observed, still too few.
        let quick = Self.crossFieldRows("state-subject", torn: (0, 0), reruns: (1, 1), transaction: 300, commits: (200, 400))
        #expect(try Self.entry(ProfileGuide(rows: quick), "Cross-field").ranking.isEmpty)
        // A full run: 1,000 + 2,000 observed, and it ranks; one with too few beside it does not.
        let full =
            Self.crossFieldRows("state-subject", torn: (0, 0), reruns: (1, 1), transaction: 300)
            + Self.crossFieldRows("observations", torn: (0, 0), reruns: (0.2, 0.1), transaction: 100)
        let ranked = try Self.entry(ProfileGuide(rows: full), "Cross-field")
        #expect(ranked.ranking.map(\.strategy) == ["state-subject"])
        #expect(ranked.leftOut.map(\.strategy) == ["observations"], "0.2 × 1,000 + 0.1 × 2,000 = 400 observed")
        #expect(ranked.remark == nil)
    }

    @Test("many small views rank by what re-running a view costs, measured alike for every store, not by view-scope")
    func manySmallViewsRankByRerunCost() throws {
        // A store of one's own without tracking scopes: its view-scope is a locked read (55 ns), but
        // re-running one of its views costs 36 µs; observable's scope costs 950 ns, a re-run 4.5 µs.
        let details = [Self.builtIn("plain"), Self.builtIn("observable"), Self.custom("dictionary-callbacks")]
        var rows: [ResultRow] = []
        for (strategy, scope, perView) in [("plain", 5.0, 0.0), ("observable", 950.0, 4_500.0), ("dictionary-callbacks", 55.0, 36_000.0)] {
            rows += [
                Self.row("latency", "view-scope", strategy, "latency", scope),
                Self.row("scaling", "scaling-shared", strategy, "cost_per_view", perView, objects: 1_000, subscribers: 10_000),
                Self.row("subscription", "subscribe-unsubscribe", strategy, "latency", 4_000),
            ]
        }
        let guide = ProfileGuide(rows: rows, metadata: Self.metadata(suites: ["latency", "scaling", "subscription"], strategies: details))
        let entry = try Self.entry(guide, "Many small views")
        #expect(entry.ranking.map(\.strategy) == ["observable", "dictionary-callbacks"])
        #expect(entry.ranking.first?.value == "4.50 µs per view re-run; subscribe + unsubscribe 4.00 µs")
        #expect(entry.needs.map(\.description) == ["scaling/scaling-shared cost_per_view", "subscription/subscribe-unsubscribe latency"])
        #expect(!entry.needs.contains { $0.workload == "view-scope" })

        // A b whose interval reaches 0 ranks nobody on it.
        var noisy = Self.row("scaling", "scaling-shared", "published", "cost_per_view", 2, objects: 1_000, subscribers: 10_000)
        noisy.statistics?.ci95Low = -3
        noisy.statistics?.ci95High = 7
        let withNoise = ProfileGuide(
            rows: rows + [noisy, Self.row("subscription", "subscribe-unsubscribe", "published", "latency", 9_000)],
            metadata: Self.metadata(suites: ["latency", "scaling", "subscription"], strategies: details + [Self.builtIn("published")]))
        let noisyEntry = try Self.entry(withNoise, "Many small views")
        #expect(noisyEntry.ranking.map(\.strategy) == ["observable", "dictionary-callbacks"])
        #expect(noisyEntry.leftOut.first { $0.strategy == "published" }?.reason.contains("not beyond noise") == true, "\(noisyEntry.leftOut)")
    }

    @Test("each profile names what a store must declare to be ranked: 'each change shown' a store that does not coalesce")
    func profilesNameTheirCapability() throws {
        let guide = ProfileGuide(rows: [])
        #expect(try Self.entry(guide, "Write-heavy").promise == "observes and does not coalesce (capabilities.coalesces: false)")
        #expect(try Self.entry(guide, "Cross-field").promise == "declares transactions (capabilities.transactional)")
        #expect(guide.entries.allSatisfy { !$0.promise.isEmpty && !$0.needs.isEmpty })
    }

    @Test("where no strategy of the run declares transactions, the cross-field profile says so, ranks nobody, and lists what was observed")
    func crossFieldWithoutTransactions() throws {
        let rows =
            Self.crossFieldRows("published", torn: (0, 0), reruns: (1, 1), transaction: 100)
            + Self.crossFieldRows("observable", torn: (0, 0), reruns: (1, 1), transaction: 200)
        let metadata = Self.metadata(suites: ["latency", "consistency"], strategies: [Self.builtIn("published"), Self.builtIn("observable")])
        let entry = try Self.entry(ProfileGuide(rows: rows, metadata: metadata), "Cross-field")
        #expect(entry.ranking.isEmpty)
        #expect(entry.remark == "no strategy in this run declares transactions (capabilities.transactional): nobody is ranked")
        #expect(entry.observed.map(\.strategy) == ["published", "observable"])
        #expect(entry.observed.allSatisfy { $0.value.hasPrefix("0 torn states shown by one observation") })
    }

    @Test("'each change shown' never ranks a store that declares it coalesces, however fast; bursts rank by time per burst, re-runs beside it")
    func coalescingIsNotEveryChange() throws {
        var coalescing = Self.custom("coalescing-batches")
        coalescing.capabilities.coalesces = true
        coalescing.capabilities.delivery = .asynchronous
        let details = [Self.builtIn("plain"), Self.builtIn("observable"), coalescing]
        var rows: [ResultRow] = []
        for (strategy, write, burst, reruns) in [("plain", 40.0, 4_000.0, 0.0), ("observable", 1_250.0, 125_000.0, 100.0), ("coalescing-batches", 900.0, 9_000.0, 1.0)] {
            rows += [
                Self.row("latency", "write-observed", strategy, "latency", write), Self.row("latency", "write-burst-100", strategy, "latency", burst),
                Self.row("latency", "write-burst-100", strategy, "reruns_per_burst", reruns),
            ]
        }
        let guide = ProfileGuide(rows: rows, metadata: Self.metadata(suites: ["latency"], strategies: details))
        let everyChange = try Self.entry(guide, "Write-heavy")
        #expect(everyChange.ranking.map(\.strategy) == ["observable"], "a coalescing store was crowned for every change shown")
        #expect(everyChange.leftOut.contains { $0.strategy == "coalescing-batches" && $0.reason.contains("coalesces") })
        let bursts = try Self.entry(guide, "Bursty writes")
        #expect(bursts.ranking.map(\.strategy) == ["coalescing-batches", "observable"])
        #expect(bursts.ranking.first?.value == "9.00 µs per burst, 1 re-runs")
        #expect(everyChange.promise.contains("does not coalesce"))
    }

    @Test(
        "a searched, filtered, sorted list ranks by the five filtered-sorted writes summed (net of the harness where concrete loops measured them), with their re-runs, avoidable re-runs and the view body cost that would change the winner; a store lacking one is left out"
    )
    func filteredListProfile() throws {
        let details = [Self.builtIn("plain"), Self.builtIn("observable"), Self.builtIn("published"), Self.builtIn("state-subject")]
        var rows: [ResultRow] = []
        let writes = FilteredSortedWorkload.Write.allCases.map { FilteredSortedWorkload($0).name }
        // (strategy, time per write, re-runs per write, avoidable per write); state-subject lacks the query write.
        for (strategy, time, reruns, avoidable) in [("observable", 2_000.0, 1.0, 0.0), ("published", 1_000.0, 2.0, 1.0), ("state-subject", 500.0, 1.0, 0.0)] {
            for write in writes where !(strategy == "state-subject" && write.hasSuffix("query")) {
                rows += [
                    Self.row("derived", write, strategy, "latency", time), Self.row("derived", write, strategy, "reruns_per_write", reruns),
                    Self.row("derived", write, strategy, "avoidable_reruns_per_write", avoidable),
                ]
            }
        }
        let guide = ProfileGuide(rows: rows, metadata: Self.metadata(suites: ["derived"], strategies: details))
        let list = try Self.entry(guide, "A searched, filtered, sorted list")
        #expect(list.ranking.map(\.strategy) == ["published", "observable"])
        #expect(list.ranking.first?.value == "5.00 µs for the five writes (through the harness: no concrete loop); 10 view re-runs, 5 of them avoidable")
        #expect(list.leftOut.contains { $0.strategy == "state-subject" && $0.reason.contains("filtered-sorted-query") })
        // observable's 5 µs more over published's 5 fewer avoidable re-runs: a body of 1 µs decides.
        #expect(list.remark?.contains("more than 1.00 µs per run makes observable the winner (5 fewer avoidable re-runs") == true, "\(list.remark ?? "")")

        // With observable's concrete loops (the same writes, 400 ns each, as an app writes them),
        // it is ranked on them, net of the harness, and wins; nobody re-runs fewer avoidable views.
        let concrete = writes.map { Self.row("derived", DerivedRows.concreteName($0), "observable", "latency", 400) }
        let netGuide = ProfileGuide(rows: rows + concrete, metadata: Self.metadata(suites: ["derived"], strategies: details))
        let net = try Self.entry(netGuide, "A searched, filtered, sorted list")
        #expect(net.ranking.map(\.strategy) == ["observable", "published"])
        #expect(net.ranking.first?.value == "2.00 µs for the five writes (its concrete loops, net of the harness); 5 view re-runs, 0 of them avoidable")
        #expect(net.remark?.contains("no ranked strategy re-runs fewer views showing nothing new than observable") == true, "\(net.remark ?? "")")
    }

    @Test("a profile whose deciding rows are missing ranks nobody and says what the run lacked; a strategy missing a row is named with why")
    func missingRowsRankNobody() throws {
        // A store of one's own whose views cost a stream and a task: its in-view reads are cheap,
        // but its cost per view is in the subscription suite, which this run did not include.
        let details = [Self.builtIn("plain"), Self.builtIn("observable"), Self.custom("dictionary-callbacks")]
        var rows: [ResultRow] = []
        for (strategy, read, scope, write) in [("plain", 1.0, 5.0, 40.0), ("observable", 90.0, 950.0, 1_250.0), ("dictionary-callbacks", 28.0, 28.0, 178.0)] {
            rows += [
                Self.row("latency", "read-in-view", strategy, "latency", read), Self.row("latency", "view-scope", strategy, "latency", scope),
                Self.row("latency", "write-observed", strategy, "latency", write),
            ]
        }
        let guide = ProfileGuide(rows: rows, metadata: Self.metadata(suites: ["latency"], strategies: details))
        for profile in ["Read-heavy"] {
            let entry = try Self.entry(guide, profile)
            #expect(entry.ranking.isEmpty, "\(profile): crowned without its deciding rows")
            #expect(entry.needs.map(\.description).contains("subscription/subscribe-unsubscribe latency"))
            #expect(entry.remark == "nobody is ranked: the run has no subscription/subscribe-unsubscribe latency row (the subscription suite was not run)")
            #expect(entry.leftOut.map(\.strategy) == ["observable", "dictionary-callbacks"])
            #expect(entry.leftOut.allSatisfy { $0.reason == "lacks its deciding rows: the subscription suite was not run" })
        }
        let smallViews = try Self.entry(guide, "Many small views")
        #expect(smallViews.ranking.isEmpty, "crowned from view-scope without a cost per view re-run")
        #expect(smallViews.remark?.contains("scaling/scaling-shared cost_per_view") == true, "\(smallViews.remark ?? "")")
        #expect(try Self.entry(guide, "Write-heavy").ranking.map(\.strategy) == ["dictionary-callbacks", "observable"], "a profile with its rows still ranks")

        // With the suite run, a strategy whose worker failed is left out, and the rest are ranked
        // with their cost per view beside the deciding number.
        rows += [
            Self.row("subscription", "subscribe-unsubscribe", "dictionary-callbacks", "latency", 4_000),
            ResultRow.error(runID: "r", suite: "subscription", strategy: "observable", message: "crashed"),
        ]
        let withSubscription = ProfileGuide(rows: rows, metadata: Self.metadata(suites: ["latency", "subscription"], strategies: details))
        let readHeavy = try Self.entry(withSubscription, "Read-heavy")
        #expect(readHeavy.ranking.map(\.strategy) == ["dictionary-callbacks"])
        #expect(readHeavy.ranking.first?.value == "28.0 ns per read; subscribe + unsubscribe 4.00 µs")
        #expect(readHeavy.leftOut.map(\.reason) == ["lacks its deciding rows: its subscription worker failed"])
        #expect(readHeavy.remark == nil)
    }

    @Test("a strategy whose bytes live outside the measured heap is not ranked on heap bytes, and the guide says where they are")
    func bytesOutsideTheHeap() throws {
        #expect(BytesOutsideHeap.note(for: Self.builtIn("grdb-pool"))?.contains("WAL") == true)
        #expect(BytesOutsideHeap.note(for: Self.builtIn("grdb-queue")) == nil, "an in-memory database's pages are malloc'd, so counted")
        #expect(BytesOutsideHeap.note(for: Self.builtIn("observable")) == nil)
        let onSQLite = Self.custom("sqlite-store", dependency: "SQLite 3.46")
        #expect(BytesOutsideHeap.note(for: onSQLite)?.contains("SQLite") == true)

        var rows: [ResultRow] = []
        for (strategy, small, large) in [("observable", 140.0, 130.0), ("grdb-pool", 131.0, 25.0), ("grdb-queue", 64.0, 28.7), ("sqlite-store", 90.0, 20.0)] {
            rows += [
                Self.row("memory", "store-lifecycle", strategy, "fresh_bytes_per_object", small, objects: 1_000),
                Self.row("memory", "store-lifecycle", strategy, "fresh_bytes_per_object", large, objects: 10_000),
            ]
        }
        let details = [Self.builtIn("observable"), Self.builtIn("grdb-pool"), Self.builtIn("grdb-queue"), onSQLite]
        let entry = try Self.entry(ProfileGuide(rows: rows, metadata: Self.metadata(suites: ["memory"], strategies: details)), "Many objects")
        #expect(entry.ranking.map(\.strategy) == ["grdb-queue", "observable"])
        #expect(entry.decidedBy.contains("N = 10000"))
        #expect(entry.leftOut.map(\.strategy) == ["grdb-pool", "sqlite-store"])
        #expect(entry.leftOut[0].reason.hasPrefix("25 B per object on the heap, but its rows live in SQLite's database file and WAL"))
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
