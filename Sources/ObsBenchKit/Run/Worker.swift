import Foundation
import ObservationStrategies

/// What a worker process does: run every workload of one suite against one strategy (none, for a
/// suite that measures no strategy), in this process, and write the rows and raw samples to the
/// files the parent named.
///
/// A workload that throws becomes an error row and the next workload still runs.
@MainActor
public enum Worker {
    public static func run(
        suite: Suite, strategy: StrategyEntry?, sampler: SamplerSettings, round: Int = 1, quick: Bool, objects: Int?, subscribers: Int? = nil,
        measure: CostMeasure = .time, instructionSettings: InstructionSettings = .standard(),
        runID: String, rowsFile: String, samplesFile: String
    ) async throws {
        let context = WorkloadContext(
            runID: runID, suite: suite.name, strategy: strategy, sampler: sampler, objects: objects ?? suite.defaultObjects,
            objectSweep: objects.map { [$0] } ?? (quick ? suite.quickObjectSweep : suite.objectSweep), quick: quick, subscribers: subscribers,
            measure: measure, instructionSettings: instructionSettings)
        // Resolved once, before anything is measured (a lazy lookup allocates on first use).
        _ = ThreadSanitizerHooks.isActive
        if measure == .instructions { Callgrind.countMainThreadAloneIfAsked() }
        var output = WorkloadOutput()
        if !ProcessCounters.isMainThread {
            output.rows.append(
                ResultRow.error(
                    runID: runID, suite: suite.name, strategy: context.strategyName,
                    message: "the worker's main-actor code is not running on the main thread: its numbers would not be an app's"))
        }
        for workload in suite.workloads(measuring: measure) {
            do {
                var measured = try await workload.run(context)
                for index in measured.samples.indices { measured.samples[index].round = round }
                output.append(measured)
            } catch {
                var row = ResultRow.error(runID: runID, suite: suite.name, strategy: context.strategyName, message: "\(workload.name) failed: \(error)")
                row.workload = workload.name
                output.rows.append(row)
            }
        }
        if measure == .instructions, let folder = ProcessInfo.processInfo.environment[Callgrind.directoryVariable] {
            try ProfileManifest(rows: output.rows).write(toDumpFolder: folder)
        }
        if let folder = ProcessInfo.processInfo.environment[HeapProfiles.folderVariable], !folder.isEmpty {
            try JSONEncoder().encode(output.heapSpans).write(to: URL(fileURLWithPath: folder).appendingPathComponent(HeapSpan.manifestFileName))
        }
        try Data((CSV.line(ResultRow.columns) + output.rows.map { CSV.line($0.fields) }.joined()).utf8)
            .write(to: URL(fileURLWithPath: rowsFile), options: .atomic)
        try Data((CSV.line(SampleRow.columns) + output.samples.map { CSV.line($0.fields) }.joined()).utf8)
            .write(to: URL(fileURLWithPath: samplesFile), options: .atomic)
    }
}
