import Foundation
import ObservationStrategies

/// One run from start to end, as `obsbench run` makes it: its id and folder, `run.json`, the
/// workers, `results/latest`, and what SIGINT or SIGTERM leaves behind. A command parses its
/// options into a `RunPlan` and makes one call:
///
/// ```swift
/// let outcome = try await RunSession.run(plan, output: "results", workerExecutable: "/path/to/obsbench")
/// print(outcome.rows.count, "rows in", outcome.directory.resultsFile.path)
/// ```
///
/// `suiteDone` gets each suite, in the plan's order, as soon as its rows are all in `results.csv`
/// (``BenchmarkRun/suiteDone``): the run prints its tables there rather than all at the end.
///
/// Warnings (a canary set, jemalloc missing, suites with nothing to measure) go to standard error.
/// On SIGINT or SIGTERM the session stops the running worker, pools the rounds that finished
/// into `results.csv`, writes `run.json` with `interrupted` and exits 130 or 143.
@MainActor
public enum RunSession {
    /// What a finished run left.
    public struct Outcome {
        public var rows: [ResultRow]
        public var directory: ResultsDirectory
        /// One line per worker that failed (its error rows are in `results.csv`).
        public var failures: [String]
    }

    /// Why a run could not start; nothing was measured.
    public struct Failure: Error, CustomStringConvertible {
        public var status: ExitStatus
        public var description: String
    }

    /// Runs `plan`, writing into a new folder under `output` named after the start time.
    /// - Parameters:
    ///   - workerExecutable: the binary whose hidden `worker` command runs each worker (this one).
    ///   - commandLine: recorded in `run.json`.
    ///   - suiteDone: called with each suite once its rows are pooled and every suite before it was
    ///     handed over, with every row pooled so far (``BenchmarkRun/suiteDone``); not once the run
    ///     is interrupted.
    public static func run(
        _ plan: RunPlan, output: String, workerExecutable: String, commandLine: [String] = CommandLine.arguments,
        suiteDone: (@MainActor (_ suite: Suite, _ rows: [ResultRow]) -> Void)? = nil
    ) async throws(Failure) -> Outcome {
        var callgrind: CallgrindInvocation?
        if plan.measures.contains(.instructions) {
            do {
                callgrind = try CallgrindInvocation.prepare(workerExecutable: workerExecutable, settings: plan.instructionSettings)
            } catch {
                throw Failure(status: .unavailable, description: "\(error)")
            }
        }
        defer { callgrind?.cleanUp() }
        for suite in plan.suitesWithoutMeasures {
            Console.error(
                "skipping \(suite.name): none of its workloads can be measured in \(plan.measures.map(\.rawValue).joined(separator: " or ")) (--measure instructions counts the latency and scaling suites and hops at 1 caller)"
            )
        }
        if let shard = plan.shard, plan.selectedJobs.isEmpty {
            Console.error("shard \(shard) selects none of the plan's \(plan.jobs.count) jobs: it writes a run without rows, for obsbench merge")
        }
        let startTime = Date()
        let runID = Self.newRunID(for: startTime, in: output)
        let directory: ResultsDirectory
        do {
            directory = try ResultsDirectory(output: output, runID: runID)
        } catch {
            throw Failure(status: .cannotWriteOutput, description: "\(error)")
        }
        let run = BenchmarkRun(plan: plan, directory: directory, runID: runID, workerExecutable: workerExecutable, callgrind: callgrind)
        run.suiteDone = suiteDone
        for canary in Canary.all {
            Console.error(
                "\(Canary.variable) is set: \(canary.strategy)'s measured writes do \(NumberFormat.percent(canary.fraction)) extra work on purpose (a gate check). These numbers are not real."
            )
        }
        if let canary = BuildCanary.current {
            Console.error("this binary was built with OBSBENCH_BUILD_CANARY (\(canary)) on purpose (a gate check). These numbers are not real.")
        }
        if plan.suites.contains(where: \.runsOnJemalloc), run.jemallocEnvironment == nil {
            Console.error("jemalloc not found; the memory suite reads glibc's counters instead (no allocation counts). Install it: \(JemallocLibrary.installHint)")
        }
        var metadata = RunMetadata(
            runID: runID, time: ISO8601DateFormatter().string(from: startTime),
            gitRevision: HostFacts.gitRevision(in: FileManager.default.currentDirectoryPath),
            host: HostFacts.hostName, cpuModel: HostFacts.cpuModel, coreCount: HostFacts.coreCount,
            swiftVersion: HostFacts.swiftVersion, buildConfiguration: HostFacts.buildConfiguration,
            allocator: run.allocatorDescription, suites: plan.suites.filter { !plan.measures(of: $0).isEmpty }.map(\.name), strategies: plan.strategies.map(\.name),
            quick: plan.quick, commandLine: commandLine, status: .running, finishedTime: nil,
            clockResolutionNanoseconds: MonotonicClock.resolutionNanoseconds,
            clockCallCostNanoseconds: MonotonicClock.measureCallCost(),
            measures: plan.measures, instructionCounting: callgrind?.facts, toolchain: HostFacts.toolchain,
            rounds: Dictionary(uniqueKeysWithValues: plan.suites.filter { plan.measures(of: $0).contains(.time) }.map { ($0.name, plan.rounds(of: $0)) }),
            strategyDetails: plan.strategies.map(\.descriptor), shard: plan.shard, jobs: plan.shard == nil ? nil : plan.jobs,
            workloads: plan.workloads.isEmpty ? nil : plan.workloads)
        do {
            try directory.writeMetadata(metadata)
        } catch {
            throw Failure(status: .cannotWriteOutput, description: "cannot write run.json: \(error)")
        }

        let interruptions = InterruptHandler { [callgrind] signal in
            run.launcher.terminateCurrentWorker()
            callgrind?.cleanUp()
            run.appendPooledRows()
            metadata.status = .interrupted
            metadata.finishedTime = ISO8601DateFormatter().string(from: Date())
            try? directory.writeMetadata(metadata)
            try? directory.markLatest()
            Console.error(
                "\ninterrupted by signal \(signal); the rows of every worker that finished are in \(directory.resultsFile.path) (pooled), rounds.csv and samples.csv; run.json says interrupted"
            )
            Foundation.exit(ExitStatus.interrupted(by: signal))
        }
        await run.execute()
        interruptions.cancel()

        metadata.status = run.failures.isEmpty ? .completed : .completedWithErrors
        metadata.finishedTime = ISO8601DateFormatter().string(from: Date())
        do {
            try directory.writeMetadata(metadata)
            try directory.markLatest()
        } catch {
            throw Failure(status: .cannotWriteOutput, description: "cannot finish \(directory.resultsFile.deletingLastPathComponent().path): \(error)")
        }
        return Outcome(rows: run.rows, directory: directory, failures: run.failures)
    }

