import ArgumentParser
import Foundation
import ObsBenchKit
import ObservationStrategies

/// `obsbench list`: the suites with their workloads, the strategies with their capabilities, and
/// (as JSON) the metrics with their units and how the gate treats them.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List suites, their workloads, and strategies with their capabilities.",
        discussion:
            "--format json is for scripts (plot-scripts/, .ci/run): suites (name, whether it measures strategies, chart file, workloads), strategies (name, summary, dependency, capabilities) every metric (name, unit, gate treatment) and every exit status (name, status, meaning)."
    )

    /// How `list` prints.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(help: ArgumentHelp("text or json.", valueName: "format"))
    var format: Format = .text

    func run() throws {
        switch format {
        case .text: printText()
        case .json: print(try Catalog().json())
        }
    }

    private func printText() {
        print("Suites (--suite NAME; 'all' runs every one):")
        for suite in SuiteRegistry.all {
            var facts = suite.defaultObjects > 0 ? ["\(suite.defaultObjects) records per store"] : []
            if suite.objectSweep.count > 1 {
                let sizes = { (sweep: [Int]) in sweep.map(String.init).joined(separator: ", ") }
                facts.append("store sizes \(sizes(suite.objectSweep)) (--quick: \(sizes(suite.quickObjectSweep)))")
            }
            if suite.defaultRounds > 1 { facts.append("\(suite.defaultRounds) rounds") }
            if suite.runsOnJemalloc { facts.append("workers on jemalloc") }
            if !suite.measuresStrategies { facts.append("measures no strategy: one worker") }
            print("  \(suite.name) — \(suite.summary)" + (facts.isEmpty ? "" : "; " + facts.joined(separator: "; ")))
            for workload in suite.workloads {
                print("    \(workload.name): \(workload.summary)")
            }
        }
        print("")
        print("Strategies (--strategy NAME, repeatable):")
        let rows = Registered.strategies.map(\.descriptor.tableCells)
        print(TextTable(header: StrategyDescriptor.tableHeader, rows: rows, indent: "  ").text(), terminator: "")
        print("")
        for entry in Registered.strategies {
            print("  \(entry.name): \(entry.descriptor.summary)")
        }
    }

    /// What `list --format json` prints.
    struct Catalog: Encodable {
        struct SuiteEntry: Encodable {
            var name, summary: String
            var measuresStrategies: Bool
            /// The chart plot.py draws for the suite, relative to the run folder.
            var chart: String
            var workloads: [String]
            /// The workloads `--measure instructions` can count.
            var instructionWorkloads: [String]
            var defaultRounds: Int
            var runsOnJemalloc: Bool

            enum CodingKeys: String, CodingKey {
                case name, summary, measuresStrategies = "measures_strategies", chart, workloads
                case instructionWorkloads = "instruction_workloads", defaultRounds = "default_rounds", runsOnJemalloc = "runs_on_jemalloc"
            }
        }

        struct MetricEntry: Encodable {
            var name, unit, gate: String
            var reason: String?
        }

        var suites = SuiteRegistry.all.map { suite in
            SuiteEntry(
                name: suite.name, summary: suite.summary, measuresStrategies: suite.measuresStrategies, chart: suite.chartFile,
                workloads: suite.workloads.map(\.name), instructionWorkloads: suite.instructionWorkloads.map(\.name),
                defaultRounds: suite.defaultRounds, runsOnJemalloc: suite.runsOnJemalloc)
        }
        var strategies = Registered.strategies.map(\.descriptor)
        /// Every metric obsbench writes; a name not listed is judged as an exact count.
        var metrics = Metric.all.values.sorted { $0.name < $1.name }.map { metric in
            MetricEntry(name: metric.name, unit: metric.unit, gate: metric.gate.name, reason: metric.gate.reason)
        }

        struct ExitStatusEntry: Encodable {
            /// The case's name in `ExitStatus`, e.g. `onlyImprovements`.
            var name: String
            var status: Int32
            var meaning: String
        }

        /// Every exit status, so scripts name them rather than repeat numbers.
        var exitStatuses = ExitStatus.allCases.map { ExitStatusEntry(name: String(describing: $0), status: $0.rawValue, meaning: $0.meaning) }

        struct NoVerdictEntry: Encodable {
            /// The token the gate prints as `NO VERDICT (<reason>)`.
            var reason: String
            var meaning: String
        }

        /// Why `compare` and `gate` can end with exit 5, so scripts tell the reasons apart.
        var noVerdictReasons = NoVerdict.Reason.allCases.map { NoVerdictEntry(reason: $0.rawValue, meaning: $0.meaning) }

        enum CodingKeys: String, CodingKey {
            case suites, strategies, metrics, exitStatuses = "exit_statuses", noVerdictReasons = "no_verdict_reasons"
        }

        func json() throws -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            return String(decoding: try encoder.encode(self), as: UTF8.self)
        }
    }
}
