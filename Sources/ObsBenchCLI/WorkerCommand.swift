import ArgumentParser
import ObsBenchKit
import ObservationStrategies

/// The hidden `worker` command: the process a run starts for one suite × strategy, handed its
/// job (``WorkerJob``) as JSON by the plan.
struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Run one suite against one strategy in this process (started by `obsbench run`).",
        shouldDisplay: false
    )

    /// Decoded once, while parsing: the worker may run under Callgrind, where every instruction
    /// costs about 50 times as much.
    @Option(
        help: "The job, as JSON (WorkerJob, written by `obsbench run`).",
        transform: { json in
            do throws(WorkerJob.Invalid) { return try WorkerJob(json: json) } catch { throw ValidationError(error.description) }
        })
    var job: WorkerJob
    @Option(name: .customLong("rows-file"), help: "Where to write result rows (CSV).") var rowsFile: String
    @Option(name: .customLong("samples-file"), help: "Where to write raw samples (CSV).") var samplesFile: String

    func validate() throws {
        do {
            _ = try job.resolve(strategies: Registered.strategies)
        } catch let invalid as WorkerJob.Invalid {
            throw ValidationError(invalid.description)
        }
    }

    @MainActor
    func run() async throws {
        #if DEBUG
            throw ValidationError("a worker must be a release build: numbers from a debug build are not reported")
        #else
            let (suite, strategy) = try job.resolve(strategies: Registered.strategies)
            try await Worker.run(
                suite: suite, strategy: strategy, sampler: job.sampler, round: job.round, quick: job.quick, objects: job.objects,
                subscribers: job.subscribers, measure: job.measure, instructionSettings: job.instructionSettings ?? .standard(),
                runID: job.runID, rowsFile: rowsFile, samplesFile: samplesFile)
        #endif
    }
}
