import Foundation
import ObservationStrategies

/// What to run: which suites against which strategies, how long, and how big.
public struct RunPlan: Sendable {
    public var suites: [Suite]
    public var strategies: [StrategyEntry]
    public var quick: Bool
    /// Records per store; nil means each suite's default.
    public var objects: Int?
    /// Worker rounds per strategy; nil means each suite's default.
    public var rounds: Int?
    /// The largest subscriber count of the scaling sweep; nil means its default.
    public var subscribers: Int?
    public var workerTimeoutSeconds: Double
    /// What each workload's cost is measured in: time, instructions, or both (time first).
    public var measures: [CostMeasure]
    /// How instructions are counted, when `measures` has `.instructions`.
    public var instructionSettings: InstructionSettings
    /// How many instruction-mode workers (or workers of a suite of exact counts, memory) run at
    /// once. Callgrind counts each process's own instructions, and jemalloc each process's own
    /// allocations, whatever else the machine runs, so they may share the cores; timing workers
    /// always run one at a time.
    public var instructionJobs: Int
    /// The part of the jobs to run when the run is spread over several machines (`--shard K/N`);
    /// nil runs them all.
    public var shard: RunShard?
    /// Whether the memory suite's rows get a heap profile by allocation site (`memprofile.csv`,
    /// ``HeapProfiles``): a second worker per strategy, on jemalloc with profiling on.
    public var heapProfiles: Bool
    /// The workloads asked for by name (`--workload`, ``Suite/picks(_:_:)``); empty runs every
    /// workload. The plan's suites hold only those, and a suite left with none is not run.
    public var workloads: [String]

    public init(
        suites: [Suite], strategies: [StrategyEntry], quick: Bool, objects: Int?, rounds: Int? = nil, subscribers: Int? = nil, workerTimeoutSeconds: Double,
        measures: [CostMeasure] = [.time], instructionSettings: InstructionSettings = .standard(),
        instructionJobs: Int = ProcessInfo.processInfo.activeProcessorCount, shard: RunShard? = nil, heapProfiles: Bool = true, workloads: [String] = []
    ) {
        self.heapProfiles = heapProfiles
        self.workloads = workloads
        self.suites = workloads.isEmpty ? suites : suites.map { $0.keeping(workloads: workloads) }.filter { !$0.workloads.isEmpty }
        self.strategies = strategies
        self.quick = quick
        self.objects = objects
        self.rounds = rounds
        self.subscribers = subscribers
        self.workerTimeoutSeconds = workerTimeoutSeconds
        self.measures = CostMeasure.allCases.filter(measures.contains)
        self.instructionSettings = instructionSettings
        self.instructionJobs = max(1, instructionJobs)
        self.shard = shard
    }

    /// The measures `suite` runs: every one asked for that it has workloads for.
    public func measures(of suite: Suite) -> [CostMeasure] {
        measures.filter { !suite.workloads(measuring: $0).isEmpty }
    }

    /// The suites that have nothing to measure the way the plan asks (e.g. memory under `--measure instructions` alone).
    public var suitesWithoutMeasures: [Suite] {
        suites.filter { measures(of: $0).isEmpty }
    }

    /// The strategies `suite` runs workers for: all selected ones, or for a suite that measures
    /// no strategy, one worker with none (nil).
    public func strategies(of suite: Suite) -> [StrategyEntry?] {
        suite.measuresStrategies ? strategies : [nil]
    }

    /// How many rounds `suite` runs each strategy in when measuring `measure`: for instruction
    /// counts, which repeat exactly in one process, one per memory layout (round N runs layout N).
    public func rounds(of suite: Suite, measuring measure: CostMeasure = .time) -> Int {
        measure == .instructions ? instructionSettings.layouts : rounds ?? suite.defaultRounds
    }

    /// Every worker process of the whole plan, shard or not, in the order ``RunShard`` numbers
    /// them: by suite, then measure, then strategy, then round.
    public var jobs: [RunJob] {
        suites.flatMap { suite in
            measures(of: suite).flatMap { measure in
                let rounds = rounds(of: suite, measuring: measure)
                return strategies(of: suite).flatMap { strategy in
                    (1...rounds).map { RunJob(suite: suite.name, measure: measure, strategy: strategy?.name, round: $0, rounds: rounds) }
                }
            }
        }
    }

    /// The jobs this process runs: all of them, or those its shard selects.
    public var selectedJobs: [RunJob] {
        guard let shard else { return jobs }
        return jobs.enumerated().filter { shard.selects(jobNumber: $0.offset) }.map(\.element)
    }

