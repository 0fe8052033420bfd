import Foundation
import Testing

@testable import ObsBenchKit

/// What `obsbench run … --measure instructions` wrote, run with the release binary in a scratch
/// folder and read before the folder is removed: for tests on counts made end to end.
struct CountedRun {
    var rows: [ResultRow]
    var samples: [SampleRow]
    var profiles: ProfileSummary

    /// Runs `obsbench run ARGUMENTS` and expects it to succeed.
    init(_ arguments: [String]) throws {
        let output = try SameMachineGateTests.scratch()
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(InstructionCountTests.releaseObsbench))
        process.arguments = ["run"] + arguments + ["--output", output.path, "--format", "csv"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "obsbench run \(arguments.joined(separator: " "))")
        let run = output.appendingPathComponent(ResultsDirectory.FileName.latest)
        rows = try ResultsReader.read(file: run.appendingPathComponent(ResultsDirectory.FileName.results).path)
        samples = try SamplesReader.read(file: run.appendingPathComponent(ResultsDirectory.FileName.samples).path)
        profiles = try ProfileSummary.load(run.path)
    }

    /// `workload`'s instructions row.
    func instructions(_ workload: String) throws -> ResultRow {
        try #require(rows.first { $0.workload == workload && $0.metric == .instructions })
    }

    /// `workload`'s instruction samples: each layout's repeats, or its one drawn value.
    func instructionSamples(_ workload: String) -> [SampleRow] {
        samples.filter { $0.workload == workload && $0.metric == .instructions }
    }
}
