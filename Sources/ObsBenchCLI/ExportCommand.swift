import ArgumentParser
import Foundation
import ObsBenchKit

extension TrackerExport.Format: ExpressibleByArgument {}

/// `obsbench export RUN --format F`: a run's results as a CI benchmark tracker reads them.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a run's results for a CI benchmark tracker: github-action-benchmark or Bencher (BMF).",
        discussion: """
            github-action-benchmark: the `customSmallerIsBetter` JSON array (name, unit, value, range, extra), \
            for benchmark-action/github-action-benchmark with `tool: customSmallerIsBetter`. \
            bmf: Bencher Metric Format, for `bencher run --adapter json`; each row's benchmark is its \
            suite/workload/strategy and sizes, its measure the metric. \
            Exported: every row of a metric the gate can judge (timings as medians with their 95% interval, exact counts, \
            instruction counts); informational rows and error rows are left out, and the count is said on stderr. \
            Exit status: \(ExitStatus.helpText([.success, .failure, .usage])).
            """
    )

    @Argument(help: ArgumentHelp("The run folder (or a `latest` link) or its results.csv.", valueName: "run"))
    var runFolder = "results/latest"

    @Option(help: ArgumentHelp("github-action-benchmark or bmf.", valueName: "format"))
    var format: TrackerExport.Format

    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?

    func run() throws {
        let export: TrackerExport
        do {
            let run = try RunResults.load(runFolder)
            if let problem = run.metadata?.partialRunProblem {
                Console.error("cannot export \(runFolder): \(problem)")
                throw ExitStatus.failure.exitCode
            }
            export = TrackerExport(rows: run.rows)
        } catch let status as ExitCode {
            throw status
        } catch {
            Console.error("cannot export \(runFolder): \(error)")
            throw ExitStatus.failure.exitCode
        }
        let data = try export.data(format)
        if let output {
            do {
                try data.write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                Console.error("cannot write \(output): \(error.localizedDescription)")
                throw ExitStatus.failure.exitCode
            }
        } else {
            FileHandle.standardOutput.write(data + Data("\n".utf8))
        }
        Console.error("exported \(export.rows.count) rows as \(format.rawValue)\(output.map { " to \($0)" } ?? ""); left out \(export.skipped) informational or error rows")
    }
}
