import Foundation

/// One worker's output kept whole in a shard's folder, `jobs/<number>/`, so that `obsbench merge`
/// can pool the shards' rounds and layouts as one run pools its own (``RunRecorder``): the rows and
/// samples the parent had when the worker ended (`rounds.csv`, `samples.csv`), its profiles in full
/// (`profiles.json`: every function and call, for the means over layouts and `profiles/`) and the
/// profiles that could not be made (`profile.csv`, error rows only), and a memory job's heap
/// profile (`memprofile.csv`). `job.json` names the job.
///
/// Only a shard writes them (`--shard K/N`); `rounds.csv`, `samples.csv` and `profile.csv` of the
/// shard's folder hold the same rows, in the order the workers ended.
public struct JobRecord: Sendable {
    /// The job's number in the whole plan (``RunPlan/jobs``), from 0.
    public var number: Int
    public var job: RunJob
    public var output: WorkloadOutput

    public init(number: Int, job: RunJob, output: WorkloadOutput) {
        self.number = number
        self.job = job
        self.output = output
    }

    /// `jobs/0042`, in `jobsFolder`.
    public static func folder(number: Int, in jobsFolder: URL) -> URL {
        let digits = String(number)
        return jobsFolder.appendingPathComponent(String(repeating: "0", count: max(0, 4 - digits.count)) + digits, isDirectory: true)
    }

    static let jobFile = "job.json"
    static let profilesFile = "profiles.json"

    /// Writes the record into its folder under `jobsFolder`.
    public func write(into jobsFolder: URL) throws {
        let folder = Self.folder(number: number, in: jobsFolder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(job).write(to: folder.appendingPathComponent(Self.jobFile), options: .atomic)
        try Data((CSV.line(ResultRow.columns) + output.rows.map { CSV.line($0.fields) }.joined()).utf8)
            .write(to: folder.appendingPathComponent(ResultsDirectory.FileName.rounds), options: .atomic)
        try Data((CSV.line(SampleRow.columns) + output.samples.map { CSV.line($0.fields) }.joined()).utf8)
            .write(to: folder.appendingPathComponent(ResultsDirectory.FileName.samples), options: .atomic)
        try encoder.encode(output.profiles).write(to: folder.appendingPathComponent(Self.profilesFile), options: .atomic)
        try Data((CSV.line(ProfileRow.columns) + output.profileErrors.map { CSV.line($0.fields) }.joined()).utf8)
            .write(to: folder.appendingPathComponent(ResultsDirectory.FileName.profile), options: .atomic)
        if !output.memoryProfile.isEmpty {
            try Data((CSV.line(MemoryProfileRow.columns) + output.memoryProfile.map { CSV.line($0.fields) }.joined()).utf8)
                .write(to: folder.appendingPathComponent(ResultsDirectory.FileName.memoryProfile), options: .atomic)
        }
    }

    /// Reads job `number`'s record from `jobsFolder`; errors name the file.
    public static func read(number: Int, from jobsFolder: URL) throws -> JobRecord {
        let folder = folder(number: number, in: jobsFolder)
        func file(_ name: String) -> URL { folder.appendingPathComponent(name) }
        func data(_ name: String) throws -> Data {
            guard let data = FileManager.default.contents(atPath: file(name).path) else {
                throw ResultsReader.ReadError(file: file(name).path, line: 0, reason: "missing: the shard did not record this job")
            }
            return data
        }
        let decoder = JSONDecoder()
        let job: RunJob
        let profiles: [OperationProfile]
        do {
            job = try decoder.decode(RunJob.self, from: try data(jobFile))
            profiles = try decoder.decode([OperationProfile].self, from: try data(profilesFile))
        } catch let error as ResultsReader.ReadError {
            throw error
        } catch {
            throw ResultsReader.ReadError(file: folder.path, line: 0, reason: "unreadable job record: \(error)")
        }
        var output = WorkloadOutput(
            rows: try ResultsReader.read(file: file(ResultsDirectory.FileName.rounds).path),
            samples: try SamplesReader.read(file: file(ResultsDirectory.FileName.samples).path))
        output.profiles = profiles
        output.profileErrors = try ProfileRow.read(file: file(ResultsDirectory.FileName.profile).path)
        // A memory job's heap profile (absent in other jobs, and in records made before it existed).
        let memoryProfile = file(ResultsDirectory.FileName.memoryProfile).path
        if FileManager.default.fileExists(atPath: memoryProfile) { output.memoryProfile = try MemoryProfileRow.read(file: memoryProfile) }
        return JobRecord(number: number, job: job, output: output)
    }
}
