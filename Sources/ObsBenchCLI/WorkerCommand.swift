import ArgumentParser
import ObsBenchKit
import ObservationStrategies

/// The hidden `worker` command: the process a run starts for one suite × strategy.
struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Run one suite against one strategy in this process (started by `obsbench run`).",
        shouldDisplay: false
    )

    @Option(help: "The suite to run.") var suite: SuiteChoice
    @Option(help: "The strategy to run it against (none for a suite that measures no strategy).") var strategy: StrategyEntry?
    @Option(name: .customLong("run-id"), help: "The run these rows belong to.") var runID: String
    @Flag(help: "Use the short sampling settings.") var quick = false
    @Option(help: "Records per store (default: the suite's).") var objects: Int?
    @Option(help: "The largest subscriber count of the scaling sweep (default: the suite's).") var subscribers: Int?
    @Option(help: "Which round this worker is (1...rounds).") var round = 1
    @Option(help: "How many rounds the run has; this worker gets 1/rounds of the sampling budget.") var rounds = 1
    @Option(help: "time, or instructions (the worker then runs under Callgrind).") var measure: CostMeasure = .time
    @Flag(name: .customLong("cache-sim"), help: "Callgrind simulates caches (instructions only).") var cacheSimulation = false
    @Option(help: "Records a synchronous strategy's row is counted on (instructions only; default: the settings').") var draws: Int?
    @Option(name: .customLong("rows-file"), help: "Where to write result rows (CSV).") var rowsFile: String
    @Option(name: .customLong("samples-file"), help: "Where to write raw samples (CSV).") var samplesFile: String

    func validate() throws {
        try Selection.validateObjects(objects)
        try Selection.validateSubscribers(subscribers)
        try Selection.validateRounds(rounds)
        if let draws, !(1...400).contains(draws) { throw ValidationError("--draws must be between 1 and 400, got \(draws)") }
        guard (1...rounds).contains(round) else { throw ValidationError("--round must be in 1...\(rounds), got \(round)") }
        guard case .one(let suite) = suite else { throw ValidationError("a worker runs one suite, not all") }
        guard (strategy != nil) == suite.measuresStrategies else {
            throw ValidationError(
                suite.measuresStrategies ? "--strategy is needed: suite \(suite.name) measures strategies" : "suite \(suite.name) measures no strategy: drop --strategy")
        }
    }

    private var instructionSettings: InstructionSettings {
        var settings = quick ? InstructionSettings.quick(cacheSimulation: cacheSimulation) : .standard(cacheSimulation: cacheSimulation)
        if let draws { settings.draws = draws }
        return settings
    }

    @MainActor
    func run() async throws {
        #if DEBUG
            throw ValidationError("a worker must be a release build: numbers from a debug build are not reported")
        #else
            guard case .one(let suite) = suite else { throw ValidationError("a worker runs one suite, not all") }
            try await Worker.run(
                suite: suite, strategy: strategy, sampler: (quick ? SamplerSettings.quick : .standard).shared(by: rounds), round: round,
                quick: quick, objects: objects, subscribers: subscribers,
                measure: measure, instructionSettings: instructionSettings,
                runID: runID, rowsFile: rowsFile, samplesFile: samplesFile)
        #endif
    }
}