    /// Worker processes the plan starts in all (in a shard, those of the shard).
    public var workerCount: Int { selectedJobs.count }

    /// The job of one worker: one round of one suite against one strategy (or none), measured as asked.
    public func workerJob(suite: Suite, strategy: StrategyEntry?, runID: String, round: Int = 1, measure: CostMeasure = .time) -> WorkerJob {
        WorkerJob(
            suite: suite.name, strategy: strategy?.name, runID: runID, quick: quick, objects: objects, subscribers: subscribers, round: round,
            rounds: rounds(of: suite, measuring: measure), measure: measure, instructionSettings: measure == .instructions ? instructionSettings : nil,
            workloads: workloads.isEmpty ? nil : workloads)
    }
}

/// Runs a plan: one worker process per suite × round × strategy (in a shard, those the plan's
/// ``RunShard`` selects), progress on standard error.
///
/// Within a suite the strategies take turns, round after round, so a shared machine's slow and
/// fast stretches fall on all of them alike. Each worker's rows go to `rounds.csv` and its raw
/// samples to `samples.csv` as it finishes; when a suite's last round is done, the pooled rows
/// (see `RoundMerger`) go to `results.csv` (both through ``RunRecorder``), and each suite whose
/// jobs are all pooled is handed to ``suiteDone``, in the plan's order (``SuiteReadiness``).
@MainActor
public final class BenchmarkRun {
    public let plan: RunPlan
    public let directory: ResultsDirectory
    public let runID: String
    public let launcher = WorkerLauncher()
    private let workerExecutable: String
    /// How instruction-mode workers are started; nil when the plan measures time only.
    private let callgrind: CallgrindInvocation?

    /// The environment of workers that run on jemalloc; nil when it is not installed (they then
    /// read glibc's counters, with its thread cache off, and say so in every row).
    public let jemallocEnvironment: [String: String]? = {
        let environment = ProcessInfo.processInfo.environment
        return JemallocLibrary.find(environment: environment).map { JemallocLibrary.workerEnvironment(library: $0, environment: environment) }
    }()

    /// The environment of a memory worker: jemalloc's, or glibc with exact counters.
    var memoryWorkerEnvironment: [String: String] {
        jemallocEnvironment ?? JemallocLibrary.glibcExactEnvironment(environment: ProcessInfo.processInfo.environment)
    }

    /// How `run.json` names the allocators this plan's workers run on.
    public var allocatorDescription: String {
        var parts: [String] = []
        if plan.suites.contains(where: { !$0.runsOnJemalloc }) { parts.append("timing suites: system allocator (glibc malloc)") }
        if plan.suites.contains(where: \.runsOnJemalloc) {
            if let library = jemallocEnvironment?["LD_PRELOAD"] {
                parts.append("memory suite: jemalloc via LD_PRELOAD=\(library), MALLOC_CONF=tcache:false")
            } else {
                parts.append("memory suite: glibc malloc counters (mallinfo2, GLIBC_TUNABLES=glibc.malloc.tcache_count=0), jemalloc not found: \(JemallocLibrary.installHint)")
            }
        }
        return parts.joined(separator: "; ")
    }

    /// The symbols heap profiles' addresses are named by, read once for every memory worker.
    private let symbolTables = SymbolTables()

    /// Where each worker's output is written, and the suites' rounds pooled.
    public let recorder: RunRecorder
    /// The pooled rows written to `results.csv` so far.
    public var rows: [ResultRow] { recorder.rows }
    public private(set) var failures: [String] = []
    /// Each selected job's number in the whole plan, for a shard's job records.
    private let jobNumbers: [RunJob: Int]
    /// Which suites are done, and handed to ``suiteDone``.
    private var readiness: SuiteReadiness
    /// Called with each suite of the plan, in order, once all its jobs (and those of the suites its
    /// tables also read) are pooled and every suite before it was handed over (``SuiteReadiness``),
    /// with every row pooled so far: `obsbench run` prints the suite's tables there. It is called
    /// between two suites, never while a worker runs; not for a run that is interrupted.
    public var suiteDone: (@MainActor (_ suite: Suite, _ rows: [ResultRow]) -> Void)?

