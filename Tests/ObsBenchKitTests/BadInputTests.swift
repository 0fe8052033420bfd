import ArgumentParser
import Foundation
import ObsBenchKit
import Testing

@testable import ObsBenchCLI

/// Bad input, as a table of cases: each gives a message naming the problem and a documented exit
/// status (64 for bad usage, 5 for an unusable baseline), never a crash or a silent default.
@Suite("Bad input")
struct BadInputTests {
    init() { BuiltInStrategiesKnown.declare() }

    // MARK: The command line

    /// Command lines that must be refused with exit status 64, and a fragment of the message.
    static let usageCases: [(arguments: [String], message: String)] = [
        (["--suite", "latencyy"], "The value 'latencyy' is invalid for '--suite <name>'"),
        (["--suite", "latency", "--strategy", "mobx"], "The value 'mobx' is invalid for '--strategy <name>'"),
        (["--format", "xml"], "xml"),
        (["--objects", "0"], "--objects must be between 1 and 1000000, got 0"),
        (["--objects", "-5"], "-5"),
        (["--objects", "10000000000"], "--objects must be between 1 and 1000000"),
        (["--objects", "many"], "many"),
        (["--subscribers", "10000000000"], "--subscribers must be between 1 and 100000, got 10000000000"),
        (["--subscribers", "0"], "--subscribers must be between 1 and 100000"),
        (["--subscribers", "99999999999999999999999"], "99999999999999999999999"),
        (["--rounds", "0"], "--rounds must be between 1 and 20"),
        (["--rounds", "21"], "--rounds must be between 1 and 20"),
        (["--worker-timeout", "0"], "--worker-timeout"),
        (["--suite", "latency", "--workload", "write-observd"], "no workload 'write-observd' in suite latency (latency: read-untracked, read-in-view"),
        (["--suite", "memory", "--workload", "write-observed"], "no workload 'write-observed' in suite memory"),
        (["gate", "--base-binary", "b", "--suite", "hops", "--workload", "write-observed"], "no workload 'write-observed' in suite hops"),
        (["gate", "--baseline", "x", "--workload", "write-observed"], "belong to the same-machine mode"),
        (["--worker-timeout", "-1"], "-1"),
        (["--worker-timeout", "nan"], "--worker-timeout"),
        (["--no-such-flag"], "--no-such-flag"),
        (["compare", "only-one"], "Missing expected argument"),
        (["compare", "a", "b", "--threshold", "-0.1"], "--threshold must be a fraction between 0 and 10"),
        (["compare", "a", "b", "--threshold", "nan"], "--threshold"),
        (["compare", "a", "b", "--significance", "inf"], "--significance"),
        (["compare", "a", "b", "--metric-threshold", "latency"], "--metric-threshold takes NAME=FRACTION"),
        (["compare", "a", "b", "--metric-threshold", "latency=fast"], "--metric-threshold takes NAME=FRACTION"),
        (["compare", "a", "b", "--async-counts", "maybe"], "maybe"),
        (["compare", "a", "b", "--format", "html"], "html"),
        (["compare", "a", "b", "--counts-only", "--normalize-to-plain"], "--counts-only and --normalize-to-plain conflict"),
        (["compare", "a", "b", "--counts-only", "--metric-threshold", "latency=0.1"], "--counts-only and --metric-threshold conflict"),
        (["gate"], "give --baseline DIR (a committed run) or --base-binary PATH"),
        (["gate", "--baseline", "x", "--base-binary", "y"], "--baseline and --base-binary conflict"),
        (["gate", "--baseline", "x", "--quick"], "belong to the same-machine mode"),
        (["list", "extra"], "Unexpected argument 'extra'"),
        (["list", "--format", "yaml"], "yaml"),
        (["export", "results/latest"], "Missing expected argument '--format"),
        (["export", "results/latest", "--format", "csv"], "csv"),
        (worker(WorkerJob(suite: "hops", strategy: "plain", runID: "r", quick: true)), "suite hops measures no strategy"),
        (worker(WorkerJob(suite: "latency", strategy: nil, runID: "r", quick: true)), "a strategy is needed: suite latency measures strategies"),
        (worker(WorkerJob(suite: "latency", strategy: "no-such", runID: "r", quick: true)), "no strategy no-such in this binary"),
        (worker(WorkerJob(suite: "latency", strategy: "plain", runID: "r", quick: true, round: 3, rounds: 2)), "round 3 is not in 1...2"),
        (worker(WorkerJob(suite: "latency", strategy: "plain", runID: "r", quick: true, measure: .instructions)), "instruction settings are given exactly"),
        (worker(WorkerJob(suite: "latency", strategy: "plain", runID: "r", quick: true, workloads: ["diamond"])), "suite latency has no workload named diamond"),
        (["worker", "--job", "{\"suite\": 1}", "--rows-file", "a", "--samples-file", "b"], "the worker's job is not a job obsbench wrote"),
        (["worker", "--suite", "latency", "--rows-file", "a", "--samples-file", "b"], "Missing expected argument '--job <job>'"),
    ]

