import Foundation

/// A run's folder, `<output>/<run-id>/`: `results.csv` (the pooled rows), `rounds.csv` (every
/// worker's own rows), `samples.csv` (raw samples) and `run.json`; an instruction run adds
/// `profile.csv` (per-function Ir/op) and `profiles/` (the same in Callgrind's format), the memory
/// suite `memprofile.csv` (each memory row's bytes by allocation site), and a
/// shard of a run (`--shard K/N`) `jobs/`, each worker's whole output for `obsbench merge`.
///
/// Rows are appended whole, one `write` per worker's batch, as each worker finishes, so an
/// interrupted or crashed run keeps everything measured before it. `run.json` is written to a
/// temporary file and renamed, so a reader never sees half of it. `<output>/latest` points to the
/// newest run.
public final class ResultsDirectory {
    public let root: URL
    public let runDirectory: URL
    public var resultsFile: URL { runDirectory.appendingPathComponent(FileName.results) }
    public var samplesFile: URL { runDirectory.appendingPathComponent(FileName.samples) }
    public var roundsFile: URL { runDirectory.appendingPathComponent(FileName.rounds) }
    public var metadataFile: URL { runDirectory.appendingPathComponent(FileName.metadata) }
    /// Per-function Ir/op of every counted row (`--measure instructions` runs only).
    public var profileFile: URL { runDirectory.appendingPathComponent(Self.profileFileName) }
    /// Each counted row's profile in Callgrind's format, per 1,000 operations, for call graphs.
    public var profilesFolder: URL { runDirectory.appendingPathComponent(Self.profilesFolderName, isDirectory: true) }
    /// A shard's record of each job's whole output, for `obsbench merge` (``JobRecord``).
    public var jobsFolder: URL { runDirectory.appendingPathComponent(FileName.jobs, isDirectory: true) }
    /// Each memory row's bytes and allocations by allocation site (``MemoryProfileRow``).
    public var memoryProfileFile: URL { runDirectory.appendingPathComponent(FileName.memoryProfile) }
    public static let profileFileName = FileName.profile
    public static let profilesFolderName = FileName.profiles

    /// The name of every file and folder a run folder holds, and of the link to the newest run:
    /// named here once, for the run, the gate, the report and the exports.
    public enum FileName {
        public static let results = "results.csv"
        public static let samples = "samples.csv"
        public static let rounds = "rounds.csv"
        public static let metadata = "run.json"
        public static let profile = "profile.csv"
        public static let profiles = "profiles"
        public static let memoryProfile = "memprofile.csv"
        public static let plots = "plots"
        /// A shard's job records (`--shard K/N`).
        public static let jobs = "jobs"
        public static let reportMarkdown = "report.md"
        public static let reportHTML = "report.html"
        /// `<output>/latest`, the link to the newest run.
        public static let latest = "latest"
    }

    public struct SetupError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Creates `<output>/<runID>/` with the CSV headers, and checks it is writable, before any measuring.
    public init(output: String, runID: String) throws {
        root = URL(fileURLWithPath: output, isDirectory: true)
        runDirectory = root.appendingPathComponent(runID, isDirectory: true)
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        if files.fileExists(atPath: root.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw SetupError(description: "--output \(output) is a file, not a folder")
        }
        do {
            try files.createDirectory(at: runDirectory, withIntermediateDirectories: true)
            try Data(CSV.line(ResultRow.columns).utf8).write(to: resultsFile, options: .withoutOverwriting)
            try Data(CSV.line(SampleRow.columns).utf8).write(to: samplesFile, options: .withoutOverwriting)
            try Data(CSV.line(ResultRow.columns).utf8).write(to: roundsFile, options: .withoutOverwriting)
        } catch {
            throw SetupError(description: "cannot write results under \(runDirectory.path): \(error.localizedDescription)")
        }
    }

    /// Appends one worker's own rows to `rounds.csv` and its samples to `samples.csv`, each in one write.
    public func append(rounds rows: [ResultRow], samples: [SampleRow]) throws {
        try append(rows.map { CSV.line($0.fields) }.joined(), to: roundsFile)
        if !samples.isEmpty { try append(samples.map { CSV.line($0.fields) }.joined(), to: samplesFile) }
    }

    /// Appends a worker's profiles to `profile.csv` (made with its header on first use) and writes
    /// each one's Callgrind file into `profiles/`.
    public func append(profiles: [OperationProfile], errors: [ProfileRow]) throws {
        let rows = profiles.flatMap(\.rows) + errors
        guard !rows.isEmpty else { return }
        if !FileManager.default.fileExists(atPath: profileFile.path) {
            try Data(CSV.line(ProfileRow.columns).utf8).write(to: profileFile, options: .withoutOverwriting)
        }
        try append(rows.map { CSV.line($0.fields) }.joined(), to: profileFile)
        guard !profiles.isEmpty else { return }
        try FileManager.default.createDirectory(at: profilesFolder, withIntermediateDirectories: true)
        for profile in profiles {
            try Data(profile.callgrindText().utf8).write(to: profilesFolder.appendingPathComponent(profile.fileName))
        }
    }

    /// Appends a memory worker's allocation sites to `memprofile.csv` (made with its header on
    /// first use).
    public func append(memoryProfile rows: [MemoryProfileRow]) throws {
        guard !rows.isEmpty else { return }
        if !FileManager.default.fileExists(atPath: memoryProfileFile.path) {
            try Data(CSV.line(MemoryProfileRow.columns).utf8).write(to: memoryProfileFile, options: .withoutOverwriting)
        }
        try append(rows.map { CSV.line($0.fields) }.joined(), to: memoryProfileFile)
    }

    /// Appends pooled rows to `results.csv` in one write.
    public func append(results rows: [ResultRow]) throws {
        try append(rows.map { CSV.line($0.fields) }.joined(), to: resultsFile)
    }

    private func append(_ text: String, to file: URL) throws {
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
    }

    /// Writes `run.json` atomically (temporary file, then rename).
    public func writeMetadata(_ metadata: RunMetadata) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(metadata).write(to: metadataFile, options: .atomic)
    }

    /// Points `<output>/latest` at this run (a relative symbolic link, replaced atomically).
    public func markLatest() throws {
        let files = FileManager.default
        let latest = root.appendingPathComponent(FileName.latest)
        let temporary = root.appendingPathComponent(".latest-\(ProcessInfo.processInfo.processIdentifier)")
        try? files.removeItem(at: temporary)
        try files.createSymbolicLink(atPath: temporary.path, withDestinationPath: runDirectory.lastPathComponent)
        guard rename(temporary.path, latest.path) == 0 else {
            try? files.removeItem(at: temporary)
            throw SetupError(description: "cannot update \(latest.path)")
        }
    }
}