    /// - Parameter callgrind: how to start instruction-mode workers (`CallgrindInvocation.prepare`);
    ///   required when the plan measures instructions.
    public init(plan: RunPlan, directory: ResultsDirectory, runID: String, workerExecutable: String, callgrind: CallgrindInvocation? = nil) {
        self.plan = plan
        self.directory = directory
        self.runID = runID
        self.workerExecutable = workerExecutable
        self.callgrind = callgrind
        recorder = RunRecorder(directory: directory, keepsJobs: plan.shard != nil)
        let selected = Set(plan.selectedJobs)
        jobNumbers = Dictionary(uniqueKeysWithValues: plan.jobs.enumerated().filter { selected.contains($0.element) }.map { ($0.element, $0.offset) })
        readiness = SuiteReadiness(
            suites: plan.suites.map(\.name), jobs: plan.selectedJobs, reads: Dictionary(uniqueKeysWithValues: plan.suites.map { ($0.name, $0.tablesAlsoRead) }))
    }

    public func execute() async {
        // Each suite's share of the time left: its jobs, each its budget (``Suite/secondsPerWorker``).
        var budgets: [String: ProgressReporter.Budget] = [:]
        for job in plan.selectedJobs {
            guard let suite = plan.suites.first(where: { $0.name == job.suite }) else { continue }
            let key = Self.suiteLabel(job.suite, job.measure)
            let seconds = suite.secondsPerWorker * (job.measure == .instructions ? Suite.instructionSlowdown : 1)
            budgets[key, default: ProgressReporter.Budget(jobs: 0, secondsPerJob: seconds)].jobs += 1
        }
        let progress = ProgressReporter(totalJobs: plan.workerCount, budgets: budgets)
        // Suites with no job to run (none selected by a shard, nothing to measure) at the head of
        // the plan are done before any worker starts.
        handOverDoneSuites(progress: progress)
        for suite in plan.suites {
            for measure in plan.measures(of: suite) {
                await execute(suite, measuring: measure, progress: progress)
            }
        }
        handOverDoneSuites(progress: progress)
        progress.done()
    }

    /// Hands every suite ``SuiteReadiness`` releases to ``suiteDone``, the progress line cleared
    /// first so that what it prints on a terminal starts on a line of its own.
    private func handOverDoneSuites(progress: ProgressReporter) {
        let done = readiness.release()
        guard let suiteDone, !done.isEmpty else { return }
        progress.clearLine()
        for name in done {
            guard let suite = plan.suites.first(where: { $0.name == name }) else { continue }
            suiteDone(suite, rows)
        }
    }

    /// Every round of every strategy of one suite, measuring one way (in a shard, those it
    /// selects); then its pooled rows. Timing workers run one at a time; instruction workers, and
    /// those of a suite of exact counts (`Suite.countsOnly`), up to `plan.instructionJobs` at once.
    private func execute(_ suite: Suite, measuring measure: CostMeasure, progress: ProgressReporter) async {
        let rounds = plan.rounds(of: suite, measuring: measure)
        let strategies = plan.strategies(of: suite)
        let suiteLabel = Self.suiteLabel(suite.name, measure)
        func job(_ strategy: StrategyEntry?, round: Int) -> RunJob {
            RunJob(suite: suite.name, measure: measure, strategy: strategy?.name, round: round, rounds: rounds)
        }
        // Instruction workers run side by side, and each counts only itself, so their order does
        // not touch the numbers: the asynchronous strategies' workers (GRDB's above all) are the
        // longest, and starting them first in each round keeps a core from idling behind one at
        // the end of the suite. Once a strategy's first worker is done, its further ones are
        // started longest first, by that worker's time (``nextJob(_:seconds:)``).
        let order =
            measure == .instructions
            ? strategies.filter { $0?.descriptor.capabilities.delivery == .asynchronous } + strategies.filter { $0?.descriptor.capabilities.delivery != .asynchronous }
            : strategies
        var pending = (1...rounds).flatMap { round in order.map { (job: job($0, round: round), strategy: $0) } }.filter { jobNumbers[$0.job] != nil }
        // A shard may select none of the suite's jobs: it then has no rows of it at all.
        guard !pending.isEmpty else { return }
        let jobs = pending.map(\.job)
        recorder.beginSuite(suite.name, strategies: strategies.map { $0?.name ?? RowKey.noStrategy })
        let width = measure == .instructions || suite.countsOnly ? plan.instructionJobs : 1
        await withTaskGroup(of: Void.self) { group in
            var running = 0
            while !pending.isEmpty {
                if running == width {
                    await group.next()
                    running -= 1
                }
                let next = width > 1 ? pending.remove(at: Self.nextJob(pending.map(\.job), seconds: workerSeconds)) : pending.removeFirst()
                running += 1
                let job = next.job, strategy = next.strategy
                group.addTask {
                    await self.runAndRecord(job, suite: suite, strategy: strategy, suiteLabel: suiteLabel, progress: progress)
                }
            }
        }
        appendPooledRows()
        for job in jobs { readiness.finished(job) }
        handOverDoneSuites(progress: progress)
    }

