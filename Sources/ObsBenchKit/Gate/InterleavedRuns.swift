import Foundation

/// The same-machine gate's counting: the base revision's binary and the head's, counted on this
/// machine in one job, so the gate needs no committed baseline and no runner of the same CPU.
///
/// The work is cut into jobs (one per suite × strategy; one for a suite that measures no
/// strategy), and each job runs under both binaries at once, job after job (A and B, A and B,
/// …), so whatever the machine does meanwhile falls on both. Each
/// side's jobs are then joined into one run folder, which the gate compares as it would a baseline
/// and a run.
///
/// ```swift
/// let runs = InterleavedRuns(base: "/tmp/base/obsbench", current: ".build/release/obsbench",
///                            jobs: InterleavedRuns.jobs(suites: [.latency], strategies: ["plain", "observable"]),
///                            options: ["--measure", "instructions", "--quick"], workDirectory: scratch)
/// let (baseRun, currentRun) = try runs.run { print($0) }
/// ```
public struct InterleavedRuns: Sendable {
    /// The binary built from the base revision, and the one built from the head.
    public var base: String
    public var current: String
    /// Each job's own arguments (`--suite S [--strategy X]`).
    public var jobs: [[String]]
    /// The arguments every job adds (`--measure instructions`, `--quick`, `--jobs N`).
    public var options: [String]
    /// Where each side's job folders and joined run go (`base/`, `current/`).
    public var workDirectory: URL

    public init(base: String, current: String, jobs: [[String]], options: [String], workDirectory: URL) {
        self.base = base
        self.current = current
        self.jobs = jobs
        self.options = options
        self.workDirectory = workDirectory
    }

    /// Why the two binaries could not be counted: the gate then has no verdict to give.
    public struct CannotJudge: Error, CustomStringConvertible {
        public var description: String
    }

    /// One job per suite × strategy, and one per suite that measures no strategy.
    public static func jobs(suites: [Suite], strategies: [String]) -> [[String]] {
        suites.flatMap { suite in
            suite.measuresStrategies ? strategies.map { ["--suite", suite.name, "--strategy", $0] } : [["--suite", suite.name]]
        }
    }

    /// Runs every job under both binaries, interleaved, and joins each side's rows: returns the
    /// two run folders. Throws ``CannotJudge`` when a binary is missing, cannot count (no
    /// Valgrind: exit 69), or fails in a way that leaves no rows.
    public func run(progress: (String) -> Void) throws -> (base: URL, current: URL) {
        for (side, binary) in [("base", base), ("current", current)] where !FileManager.default.isExecutableFile(atPath: binary) {
            throw CannotJudge(description: "the \(side) binary \(binary) does not exist or cannot be run")
        }
        let sides = [("base", base), ("current", current)]
        for (index, job) in jobs.enumerated() {
            progress("[\(index + 1)/\(jobs.count)] base and current side by side: \(job.joined(separator: " "))")
            // Both sides of a job run at once: Callgrind counts each process's own instructions,
            // and whatever the machine does meanwhile falls on both.
            var running: [(side: String, process: Process?, output: URL)] = []
            for (side, binary) in sides {
                let output = folder(side, job: index)
                try? FileManager.default.removeItem(at: output)
                try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
                running.append((side, Self.start(binary, arguments: job + options + ["--output", output.path], log: output.appendingPathComponent("log.txt")), output))
            }
            for (side, process, output) in running {
                process?.waitUntilExit()
                let status = process?.terminationStatus ?? ExitStatus.failure.rawValue
                let log = "\(output.path)/log.txt"
                switch status {
                case ExitStatus.success.rawValue, ExitStatus.failure.rawValue:
                    // A failed worker leaves an error row; the gate then reports the rows it lost.
                    guard FileManager.default.fileExists(atPath: output.appendingPathComponent(ResultsDirectory.FileName.latest).path) else {
                        throw CannotJudge(description: "the \(side) binary wrote no run for \(job.joined(separator: " ")) (exit \(status)); its log: \(log)")
                    }
                case ExitStatus.unavailable.rawValue:
                    throw CannotJudge(description: "the \(side) binary cannot count instructions here (exit 69: no Valgrind, or built without its header); its log: \(log)")
                default:
                    throw CannotJudge(description: "the \(side) binary exited \(status) on \(job.joined(separator: " ")); its log: \(log)")
                }
            }
        }
        return (try join("base"), try join("current"))
    }

    func folder(_ side: String, job: Int) -> URL {
        workDirectory.appendingPathComponent(side).appendingPathComponent("job-\(job + 1)")
    }

    /// One run folder of a side's jobs: their CSV rows one after another (headers once), and the
    /// first job's `run.json` naming every job's suites and strategies.
    func join(_ side: String) throws -> URL {
        let joined = workDirectory.appendingPathComponent(side).appendingPathComponent("run")
        try? FileManager.default.removeItem(at: joined)
        try FileManager.default.createDirectory(at: joined, withIntermediateDirectories: true)
        let runs = jobs.indices.map { folder(side, job: $0).appendingPathComponent(ResultsDirectory.FileName.latest).resolvingSymlinksInPath() }
        let files = [ResultsDirectory.FileName.results, ResultsDirectory.FileName.samples, ResultsDirectory.FileName.rounds, ResultsDirectory.FileName.profile]
        for name in files {
            var text = ""
            for run in runs {
                guard let contents = try? String(contentsOf: run.appendingPathComponent(name), encoding: .utf8) else { continue }
                let lines = contents.split(separator: "\n", omittingEmptySubsequences: false)
                text += (text.isEmpty ? lines[...] : lines.dropFirst()).filter { !$0.isEmpty }.joined(separator: "\n") + "\n"
            }
            if !text.isEmpty { try Data(text.utf8).write(to: joined.appendingPathComponent(name)) }
        }
        let decoder = JSONDecoder()
        let metadata = try runs.map { try decoder.decode(RunMetadata.self, from: Data(contentsOf: $0.appendingPathComponent(ResultsDirectory.FileName.metadata))) }
        guard var first = metadata.first else { throw CannotJudge(description: "no job ran") }
        for other in metadata.dropFirst() {
            first.suites += other.suites.filter { !first.suites.contains($0) }
            first.strategies += other.strategies.filter { !first.strategies.contains($0) }
            first.strategyDetails =
                (first.strategyDetails ?? []) + (other.strategyDetails ?? []).filter { detail in !(first.strategyDetails ?? []).contains { $0.name == detail.name } }
            if other.status != .completed { first.status = other.status }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(first).write(to: joined.appendingPathComponent(ResultsDirectory.FileName.metadata))
        return joined
    }

    /// Starts `binary` with `arguments`, both of its streams into `log`; nil when it cannot start.
    static func start(_ binary: String, arguments: [String], log: URL) -> Process? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        guard FileManager.default.createFile(atPath: log.path, contents: nil), let handle = try? FileHandle(forWritingTo: log) else { return nil }
        process.standardOutput = handle
        process.standardError = handle
        do { try process.run() } catch { return nil }
        return process
    }
}
