import Foundation
import ObservationStrategies
import Testing

@testable import ObsBenchKit

/// Retains and releases per operation (``ReferenceCounts``): from Callgrind's call counts in a
/// counted row's dumps, by the difference that makes its Ir/op; written as `retains` and
/// `releases` rows beside it, as `profile.csv` columns, in the latency tables, and judged by the
/// gate as exact counts. Checked on counts, never on time.
@Suite("Reference counts")
struct ReferenceCountTests {
    init() { BuiltInStrategiesKnown.declare() }

    /// A dump in Callgrind's format: `calls` are (caller, callee, count) edges, each with 10 Ir of
    /// inclusive cost per call; every caller has 1 Ir of its own.
    static func dump(_ calls: [(String, String, Int)]) throws -> CallgrindProfile {
        var text = "# callgrind format\nversion: 1\npositions: line\nevents: Ir\nsummary: 1\n\n"
        for (caller, callee, count) in calls {
            let object = caller.hasPrefix("swift_") ? "/usr/lib/swift/linux/libswiftCore.so" : "/tmp/obsbench"
            text += "ob=\(object)\nfn=\(caller)\n0 1\n"
            if !callee.hasPrefix("swift_") || object.hasSuffix("libswiftCore.so") {
                text += "cfn=\(callee)\n"
            } else {
                text += "cob=/usr/lib/swift/linux/libswiftCore.so\ncfn=\(callee)\n"
            }
            text += "calls=\(count) 0\n0 \(count * 10)\n\n"
        }
        text += "totals: 1\n"
        return try CallgrindProfile(bytes: Array(text.utf8), file: "synthetic")
    }

    /// `n` operations of a loop that, per operation, retains twice (`swift_retain`), once through
    /// `swift_bridgeObjectRetain` (which passes it on to `swift_retain`), releases once with
    /// `swift_release_n` and once from a deinitializer run by a release (a nested activation,
    /// `swift_release'2`); plus, per batch, 7 retains that a longer loop does not repeat.
    static func operationDump(_ n: Int) throws -> CallgrindProfile {
        try dump([
            ("loop", "swift_retain", 2 * n + 7), ("loop", "swift_bridgeObjectRetain", n), ("swift_bridgeObjectRetain", "swift_retain", n),
            ("loop", "swift_release_n", n), ("loop", "swift_release", n), ("swift_release", "_swift_release_dealloc", n),
            ("deinit", "swift_release'2", n), ("loop", "helper", n),
        ])
    }

    /// The empty loop: one retain and one release an iteration, which the operation's loop pays too.
    static func emptyDump(_ n: Int) throws -> CallgrindProfile {
        try dump([("emptyLoop", "swift_retain", n), ("emptyLoop", "swift_release", n)])
    }

    @Test("calls into the entry points, long − short over the operations, the empty loop's removed: a forwarded call counts once, an _n call once, a nested release yes")
    func syntheticDumps() throws {
        let counts = ReferenceCounts(
            operation: (try Self.operationDump(200), try Self.operationDump(600)), empty: (try Self.emptyDump(200), try Self.emptyDump(600)), operations: 400)
        // Retains: 2 + 1 (bridge) − 1 (empty loop); releases: 1 (_n) + 1 + 1 (nested) − 1.
        #expect(counts.retains == 2)
        #expect(counts.releases == 2)
        let loop = try #require(counts.byFunction[FunctionID(object: "/tmp/obsbench", name: "loop")])
        #expect(loop == ReferenceCounts.PerFunction(retains: 3, releases: 2))
        #expect(counts.byFunction[FunctionID(object: "/tmp/obsbench", name: "deinit")]?.releases == 1)
        #expect(counts.byFunction[FunctionID(object: "/tmp/obsbench", name: "emptyLoop")] == ReferenceCounts.PerFunction(retains: -1, releases: -1))
        // The runtime's forwarding (bridge object into swift_retain) is not a caller of its own.
        #expect(!counts.byFunction.keys.contains { $0.name.hasPrefix("swift_") })
        #expect(counts.byFunction.values.reduce(0) { $0 + $1.retains } == counts.retains)
        #expect(counts.byFunction.values.reduce(0) { $0 + $1.releases } == counts.releases)
        // The parser keeps each edge's number of calls beside its cost.
        let long = try Self.operationDump(600)
        let loopCalls = try #require(long.functions[FunctionID(object: "/tmp/obsbench", name: "loop")])
        #expect(loopCalls.callCounts[FunctionID(object: "/usr/lib/swift/linux/libswiftCore.so", name: "swift_retain")] == 1_207)
        #expect(loopCalls.calls[FunctionID(object: "/usr/lib/swift/linux/libswiftCore.so", name: "swift_retain")] == 12_070)
    }

