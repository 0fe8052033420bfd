import Foundation
import ObservationStrategies

/// What one worker process runs: one suite, against one strategy or none, in one round, measured
/// one way. The plan builds it (``RunPlan/workerJob(suite:strategy:runID:round:measure:)``), and
/// the hidden `worker` command decodes it from JSON (`worker --job JSON`): the only description of
/// a worker's job, so a setting is added here once, and a name misspelt between the two sides is a
/// compile error rather than a failure at run time.
///
/// ```swift
/// let job = plan.workerJob(suite: .latency, strategy: observable, runID: id, round: 2, measure: .instructions)
/// let again = try WorkerJob(json: job.json)   // what the worker decodes: the same value
/// let (suite, strategy) = try again.resolve(strategies: StrategyRegistry.all)
/// ```
public struct WorkerJob: Codable, Sendable, Equatable {
    /// The suite's name (``Suite/name``).
    public var suite: String
    /// The strategy's name, or nil for a suite that measures no strategy.
    public var strategy: String?
    /// The run these rows belong to.
    public var runID: String
    /// The short sampling settings (`--quick`).
    public var quick: Bool
    /// Records per store; nil means the suite's own sweep.
    public var objects: Int?
    /// The largest S of the scaling sweep; nil means its default.
    public var subscribers: Int?
    /// Which round this worker is (1...rounds): for an instruction count, its memory layout.
    public var round: Int
    /// How many rounds the suite has; a timing worker gets 1/rounds of the sampling budget.
    public var rounds: Int
    /// What the worker measures; under `.instructions` it runs under Callgrind.
    public var measure: CostMeasure
    /// How instructions are counted, exactly as the plan holds them; nil when measuring time.
    public var instructionSettings: InstructionSettings?
    /// The workloads of the suite to run, by the names `--workload` gave (``Suite/keeping(workloads:)``);
    /// nil runs them all.
    public var workloads: [String]?

    public init(
        suite: String, strategy: String?, runID: String, quick: Bool, objects: Int? = nil, subscribers: Int? = nil, round: Int = 1, rounds: Int = 1,
        measure: CostMeasure = .time, instructionSettings: InstructionSettings? = nil, workloads: [String]? = nil
    ) {
        self.suite = suite
        self.strategy = strategy
        self.runID = runID
        self.quick = quick
        self.objects = objects
        self.subscribers = subscribers
        self.round = round
        self.rounds = rounds
        self.measure = measure
        self.instructionSettings = instructionSettings
        self.workloads = workloads
    }

    enum CodingKeys: String, CodingKey {
        case suite, strategy, runID = "run_id", quick, objects, subscribers, round, rounds, measure, instructionSettings = "instruction_settings", workloads
    }

    /// The job as one line of JSON, keys sorted: what the plan hands the worker.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings, numbers and a struct of them cannot fail.
        guard let data = try? encoder.encode(self), let text = String(data: data, encoding: .utf8) else { preconditionFailure("a WorkerJob encodes") }
        return text
    }

    /// Decodes the JSON a plan wrote (``json``).
    public init(json: String) throws(Invalid) {
        do {
            self = try JSONDecoder().decode(WorkerJob.self, from: Data(json.utf8))
        } catch {
            throw Invalid(description: "the worker's job is not a job obsbench wrote: \(error)")
        }
    }

    /// A job that cannot be run, and why.
    public struct Invalid: Error, CustomStringConvertible {
        public var description: String
    }

    /// The suite and strategy the job names, from `strategies` (the binary's registry), checked
    /// against each other: a strategy suite needs one, another suite none; `round` in 1...rounds,
    /// and instruction settings exactly when counting instructions. Sizes were checked by `run`.
    /// The suite holds only the job's ``workloads``, and at least one.
    public func resolve(strategies: [StrategyEntry]) throws -> (suite: Suite, strategy: StrategyEntry?) {
        guard let whole = SuiteRegistry.suite(named: suite) else {
            throw Invalid(description: "no suite \(suite) (suites: \(SuiteRegistry.all.map(\.name).joined(separator: ", ")))")
        }
        let found = whole.keeping(workloads: workloads ?? [])
        if let workloads, found.workloads.isEmpty {
            let known = whole.workloads.map(\.name).joined(separator: ", ")
            throw Invalid(description: "suite \(suite) has no workload named \(workloads.joined(separator: ", ")) (workloads: \(known))")
        }
        guard rounds >= 1, (1...rounds).contains(round) else { throw Invalid(description: "round \(round) is not in 1...\(rounds)") }
        guard (measure == .instructions) == (instructionSettings != nil) else {
            throw Invalid(description: "instruction settings are given exactly when the job counts instructions (measure: \(measure.rawValue))")
        }
        guard let strategy else {
            if found.measuresStrategies { throw Invalid(description: "a strategy is needed: suite \(found.name) measures strategies") }
            return (found, nil)
        }
        guard found.measuresStrategies else {
            throw Invalid(description: "suite \(found.name) measures no strategy: the job names \(strategy)")
        }
        guard let entry = strategies.first(where: { $0.name == strategy }) else {
            throw Invalid(description: "no strategy \(strategy) in this binary (strategies: \(strategies.map(\.name).joined(separator: ", ")))")
        }
        return (found, entry)
    }

    /// The arguments that start a worker on `job` (the launcher adds where its output goes):
    /// `worker --job JSON`.
    public static func arguments(_ job: WorkerJob) -> [String] { ["worker", "--job", job.json] }

    /// The sampling settings of a timing worker: `--quick`'s or the standard ones, shared by the rounds.
    public var sampler: SamplerSettings { (quick ? SamplerSettings.quick : .standard).shared(by: rounds) }
}
