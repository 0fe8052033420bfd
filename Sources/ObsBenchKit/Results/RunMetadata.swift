import Foundation
import ObservationStrategies

/// `run.json`: where and how a run was made, written beside `results.csv`.
public struct RunMetadata: Codable, Sendable, Equatable {
    public var runID: String
    /// ISO 8601 start time.
    public var time: String
    public var gitRevision: String
    public var host: String
    public var cpuModel: String
    public var coreCount: Int
    public var swiftVersion: String
    public var buildConfiguration: String
    /// The allocator the timing workers ran on.
    public var allocator: String
    public var suites: [String]
    public var strategies: [String]
    public var quick: Bool
    public var commandLine: [String]
    public var status: RunStatus
    public var finishedTime: String?
    public var clockResolutionNanoseconds: UInt64
    /// The measured cost of one clock read, in ns.
    public var clockCallCostNanoseconds: Double
    /// How cost per operation was measured: `time`, `instructions` or both (nil in runs made
    /// before the instruction mode: time).
    public var measures: [CostMeasure]?
    /// What decided the instruction counts (Valgrind's version and options, the environment,
    /// the loop lengths), when the run counted instructions.
    public var instructionCounting: InstructionFacts?
    /// `swift --version`'s first line for the toolchain on PATH when the run started.
    public var toolchain: String?
    /// Worker rounds per suite, as run (nil in older runs).
    public var rounds: [String: Int]?
    /// Each strategy's descriptor, capabilities included, so `compare`, `gate` and `report` can
    /// read runs of strategies the reading binary does not know (nil in older runs).
    public var strategyDetails: [StrategyDescriptor]?
    /// For a shard of a run (`--shard K/N`), which part it is: its rows are only that part's, and
    /// `compare`, `gate` and `export` refuse it until `obsbench merge` has joined all N (nil for a
    /// whole run).
    public var shard: RunShard?
    /// For a shard, every job of the whole plan, numbered as ``RunShard`` deals them, so `merge`
    /// can check that the shards together ran each job once (nil for a whole run).
    public var jobs: [RunJob]?
    /// For a run `obsbench merge` joined, the shards' run ids, shard 1 first (nil otherwise).
    public var mergedShards: [String]?
    /// The workloads the run was limited to (`--workload`), as given; nil when it ran every
    /// workload of its suites. A baseline's rows of other workloads are missing from such a run.
    public var workloads: [String]?

    /// How the run measured cost: what it says, or time for runs older than the instruction mode.
    public var measuresOrDefault: [CostMeasure] { measures ?? [.time] }

    public init(
        runID: String, time: String, gitRevision: String, host: String, cpuModel: String, coreCount: Int, swiftVersion: String, buildConfiguration: String, allocator: String,
        suites: [String], strategies: [String], quick: Bool, commandLine: [String], status: RunStatus, finishedTime: String?, clockResolutionNanoseconds: UInt64,
        clockCallCostNanoseconds: Double,
        measures: [CostMeasure]? = nil, instructionCounting: InstructionFacts? = nil, toolchain: String? = nil, rounds: [String: Int]? = nil,
        strategyDetails: [StrategyDescriptor]? = nil, shard: RunShard? = nil, jobs: [RunJob]? = nil, mergedShards: [String]? = nil,
        workloads: [String]? = nil
    ) {
        self.runID = runID
        self.time = time
        self.gitRevision = gitRevision
        self.host = host
        self.cpuModel = cpuModel
        self.coreCount = coreCount
        self.swiftVersion = swiftVersion
        self.buildConfiguration = buildConfiguration
        self.allocator = allocator
        self.suites = suites
        self.strategies = strategies
        self.quick = quick
        self.commandLine = commandLine
        self.status = status
        self.finishedTime = finishedTime
        self.clockResolutionNanoseconds = clockResolutionNanoseconds
        self.clockCallCostNanoseconds = clockCallCostNanoseconds
        self.measures = measures
        self.instructionCounting = instructionCounting
        self.toolchain = toolchain
        self.rounds = rounds
        self.strategyDetails = strategyDetails
        self.shard = shard
        self.jobs = jobs
        self.mergedShards = mergedShards
        self.workloads = workloads
    }