    @Test("entry points: every strong form, nonatomic and _n included, with or without a symbol version; unowned and weak counts are not")
    func entryPoints() {
        for name in ["swift_retain", "swift_retain_n", "swift_nonatomic_retain", "swift_bridgeObjectRetain_n", "swift_unknownObjectRetain", "swift_retain@plt"] {
            #expect(ReferenceCounts.kind(of: name) == .retain, "\(name)")
        }
        for name in ["swift_release", "swift_release_n", "swift_nonatomic_bridgeObjectRelease", "swift_unknownObjectRelease_n"] {
            #expect(ReferenceCounts.kind(of: name) == .release, "\(name)")
        }
        for name in ["swift_unownedRetain", "swift_weakLoadStrong", "swift_retainCount", "_swift_release_dealloc", "swift_allocObject", "retain"] {
            #expect(ReferenceCounts.kind(of: name) == nil, "\(name)")
        }
        #expect(ReferenceCounts.retainEntryPoints.count == 12 && ReferenceCounts.releaseEntryPoints.count == 12)
    }

    @Test("a real worker's dumps (observable's write-unobserved): 5 retains and 7 releases a write, the key path's fetch one of them, and the functions' shares sum to them")
    func realDumps() throws {
        let rows = try ProfileTests.fixtureRows()
        let (profiles, errors) = ProfileManifest.profiles(dumpFolder: ProfileTests.fixtures, rows: rows)
        #expect(errors.isEmpty, "\(errors)")
        let profile = try #require(profiles.first)
        let counts = try #require(profile.referenceCounts)
        #expect(counts.retains == 5)
        #expect(counts.releases == 7)
        #expect(!counts.fromCallCountDumps)
        let keyPath = try #require(profile.functions.first { $0.name.hasPrefix("Swift._swift_getKeyPath") })
        #expect(keyPath.retainsPerOperation == 1 && keyPath.releasesPerOperation == 0)
        #expect(profile.functions.reduce(0) { $0 + $1.retainsPerOperation } == 5)
        #expect(profile.functions.reduce(0) { $0 + $1.releasesPerOperation } == 7)
        // The runtime's own entry points are never callers.
        #expect(profile.functions.allSatisfy { ReferenceCounts.kind(of: $0.id.name) == nil || ($0.retainsPerOperation == 0 && $0.releasesPerOperation == 0) })

        // profile.csv: the columns round-trip, and the summary sums them.
        let text = CSV.line(ProfileRow.columns) + profile.rows.map { CSV.line($0.fields) }.joined()
        let summary = try #require(ProfileSummary(rows: try ProfileRow.parse(text)).rows.first)
        #expect(summary.retains == 5 && summary.releases == 7)
        #expect(ProfileSummary.text(summary, top: 3).contains("5 retains/op, 7 releases/op"))

        // results.csv: a retains and a releases row beside the instructions row, the same key apart
        // from the metric, read back as written.
        let made = ReferenceCounts.rows(profiles: profiles, counted: rows)
        #expect(made.map(\.metric) == [.retains, .releases])
        #expect(made.map(\.unit) == ["retains/op", "releases/op"])
        #expect(made.map(\.value) == [5, 7])
        let instructions = try #require(rows.first { $0.metric == .instructions })
        for row in made {
            var key = RowKey(row)
            key.metric = instructions.metric
            key.unit = instructions.unit
            #expect(key == RowKey(instructions))
        }
        let csv = CSV.line(ResultRow.columns) + made.map { CSV.line($0.fields) }.joined()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("obsbench-rc-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: file) }
        try csv.write(to: file, atomically: true, encoding: .utf8)
        let read = try ResultsReader.read(file: file.path)
        #expect(read.map { RowKey($0) } == made.map { RowKey($0) })
        #expect(read.map(\.value) == made.map(\.value) && read.map(\.note) == made.map(\.note))
    }

    @Test("a profile.csv written before the columns reads, with no retains or releases")
    func oldProfileCSV() throws {
        let text =
            CSV.line(ProfileRow.baseColumns)
            + CSV.line(["latency", "write-unobserved", "observable", "main-actor", "1", "Swift runtime", "swift_retain", "110", "110", "1000", "0", "libswiftCore.so"])
        let rows = try ProfileRow.parse(text)
        #expect(rows.count == 1 && rows[0].retainsPerOperation == nil && rows[0].selfPerOperation == 110)
        let summary = try #require(ProfileSummary(rows: rows).rows.first)
        #expect(summary.retains == nil && summary.releases == nil)
        #expect(!ProfileSummary.text(summary, top: 3).contains("retains/op"))
    }

    @Test("layouts' counts average, function by function")
    func meanOfLayouts() {
        let id = FunctionID(object: "o", name: "f")
        let mean = ReferenceCounts(meanOf: [
            ReferenceCounts(retains: 2, releases: 3, byFunction: [id: .init(retains: 2, releases: 3)]),
            ReferenceCounts(retains: 3, releases: 3, byFunction: [id: .init(retains: 3, releases: 3)]),
        ])
        #expect(mean.retains == 2.5 && mean.releases == 3 && mean.byFunction[id] == .init(retains: 2.5, releases: 3))
        #expect(ReferenceCounts.text(41) == "41" && ReferenceCounts.text(2.0175) == "2.018" && ReferenceCounts.text(-0.005) == "-0.005")
    }

    @Test("the gate judges retains and releases from Metric.gate alone: a synchronous strategy's exactly, an asynchronous one's within its count tolerance")
    func gateJudgesThemAsCounts() throws {
        #expect(Metric.named("retains").gate == .count && Metric.named("releases").gate == .count)
        #expect(Metric.all["retains"]?.unit == "retains/op" && Metric.all["releases"]?.unit == "releases/op")
        func verdict(_ metric: Metric, from baseline: Double, to current: Double, delivery: Delivery) throws -> MetricComparison {
            func run(_ value: Double) -> RunResults {
                RunResults(
                    rows: [GateTests.row("my-store", metric.name, value, unit: metric.unit)], samples: [], source: "test",
                    metadata: UnknownStrategyGateTests.metadata(delivery))
            }
            return try #require(RunComparison(baseline: run(baseline), current: run(current)).comparisons.first)
        }
        let one = try verdict(.retains, from: 40, to: 41, delivery: .synchronous)
        #expect(one.verdict == .regression && one.reason == "exact count (the baseline's from one process: not shown to repeat)", "\(one.reason)")
        #expect(try verdict(.releases, from: 64, to: 64, delivery: .synchronous).verdict == .unchanged)
        #expect(try verdict(.releases, from: 64, to: 63, delivery: .synchronous).verdict == .improvement)
        #expect(try verdict(.retains, from: 0, to: 1, delivery: .synchronous).verdict == .regression)
        #expect(try verdict(.retains, from: 40, to: 41, delivery: .asynchronous).verdict == .unchanged)
        #expect(try verdict(.retains, from: 40, to: 44, delivery: .asynchronous).verdict == .regression)
    }

    @Test("the latency tables show each counted row's retains and releases beside its Ir/op")
    func latencyTable() throws {
        func row(_ strategy: String, _ workload: String, _ metric: Metric, _ value: Double) -> ResultRow {
            ResultRow(
                runID: "r", suite: "latency", workload: workload, strategy: strategy, executor: RowKey.mainActor, objects: 1_000, subscribers: 0,
                concurrency: 1, metric: metric, unit: metric.unit, statistics: Statistics(exact: value), rounds: 5)
        }
        let rows = [
            row("plain", "read-untracked", .instructions, 66), row("plain", "read-untracked", .retains, 0), row("plain", "read-untracked", .releases, 0),
            row("observable", "read-untracked", .instructions, 255), row("observable", "read-untracked", .retains, 2),
            row("observable", "read-untracked", .releases, 2), row("observable", "write-unobserved", .retains, 4),
            row("observable", "write-unobserved", .releases, 6),
        ]
        let tables = SummaryTable.tables(suite: .latency, rows: rows, strategies: ["plain", "observable"])
        let table = try #require(tables.first { $0.title == "latency · reference counting" })
        #expect(table.columns == ["read-untracked", "write-unobserved"])
        #expect(table.rows.map(\.cells) == [["0 / 0", "—"], ["2 / 2", "4 / 6"]])
        #expect(table.heading.contains("median of 5 layouts"))
        // A timed run has no such table.
        let timed = rows.filter { $0.metric == .instructions }
        #expect(!SummaryTable.tables(suite: .latency, rows: timed, strategies: ["plain", "observable"]).contains { $0.title.contains("reference counting") })
    }

    @Test(
        "counted end to end (plain and observable, 2 layouts): plain's read and write retain nothing, @Observable's concrete read retains twice and releases twice, every synchronous count is whole and the same in both layouts, and each row's profile sums to it",
        .enabled(if: SameMachineGateTests.canCount, "needs valgrind and the release build"))
    func countedRun() throws {
        // The workloads of the counts named below, and write-observed: a drawn row, whose counts are record 1's.
        let run = try CountedRun(
            ["--suite", "latency", "--strategy", "plain", "--strategy", "observable", "--measure", "instructions", "--quick", "--layouts", "2"]
                + ["read-untracked", "write-unobserved", "write-observed", "concrete-reference", "ignored-field"].flatMap { ["--workload", $0] })
        func counts(_ strategy: String, _ workload: String) throws -> (retains: ResultRow, releases: ResultRow) {
            func row(_ metric: Metric) throws -> ResultRow {
                try #require(run.rows.first { $0.strategy == strategy && $0.workload == workload && $0.metric == metric }, "\(strategy) \(workload) \(metric.name)")
            }
            return (try row(.retains), try row(.releases))
        }
        // Measured here (Swift 6.3.1, quick, 2 layouts): plain 0 and 0 for both; the concrete
        // @Observable read 2 and 2 (the registrar and the key path, retained and released per read);
        // an @ObservationIgnored read 0 and 0.
        for (strategy, workload, retains, releases) in [
            ("plain", "read-untracked", 0.0, 0.0), ("plain", "write-unobserved", 0, 0), ("observable", "read-untracked-concrete", 2, 2),
            ("observable", "read-ignored-concrete", 0, 0),
        ] {
            let measured = try counts(strategy, workload)
            #expect(measured.retains.value == retains && measured.releases.value == releases, "\(strategy) \(workload): \(measured)")
        }
        let counted = run.rows.filter { $0.metric == .instructions }
        #expect(counted.count >= 10)
        for instructions in counted {
            let measured = try counts(instructions.strategy, instructions.workload)
            for row in [measured.retains, measured.releases] {
                let statistics = try #require(row.statistics)
                // Whole, and the same in both layouts (statistics over the layouts' values).
                #expect(row.rounds == 2 && statistics.min == statistics.max && statistics.min == statistics.min.rounded(), "\(RowKey(row)): \(statistics)")
                #expect(row.note.contains(instructions.drawnRecords == nil ? "the row's own dumps" : "record 1 counted in full"), "\(row.note)")
            }
            // profile.csv: the functions' retains and releases sum to the rows' (the layouts' mean).
            let profile = try #require(run.profiles.row(RowKey(instructions)))
            #expect(abs((profile.retains ?? .nan) - (measured.retains.value ?? .nan)) < 1e-6, "\(RowKey(instructions))")
            #expect(abs((profile.releases ?? .nan) - (measured.releases.value ?? .nan)) < 1e-6, "\(RowKey(instructions))")
        }
    }
}
