import Foundation

/// One run's results as the gate reads them: `results.csv` and, beside it, `samples.csv` if there.
public struct RunResults: Sendable {
    public var rows: [ResultRow]
    public var samples: [SampleRow]
    /// Where they were read from, for messages.
    public var source: String
    /// `run.json` beside `results.csv`, when there is one: how the run was made.
    public var metadata: RunMetadata?
    /// `rounds.csv` beside `results.csv`, when there is one: each worker process's own rows, by
    /// which a pooled row of `results.csv` without samples of its own (a count) is checked.
    public var roundRows: [ResultRow]?
    /// `profile.csv` beside `results.csv`, when the run counted instructions.
    public var profiles: ProfileSummary?
    /// The files the gate reads beside `results.csv` that were not there when the run was loaded
    /// (`samples.csv`, `run.json`): without them a comparison has no verdict
    /// (``NoVerdict/Reason/fileMissing``), never a judgement on a wider tolerance. Empty for a run
    /// made in memory. `rounds.csv` is not among them: the gate takes each round's (layout's)
    /// values from `samples.csv`, and checks `results.csv` against `rounds.csv` where it is there.
    public var absentFiles: [String] = []

    public init(rows: [ResultRow], samples: [SampleRow], source: String, metadata: RunMetadata? = nil) {
        self.rows = rows
        self.samples = samples
        self.source = source
        self.metadata = metadata
    }

    /// Reads a run folder (or a `latest` link to one) or a results CSV file. Errors name the file,
    /// the line and the reason.
    public static func load(_ path: String) throws -> RunResults {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ResultsReader.ReadError(file: path, line: 0, reason: "does not exist")
        }
        let folder = URL(fileURLWithPath: path)
        let resultsFile = isDirectory.boolValue ? folder.appendingPathComponent(ResultsDirectory.FileName.results) : folder
        let samplesFile = resultsFile.deletingLastPathComponent().appendingPathComponent(ResultsDirectory.FileName.samples)
        let numbered = try ResultsReader.readNumbered(file: resultsFile.path)
        guard !numbered.isEmpty else {
            throw ResultsReader.ReadError(file: resultsFile.path, line: 1, reason: "no result rows")
        }
        // Two rows for one metric (two runs' files joined, or a row pasted twice) would let one
        // silently replace the other in the comparison.
        var firstLine: [RowKey: Int] = [:]
        for (line, row) in numbered where !row.isError {
            let key = RowKey(row)
            if let earlier = firstLine[key] {
                throw ResultsReader.ReadError(file: resultsFile.path, line: line, reason: "duplicate row: \(key) is also on line \(earlier)")
            }
            firstLine[key] = line
        }
        let samples = FileManager.default.fileExists(atPath: samplesFile.path) ? try SamplesReader.read(file: samplesFile.path) : []
        // Each row's rounds' values, for the tables' comparisons (the process is the unit of replication).
        let rows = ResultRow.withRoundValues(numbered.map(\.row), samples: samples)
        let metadataFile = resultsFile.deletingLastPathComponent().appendingPathComponent(ResultsDirectory.FileName.metadata)
        var metadata: RunMetadata?
        if let data = try? Data(contentsOf: metadataFile) {
            do {
                metadata = try JSONDecoder().decode(RunMetadata.self, from: data)
            } catch {
                throw ResultsReader.ReadError(file: metadataFile.path, line: 0, reason: "unreadable run.json: \(error)")
            }
        }
        var run = RunResults(rows: rows, samples: samples, source: resultsFile.path, metadata: metadata)
        run.absentFiles = [samplesFile, metadataFile].filter { !FileManager.default.fileExists(atPath: $0.path) }.map(\.lastPathComponent)
        // A samples.csv of its header alone is no evidence for rows judged by their samples.
        if samples.isEmpty, !run.absentFiles.contains(samplesFile.lastPathComponent),
            rows.contains(where: { !$0.isError && $0.value != nil && [.timing, .instructions].contains($0.metric.gate) })
        {
            run.absentFiles.append("\(samplesFile.lastPathComponent) with samples (it holds none)")
        }
        let roundsFile = resultsFile.deletingLastPathComponent().appendingPathComponent(ResultsDirectory.FileName.rounds)
        if isDirectory.boolValue, FileManager.default.fileExists(atPath: roundsFile.path) {
            run.roundRows = try ResultsReader.read(file: roundsFile.path)
        }
        let profileFile = resultsFile.deletingLastPathComponent().appendingPathComponent(ResultsDirectory.profileFileName)
        if FileManager.default.fileExists(atPath: profileFile.path) {
            run.profiles = ProfileSummary(rows: try ProfileRow.read(file: profileFile.path))
        }
        return run
    }
}