    /// The hidden worker command on `job`, as a plan starts it (the launcher adds the files).
    static func worker(_ job: WorkerJob) -> [String] { WorkerJob.arguments(job) + ["--rows-file", "a", "--samples-file", "b"] }

    @Test("bad command lines exit 64 with a message naming the problem", arguments: usageCases.indices)
    func badCommandLine(index: Int) throws {
        let (arguments, fragment) = Self.usageCases[index]
        do {
            var command = try ObsBenchCommand.parseAsRoot(arguments)
            try command.validate()
            Issue.record("\(arguments) was accepted")
        } catch {
            #expect(ObsBenchCommand.exitCode(for: error).rawValue == 64, "\(arguments)")
            let message = ObsBenchCommand.message(for: error)
            #expect(message.contains(fragment), "\(arguments): \(message)")
        }
    }

    // MARK: Baselines

    static let header = CSV.line(ResultRow.columns)
    static let row = ResultRow(
        runID: "r", suite: "memory", workload: "store-lifecycle", strategy: "plain", executor: "main-actor",
        objects: 1000, subscribers: 0, concurrency: 1, metric: .freshBytesPerObject, unit: "B/object",
        statistics: Statistics(exact: 57.2))
    static let line = CSV.line(row.fields)
    static var renamedHeader: String { header.replacingOccurrences(of: "median", with: "p50") }

    /// Baseline files the gate must refuse: their content (nil: no file at all), the line the
    /// message must name, and a fragment of the reason.
    static let baselineCases: [(name: String, content: String?, line: Int, reason: String)] = [
        ("missing", nil, 0, "does not exist"),
        ("empty", "", 1, "empty file: no header"),
        ("header only", header, 1, "no result rows"),
        ("truncated mid-row", header + String(line.prefix(40)), 2, "fields, expected 22 (truncated row?)"),
        ("truncated inside a quoted note", header + line.replacingOccurrences(of: ",main-actor,", with: ",\"main-act"), 2, "never closed (file truncated?)"),
        ("renamed column", renamedHeader + line, 1, "column 12 is 'p50', expected 'median'"),
        ("extra column", header.dropLast() + ",extra\n" + line.dropLast() + ",1\n", 1, "unexpected extra columns: extra"),
        ("missing columns", "run_id,suite,workload\nr,memory,w\n", 1, "missing columns"),
        ("non-numeric value", header + line.replacingOccurrences(of: ",57.2,", with: ",lots,"), 2, "median 'lots' is not a finite number"),
        ("NaN", header + line.replacingOccurrences(of: ",57.2,", with: ",nan,"), 2, "median 'nan' is not a finite number"),
        ("infinity", header + line.replacingOccurrences(of: ",57.2,", with: ",inf,"), 2, "median 'inf' is not a finite number"),
        ("non-integer count", header + line.replacingOccurrences(of: ",1000,", with: ",1e3,"), 2, "objects '1e3' is not a count"),
        ("negative count", header + line.replacingOccurrences(of: ",1000,", with: ",-1000,"), 2, "objects '-1000' is not a count"),
        ("duplicate rows", header + line + line, 3, "duplicate row: memory/store-lifecycle/plain/fresh_bytes_per_object objects=1000 S=0 c=1 is also on line 2"),
        ("another schema (samples.csv)", CSV.line(SampleRow.columns) + "r,latency,w,plain,latency,ns/op,0,1\n", 1, "column 5 is"),
        ("a quote inside a field", header + line.replacingOccurrences(of: "plain", with: "pl\"ain"), 2, "a quote inside an unquoted field"),
        ("not UTF-8", "", 0, "is not UTF-8 text"),
    ]