    /// A sortable, filesystem-safe id from the start time, e.g. `2026-11-23T10-54-07Z`.
    public static func runID(for date: Date) -> String {
        ISO8601DateFormatter().string(from: date).replacingOccurrences(of: ":", with: "-")
    }

    /// The id of a new run folder under `output`: from the start time, and two runs started in
    /// the same second get -2, -3… rather than sharing a folder.
    public static func newRunID(for date: Date, in output: String) -> String {
        var runID = runID(for: date)
        var suffix = 1
        while FileManager.default.fileExists(atPath: URL(fileURLWithPath: output).appendingPathComponent(runID).path) {
            suffix += 1
            runID = Self.runID(for: date) + "-\(suffix)"
        }
        return runID
    }

}

/// Turns SIGINT and SIGTERM into a callback on the main actor, so a run can stop its worker and
/// record that it was interrupted before exiting.
@MainActor
final class InterruptHandler {
    private var sources: [any DispatchSourceSignal] = []
    /// The dispositions the signals had before, restored by `cancel()`.
    private var previous: [(signal: Int32, handler: (@convention(c) (Int32) -> Void)?)] = []

    init(_ handler: @escaping @MainActor (Int32) -> Void) {
        for signalNumber in [SIGINT, SIGTERM] {
            previous.append((signalNumber, signal(signalNumber, SIG_IGN)))
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
            source.setEventHandler {
                MainActor.assumeIsolated { handler(signalNumber) }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Stops handling the signals and gives them back the dispositions they had.
    func cancel() {
        for source in sources { source.cancel() }
        sources.removeAll()
        for (signalNumber, handler) in previous { signal(signalNumber, handler) }
        previous.removeAll()
    }
}
