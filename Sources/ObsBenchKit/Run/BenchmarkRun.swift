import Foundation
import ObservationStrategies

/// What to run: which suites against which strategies, how long, and how big.
public struct RunPlan: Sendable {
    public var suites: [Suite]
    public var strategies: [StrategyEntry]
    public var quick: Bool
    /// Records per store; nil means each suite's default.
    public var objects: Int?
    public var workerTimeoutSeconds: Double

    public init(suites: [Suite], strategies: [StrategyEntry], quick: Bool, objects: Int?, workerTimeoutSeconds: Double) {
        self.suites = suites
        self.strategies = strategies
        self.quick = quick
        self.objects = objects
        self.workerTimeoutSeconds = workerTimeoutSeconds
    }

    /// The arguments of the hidden `worker` command for one suite and strategy.
    public func workerArguments(suite: Suite, strategy: StrategyEntry, runID: String) -> [String] {
        var arguments = ["worker", "--suite", suite.name, "--strategy", strategy.name, "--run-id", runID]
        if quick { arguments.append("--quick") }
        if let objects { arguments += ["--objects", String(objects)] }
        return arguments
    }
}

/// Runs a plan: one worker process per suite × strategy, rows appended to the run's folder as
/// each worker finishes, progress on standard error.
@MainActor
public final class BenchmarkRun {
    public let plan: RunPlan
    public let directory: ResultsDirectory
    public let runID: String
    public let launcher = WorkerLauncher()
    private let workerExecutable: String

    public private(set) var rows: [ResultRow] = []
    public private(set) var failures: [String] = []

    public init(plan: RunPlan, directory: ResultsDirectory, runID: String, workerExecutable: String) {
        self.plan = plan
        self.directory = directory
        self.runID = runID
        self.workerExecutable = workerExecutable
    }

    public func execute() async {
        let progress = ProgressReporter(totalJobs: plan.suites.count * plan.strategies.count)
        for suite in plan.suites {
            for strategy in plan.strategies {
                progress.starting(suite: suite.name, strategy: strategy.name)
                let begin = MonotonicClock.now()
                let outcome = await launcher.run(
                    executable: workerExecutable,
                    arguments: plan.workerArguments(suite: suite, strategy: strategy, runID: runID),
                    timeoutSeconds: plan.workerTimeoutSeconds)
                let seconds = Double(MonotonicClock.now() - begin) / 1e9
                var output: WorkloadOutput
                var failure: String?
                switch outcome {
                case .finished(let finished):
                    output = finished
                    let errors = finished.rows.filter(\.isError).map(\.note)
                    if !errors.isEmpty { failure = errors.joined(separator: "; ") }
                case .failed(let message):
                    output = WorkloadOutput(rows: [ResultRow.error(runID: runID, suite: suite.name, strategy: strategy.name, message: message)])
                    failure = message
                }
                do {
                    try directory.append(output.rows, samples: output.samples)
                } catch {
                    failure = "cannot append results: \(error.localizedDescription)"
                }
                rows += output.rows
                if let failure { failures.append("\(suite.name) · \(strategy.name): \(failure)") }
                progress.finished(suite: suite.name, strategy: strategy.name, seconds: seconds, error: failure)
            }
        }
        progress.done()
    }
}