    /// How long each strategy's last worker of the suite in progress took, by job (suite, measure,
    /// strategy), to start the longest pending ones first where workers run side by side.
    private var workerSeconds: [String: Double] = [:]

    /// What `seconds` of ``nextJob(_:seconds:)`` is keyed by: the job's suite, measure and strategy.
    nonisolated static func durationKey(_ job: RunJob) -> String { "\(job.suite)/\(job.measure.rawValue)/\(job.strategyName)" }

    /// Which of `pending` to start next where workers run side by side: a strategy not yet timed in
    /// this suite first (in the plan's order), then the one whose last worker took longest
    /// (`seconds`, by ``durationKey(_:)``). A long worker started last would leave the other cores
    /// idle behind it: `plain` and `observable` counted in 5 layouts took 57 s, the last 13 s one
    /// worker alone; started longest first, 53 s.
    nonisolated static func nextJob(_ pending: [RunJob], seconds: [String: Double]) -> Int {
        var best = 0
        var bestSeconds = -1.0
        for (index, job) in pending.enumerated() {
            let seconds = seconds[durationKey(job)] ?? .infinity
            if seconds > bestSeconds {
                best = index
                bestSeconds = seconds
            }
        }
        return best
    }

    /// How progress lines name a suite measured one way: "latency", "latency (instructions)".
    nonisolated static func suiteLabel(_ suite: String, _ measure: CostMeasure) -> String {
        measure == .instructions ? "\(suite) (instructions)" : suite
    }

    /// Runs one worker and records what it measured (``RunRecorder``).
    private func runAndRecord(_ job: RunJob, suite: Suite, strategy: StrategyEntry?, suiteLabel: String, progress: ProgressReporter) async {
        let name = job.strategyName, round = job.round, rounds = job.rounds, measure = job.measure
        let label = strategy == nil ? suite.name : rounds > 1 ? "\(name) (round \(round)/\(rounds))" : name
        progress.starting(suite: suiteLabel, strategy: label)
        let begin = MonotonicClock.now()
        var (output, failure) = await runWorker(suite: suite, strategy: strategy, round: round, measure: measure)
        let seconds = Double(MonotonicClock.now() - begin) / 1e9
        workerSeconds[Self.durationKey(job)] = seconds
        do {
            try recorder.record(job, number: jobNumbers[job] ?? 0, output: output)
        } catch {
            failure = "cannot append results: \(error.localizedDescription)"
        }
        for error in output.profileErrors { progress.warn("profile of \(error.key.benchmark): \(error.function)") }
        if let failure { failures.append("\(suite.name) · \(label): \(failure)") }
        progress.finished(suite: suiteLabel, strategy: label, seconds: seconds, error: failure)
    }

    /// Pools the finished rounds of the suite in progress into `results.csv`: at the end of each
    /// suite, and when a run is interrupted (the rows then pool the rounds that finished; their
    /// `rounds` column says how many).
    public func appendPooledRows() {
        failures += recorder.finishSuite()
    }

    /// Runs one worker; a crash, hang or unreadable output becomes an error row.
    private func runWorker(suite: Suite, strategy: StrategyEntry?, round: Int, measure: CostMeasure) async -> (WorkloadOutput, String?) {
        let job = plan.workerJob(suite: suite, strategy: strategy, runID: runID, round: round, measure: measure)
        let arguments = WorkerJob.arguments(job)
        let outcome: WorkerLauncher.Outcome
        if measure == .instructions {
            outcome = await runUnderCallgrind(arguments: arguments, layout: round, threads: .counted(for: strategy))
        } else {
            outcome = await launcher.run(
                executable: workerExecutable, arguments: arguments, timeoutSeconds: plan.workerTimeoutSeconds,
                environment: suite.runsOnJemalloc ? memoryWorkerEnvironment : nil)
        }
        switch outcome {
        case .finished(var finished):
            let errors = finished.rows.filter(\.isError).map(\.note)
            if suite.runsOnJemalloc, measure == .time, round == 1, plan.heapProfiles, let jemallocEnvironment {
                finished.memoryProfile = await heapProfile(suite: suite, job: job, jemalloc: jemallocEnvironment, rows: finished.rows)
            }
            return (finished, errors.isEmpty ? nil : errors.joined(separator: "; "))
        case .failed(let message):
            return (WorkloadOutput(rows: [ResultRow.error(runID: runID, suite: suite.name, strategy: strategy?.name ?? RowKey.noStrategy, message: message)]), message)
        }
    }

