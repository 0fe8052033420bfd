import Foundation

/// Writes what workers measured into a run's folder: the one path both a run (``BenchmarkRun``)
/// and `obsbench merge` (``ShardMerge``) take, so a merged run's rows are made as one run's are.
///
/// Each job's rows go to `rounds.csv` and its samples to `samples.csv` at once, its profiles to
/// `profile.csv` and `profiles/` (those counted in several memory layouts are kept for their
/// mean), and in a shard the whole output to `jobs/` (``JobRecord``). When a suite's jobs are done,
/// each strategy's rounds are pooled (``RoundMerger``), in round order whatever order the workers
/// ended in, into `results.csv`, and the layouts' profiles are averaged.
///
/// ```swift
/// let recorder = RunRecorder(directory: directory, keepsJobs: false)
/// recorder.beginSuite("latency", strategies: ["plain", "observable"])
/// try recorder.record(RunJob(suite: "latency", measure: .time, strategy: "plain", round: 1, rounds: 1), number: 0, output: output)
/// let failures = recorder.finishSuite()   // the pooled rows are now in results.csv and recorder.rows
/// ```
@MainActor
public final class RunRecorder {
    public let directory: ResultsDirectory
    /// Whether each job's whole output is also kept in `jobs/` (a shard's, for `merge`).
    public let keepsJobs: Bool
    /// The pooled rows written to `results.csv` so far.
    public private(set) var rows: [ResultRow] = []

    /// The suite in progress: its strategies in table order, and the rounds each has finished.
    private var unfinished: (suite: String, strategies: [String], perStrategy: [String: [(job: RunJob, rows: [ResultRow], samples: [SampleRow])]])?
    /// Profiles of the suite in progress counted in several memory layouts, by row, written as
    /// their mean with the pooled rows.
    private var layoutProfiles: [RowKey: [(round: Int, profile: OperationProfile)]] = [:]

    public init(directory: ResultsDirectory, keepsJobs: Bool) {
        self.directory = directory
        self.keepsJobs = keepsJobs
    }

    /// Starts a suite, measured one way: `strategies` are the names its rows are pooled for, in order.
    public func beginSuite(_ suite: String, strategies: [String]) {
        unfinished = (suite, strategies, [:])
    }

    /// Records one job's output: its rows in `rounds.csv` and `samples.csv` at once, its profiles
    /// in `profile.csv` (or kept for the layouts' mean), and its rows for the suite's pooled ones.
    /// Throws when a file cannot be written; the rows are kept for pooling all the same.
    public func record(_ job: RunJob, number: Int, output: WorkloadOutput) throws {
        unfinished?.perStrategy[job.strategyName, default: []].append((job, output.rows, output.samples))
        let perLayout = job.rounds > 1 && job.measure == .instructions
        if perLayout {
            for profile in output.profiles { layoutProfiles[profile.key, default: []].append((job.round, profile)) }
        }
        try directory.append(rounds: output.rows, samples: output.samples)
        // A layout's profile is kept for the layouts' mean; its errors are written now.
        try directory.append(profiles: perLayout ? [] : output.profiles, errors: output.profileErrors)
        try directory.append(memoryProfile: output.memoryProfile)
        if keepsJobs { try JobRecord(number: number, job: job, output: output).write(into: directory.jobsFolder) }
    }

    /// Pools the finished rounds of the suite in progress into `results.csv`: at the end of each
    /// suite, and when a run is interrupted (the rows then pool the rounds that finished; their
    /// `rounds` column says how many). Returns what could not be written, one line each.
    public func finishSuite() -> [String] {
        guard let (suite, strategies, perStrategy) = unfinished else { return [] }
        unfinished = nil
        var failures: [String] = []
        if !layoutProfiles.isEmpty {
            let means = layoutProfiles.values.map { layouts in OperationProfile(meanOf: layouts.sorted { $0.round < $1.round }.map(\.profile)) }
                .sorted { $0.key.description < $1.key.description }
            layoutProfiles = [:]
            do {
                try directory.append(profiles: means, errors: [])
            } catch {
                failures.append("\(suite): cannot append profiles: \(error.localizedDescription)")
            }
        }
        for name in strategies {
            guard let measured = perStrategy[name]?.sorted(by: { $0.job.round < $1.job.round }), let total = measured.first?.job.rounds else { continue }
            let merged = RoundMerger.merge(rounds: measured.map { ($0.job.round, $0.rows) }, of: total, samples: measured.flatMap(\.samples))
                .map { $0.notingIndistinguishable() }
            do {
                try directory.append(results: merged)
            } catch {
                failures.append("\(suite) · \(name): cannot append results: \(error.localizedDescription)")
            }
            rows += merged
        }
        return failures
    }
}
