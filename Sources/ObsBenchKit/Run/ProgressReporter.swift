import Foundation

/// Progress of a run on standard error: one line rewritten in place on a terminal, plain lines
/// otherwise (CI logs, pipes). Main-actor isolated: a run's workers report from the main actor,
/// one at a time or side by side.
@MainActor
public final class ProgressReporter {
    private let isTerminal: Bool
    private let started = MonotonicClock.now()
    private var startedJobs = 0
    private var finishedJobs = 0
    public let totalJobs: Int
    /// Each suite's wall time and longest worker so far, in the order the suites started.
    private(set) var suiteTimes: [SuiteTime] = []

    /// One suite's wall time (its first worker's start to its last one's end) and its longest worker.
    struct SuiteTime: Equatable {
        var suite: String
        var started: Double
        var ended: Double
        var workers = 0
        var longestWorker = ""
        var longestSeconds = 0.0
    }

    /// One suite's part of the plan (by its progress label): its jobs, and what each is expected to
    /// take in wall time, relative to other suites' (``Suite/secondsPerWorker``).
    public struct Budget: Sendable, Equatable {
        public var jobs: Int
        public var secondsPerJob: Double

        public init(jobs: Int, secondsPerJob: Double) {
            self.jobs = jobs
            self.secondsPerJob = secondsPerJob
        }
    }

    /// The plan, by suite label; empty: every job is alike.
    private let budgets: [String: Budget]
    private var finishedBySuite: [String: Int] = [:]

    public init(totalJobs: Int, budgets: [String: Budget] = [:], isTerminal: Bool = isatty(STDERR_FILENO) != 0) {
        self.totalJobs = totalJobs
        self.budgets = budgets
        self.isTerminal = isTerminal
    }

    var elapsedSeconds: Double { Double(MonotonicClock.now() - started) / 1e9 }

    /// Remaining time. With the plan's budgets: each suite's jobs left, at the wall time per job
    /// its finished jobs took, or, for a suite not yet under way, at its budget scaled by how the
    /// run has gone against its budgets so far (a slower machine, a loaded one). Without: the time
    /// elapsed per job finished, for every job left.
    var estimatedRemainingSeconds: Double? {
        guard finishedJobs > 0 else { return nil }
        guard !budgets.isEmpty else { return elapsedSeconds / Double(finishedJobs) * Double(totalJobs - finishedJobs) }
        return Self.remaining(
            budgets: budgets, finished: finishedBySuite, suiteSeconds: Dictionary(suiteTimes.map { ($0.suite, $0.ended - $0.started) }) { a, _ in a }, elapsed: elapsedSeconds)
    }

    /// The estimate of ``estimatedRemainingSeconds`` from its inputs: `finished` jobs and the wall
    /// time so far (`suiteSeconds`) per suite label, `elapsed` seconds in all.
    static func remaining(budgets: [String: Budget], finished: [String: Int], suiteSeconds: [String: Double], elapsed: Double) -> Double {
        let budgeted = budgets.reduce(0.0) { $0 + Double(finished[$1.key] ?? 0) * $1.value.secondsPerJob }
        let pace = budgeted > 0 ? elapsed / budgeted : 1
        return budgets.reduce(0.0) { total, entry in
            let done = finished[entry.key] ?? 0
            let left = max(entry.value.jobs - done, 0)
            guard left > 0 else { return total }
            let perJob = done > 0 && (suiteSeconds[entry.key] ?? 0) > 0 ? suiteSeconds[entry.key]! / Double(done) : entry.value.secondsPerJob * pace
            return total + Double(left) * perJob
        }
    }

    public func starting(suite: String, strategy: String) {
        let remaining = estimatedRemainingSeconds.map { ", ~\(Self.duration($0)) left" } ?? ""
        startedJobs += 1
        if !suiteTimes.contains(where: { $0.suite == suite }) {
            suiteTimes.append(SuiteTime(suite: suite, started: elapsedSeconds, ended: elapsedSeconds))
        }
        let line = "[\(startedJobs)/\(totalJobs)] \(suite) · \(strategy) … \(Self.duration(elapsedSeconds)) elapsed\(remaining)"
        if isTerminal {
            Console.standardError("\r\u{1B}[K" + line)
        } else {
            Console.standardError(line + "\n")
        }
    }

    public func finished(suite: String, strategy: String, seconds: Double, error: String?) {
        finishedJobs += 1
        finishedBySuite[suite, default: 0] += 1
        if let index = suiteTimes.firstIndex(where: { $0.suite == suite }) {
            suiteTimes[index].ended = elapsedSeconds
            suiteTimes[index].workers += 1
            if seconds > suiteTimes[index].longestSeconds {
                suiteTimes[index].longestWorker = strategy
                suiteTimes[index].longestSeconds = seconds
            }
        }
        if let error {
            let prefix = isTerminal ? "\r\u{1B}[K" : ""
            Console.standardError("\(prefix)error: \(suite) · \(strategy): \(error)\n")
        }
    }

    /// A problem that is not a failed worker (a profile that could not be made), on a line of its own.
    public func warn(_ message: String) {
        let prefix = isTerminal ? "\r\u{1B}[K" : ""
        Console.standardError("\(prefix)warning: \(message)\n")
    }

    /// Clears the line rewritten in place, on a terminal, so that what is printed next (a suite's
    /// tables, on a terminal too) starts on a line of its own; the next job writes it again.
    public func clearLine() {
        if isTerminal { Console.standardError("\r\u{1B}[K") }
    }

    /// Clears the progress line and, after a run of more than one worker, says where its time
    /// went: each suite's wall time and its longest worker.
    public func done() {
        clearLine()
        if finishedJobs > 1, !suiteTimes.isEmpty { Console.standardError(Self.timeBySuite(suiteTimes) + "\n") }
    }

    /// How the run's last progress line starts (``timeBySuite(_:)``).
    public nonisolated static let timeBySuitePrefix = "time by suite: "

    /// "time by suite: latency 1 min 36 s (80 workers, longest grdb-pool (round 3/8) 2 s), …".
    static func timeBySuite(_ times: [SuiteTime]) -> String {
        timeBySuitePrefix
            + times.map { time in
                let workers = time.workers == 1 ? "1 worker" : "\(time.workers) workers, longest \(time.longestWorker) \(duration(time.longestSeconds))"
                return "\(time.suite) \(duration(time.ended - time.started)) (\(workers))"
            }.joined(separator: ", ")
    }

    static func duration(_ seconds: Double) -> String {
        seconds < 60 ? "\(Int(seconds.rounded())) s" : "\(Int(seconds) / 60) min \(Int(seconds) % 60) s"
    }
}