    /// Runs the memory worker again with jemalloc's heap profiling on, at the sweep's smallest
    /// store only, and reads its dumps into allocation sites for those of `rows` (the first
    /// worker's) it measured too; an error row for each of them when that cannot be done (no `nm`,
    /// a crash, unreadable dumps). Larger stores are not profiled: with every allocation's stack
    /// recorded, `grdb-queue`'s worker took 102 s at 1,000 and 10,000 records, 16 s at 1,000.
    private func heapProfile(suite: Suite, job: WorkerJob, jemalloc: [String: String], rows: [ResultRow]) async -> [MemoryProfileRow] {
        let measured = rows.filter { !$0.isError && $0.statistics != nil }
        func failed(_ keys: [RowKey], _ message: String) -> [MemoryProfileRow] { keys.map { MemoryProfileRow.error(key: $0, message: message) } }
        let smallest = plan.objects ?? (plan.quick ? suite.quickObjectSweep : suite.objectSweep).min()
        let atSmallest = measured.filter { $0.workload != StoreLifecycleWorkload().name || $0.objects == smallest }.map(RowKey.init)
        guard symbolTables.canRead else { return failed(atSmallest, "no heap profile: nm not found (\(SymbolTables.installHint))") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("obsbench-heap-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            return failed(atSmallest, "no heap profile: cannot create a scratch folder: \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        var profiling = job
        profiling.objects = smallest ?? suite.defaultObjects
        let outcome = await launcher.run(
            executable: workerExecutable, arguments: WorkerJob.arguments(profiling),
            timeoutSeconds: plan.workerTimeoutSeconds, environment: HeapProfiles.workerEnvironment(jemalloc: jemalloc, folder: folder.path))
        guard case .finished(let profiled) = outcome else {
            if case .failed(let message) = outcome { return failed(atSmallest, "no heap profile: the heap-profiling worker failed: \(message)") }
            return failed(atSmallest, "no heap profile")
        }
        // Only rows both workers measured: the profiling one's own figures are not reported
        // (profiling changes what jemalloc's counters say).
        let keys = Set(measured.map(RowKey.init)).intersection(profiled.rows.map(RowKey.init))
        do {
            let profile = try HeapProfiles.rows(folder: folder, symbols: symbolTables)
            let unexplained = keys.subtracting(profile.explained).sorted { $0.description < $1.description }
            return profile.rows.filter { keys.contains($0.key) } + failed(unexplained, "no heap profile: the heap-profiling worker named no span for this row")
        } catch {
            return failed(keys.sorted { $0.description < $1.description }, "no heap profile: \(error)")
        }
    }

    /// Runs one worker under Callgrind in memory layout `layout`, counting `threads`, its dumps in
    /// a folder of its own; a crash or hang names Valgrind and ends with the last lines it logged.
    private func runUnderCallgrind(arguments: [String], layout: Int, threads: CountedThreads) async -> WorkerLauncher.Outcome {
        guard let callgrind else { return .failed("the instruction mode was not prepared (no valgrind)") }
        let dumps = callgrind.scratch.appendingPathComponent("worker-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: dumps, withIntermediateDirectories: true)
        } catch {
            return .failed("cannot create a folder for Callgrind's dumps: \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(at: dumps) }
        let command = callgrind.command(workerArguments: arguments, dumpFolder: dumps, layout: layout, threads: threads)
        let outcome = await launcher.run(executable: command.executable, arguments: command.arguments, timeoutSeconds: plan.workerTimeoutSeconds, environment: command.environment)
        if case .finished(var output) = outcome {
            // Read here, after the worker exited: under Valgrind it would cost ~50× as much.
            (output.profiles, output.profileErrors) = ProfileManifest.profiles(dumpFolder: dumps, rows: output.rows)
            output.rows += ReferenceCounts.rows(profiles: output.profiles, counted: output.rows)
            return .finished(output)
        }
        guard case .failed(let message) = outcome else { return outcome }
        let log = CallgrindInvocation.logTail(dumpFolder: dumps)
        return .failed("under valgrind --tool=callgrind: \(message)" + (log.isEmpty ? "" : "; valgrind's log ends: \(log)"))
    }
}