    /// Why the run cannot be judged or exported as a whole: it is one shard of several (`--shard
    /// K/N`), whose rows lack the other shards' strategies, rounds and layouts; nil for a whole run.
    public var partialRunProblem: String? {
        guard let shard, shard.isPartial else { return nil }
        return
            "it is shard \(shard.index) of \(shard.count) of a run (--shard \(shard)): its rows are only the jobs that shard ran. Join all \(shard.count) shards first: obsbench merge SHARD_DIR... --output DIR"
    }

    /// The descriptor of `strategy`: from `run.json`, or for runs older than that field, from the
    /// built-in strategies of this binary; nil when neither knows it.
    public func descriptor(of strategy: String) -> StrategyDescriptor? {
        Self.descriptor(of: strategy, in: [self])
    }

    /// The descriptor of `strategy` from the first of `runs` whose `run.json` describes it, else
    /// from the built-in strategies of this binary (runs older than `strategy_details`, or none).
    public static func descriptor(of strategy: String, in runs: [RunMetadata?]) -> StrategyDescriptor? {
        for run in runs {
            if let described = run?.strategyDetails?.first(where: { $0.name == strategy }) { return described }
        }
        return KnownStrategies.descriptor(named: strategy)
    }

    enum CodingKeys: String, CodingKey {
        case runID = "run_id", time, gitRevision = "git_revision", host, cpuModel = "cpu_model"
        case coreCount = "core_count", swiftVersion = "swift_version", buildConfiguration = "build_configuration"
        case allocator, suites, strategies, quick, commandLine = "command_line", status
        case finishedTime = "finished_time", clockResolutionNanoseconds = "clock_resolution_ns"
        case clockCallCostNanoseconds = "clock_call_cost_ns", measures, instructionCounting = "instruction_counting"
        case toolchain, rounds, strategyDetails = "strategy_details", shard, jobs, mergedShards = "merged_shards", workloads
    }
}

/// Where a run got to, as `run.json` says.
public enum RunStatus: String, Codable, Sendable, CaseIterable {
    /// Workers are still being run (or the parent was killed without a chance to say so).
    case running
    /// Every worker finished and measured.
    case completed
    /// Every worker ran; some failed, and their error rows are in `results.csv`.
    case completedWithErrors = "completed-with-errors"
    /// Stopped by SIGINT or SIGTERM: the rows of the workers that finished are kept.
    case interrupted
}

/// Facts about this machine and build for `run.json`.
public enum HostFacts {
    public static var cpuModel: String {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            if let colon = line.firstIndex(of: ":") {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return "unknown"
    }

    public static var hostName: String { ProcessInfo.processInfo.hostName }

    /// The first line of `swift --version` for the toolchain on PATH; nil without one.
    public static var toolchain: String? {
        Command.run(["swift", "--version"])?.split(separator: "\n").first.map(String.init)
    }
    public static var coreCount: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// The Swift compiler this binary was built with.
    public static var swiftVersion: String {
        #if compiler(>=6.4)
            "6.4 or later"
        #elseif compiler(>=6.3)
            "6.3"
        #elseif compiler(>=6.2)
            "6.2"
        #else
            "6.1"
        #endif
    }

    public static var buildConfiguration: String {
        #if DEBUG
            "debug"
        #else
            "release"
        #endif
    }

    /// `git rev-parse HEAD` in `directory`, with `-dirty` when the tree has changes; "unknown" outside git.
    public static func gitRevision(in directory: String) -> String {
        guard let revision = Command.run(["git", "-C", directory, "rev-parse", "--short=12", "HEAD"]) else { return "unknown" }
        let dirty = Command.run(["git", "-C", directory, "status", "--porcelain", "--untracked-files=no"]).map { !$0.isEmpty } ?? false
        return revision + (dirty ? "-dirty" : "")
    }
}