    @Test("unusable baselines are refused naming the file, line and reason; the gate exits 5", arguments: baselineCases.indices)
    func badBaseline(index: Int) throws {
        let (name, content, line, reason) = Self.baselineCases[index]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("obsbench-baseline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("results.csv")
        if let content {
            var data = Data(content.utf8)
            if name == "not UTF-8" { data = Data([0x72, 0x75, 0x6E, 0xFF, 0xFE, 0x0A]) }
            try data.write(to: file)
        }
        let current = folder.appendingPathComponent("current.csv")
        try Data((Self.header + Self.line).utf8).write(to: current)

        do {
            _ = try RunResults.load(content == nil ? folder.appendingPathComponent("nothing").path : folder.path)
            Issue.record("\(name): the baseline was accepted")
        } catch let error as ResultsReader.ReadError {
            #expect(error.line == line, "\(name): \(error)")
            #expect(error.description.contains(reason), "\(name): \(error)")
            #expect(error.description.contains(content == nil ? "nothing" : "results.csv"), "\(name): the message names no file: \(error)")
        }

        // The same through the command: exit status 5, whatever the current run holds.
        let baseline = content == nil ? folder.appendingPathComponent("nothing").path : folder.path
        #expect(obsbenchExitStatus(["compare", baseline, current.path]) == 5, "\(name)")
    }

    @Test("report on a run that does not exist, or with an unreadable claims file, exits 1; one that judged no claim exits 3")
    func badReport() throws {
        let status = obsbenchExitStatus
        #expect(status(["report", "/nonexistent/obsbench-run"]) == 1)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("obsbench-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data((Self.header + Self.line).utf8).write(to: folder.appendingPathComponent("results.csv"))
        let claims = folder.appendingPathComponent("claims.json")
        try Data("{ \"claims\": [".utf8).write(to: claims)
        #expect(status(["report", folder.path, "--claims", claims.path, "--no-charts"]) == 1)
        #expect(
            status(["report", folder.path, "--claims", folder.appendingPathComponent("none.json").path, "--no-charts"]) == ExitStatus.noClaimsJudged.rawValue,
            "a missing claims file: the report is written and says so, and no claim judged is not a success")
        let report = try String(contentsOf: folder.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(report.contains("No claims checked: cannot read the claims file"))
        // A claims file none of whose claims this run can judge is no success either.
        try Data(#"{"method": "m", "claims": [{"id": "x", "claim": "c", "source": "s", "checks": [], "not_measurable": "never"}]}"#.utf8).write(to: claims)
        #expect(status(["report", folder.path, "--claims", claims.path, "--no-charts"]) == ExitStatus.noClaimsJudged.rawValue)
        #expect(status(["report", folder.path, "--no-claims", "--no-charts"]) == 0, "a report without a claims check, asked for")
        #expect(try String(contentsOf: folder.appendingPathComponent("report.md"), encoding: .utf8).contains("No claims checked: left out (--no-claims)"))
    }

    @Test("the canary variable reads STRATEGY:PERCENT and nothing else")
    func canaryParsing() {
        #expect(Canary.parse("observable:25") == Canary(strategy: "observable", fraction: 0.25))
        for bad in [nil, "", "observable", "observable:", "observable:-5", "observable:nan", "a:b:c", "observable:0"] {
            #expect(Canary.parse(bad) == nil, "\(String(describing: bad))")
        }
    }

    // MARK: Output folders

    #if os(Linux)
        @Test("a results file that hits a full disk makes the append throw, naming the error")
        func fullDisk() throws {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("obsbench-full-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: root) }
            let directory = try ResultsDirectory(output: root.path, runID: "run")
            // /dev/full accepts opening and fails every write with ENOSPC, like a full disk.
            try FileManager.default.removeItem(at: directory.resultsFile)
            try FileManager.default.createSymbolicLink(atPath: directory.resultsFile.path, withDestinationPath: "/dev/full")
            let error = #expect(throws: (any Error).self) { try directory.append(results: [Self.row]) }
            #expect(error.map { "\($0.localizedDescription) \($0)" }?.contains("space") == true, "\(String(describing: error))")
        }
    #endif
}
