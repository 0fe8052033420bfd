import ArgumentParser
import ObsBenchKit
import ObservationStrategies

/// `obsbench list`: the suites with their workloads, and the strategies with their capabilities.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List suites, their workloads, and strategies with their capabilities."
    )

    func run() {
        print("Suites (obsbench --suite NAME; 'all' runs every one):")
        for suite in SuiteRegistry.all {
            var facts = suite.defaultObjects > 0 ? ["\(suite.defaultObjects) records per store"] : []
            if suite.objectSweep.count > 1 {
                let sizes = { (sweep: [Int]) in sweep.map(String.init).joined(separator: ", ") }
                facts.append("store sizes \(sizes(suite.objectSweep)) (--quick: \(sizes(suite.quickObjectSweep)))")
            }
            if suite.defaultRounds > 1 { facts.append("\(suite.defaultRounds) rounds") }
            if suite.runsOnJemalloc { facts.append("workers on jemalloc") }
            print("  \(suite.name) — \(suite.summary)" + (facts.isEmpty ? "" : "; " + facts.joined(separator: "; ")))
            for workload in suite.workloads {
                print("    \(workload.name): \(workload.summary)")
            }
        }
        print("")
        print("Strategies (obsbench --strategy NAME, repeatable):")
        let header = ["name", "granularity", "delivery", "transactional", "coalesces", "dedupes", "dependency"]
        let rows = StrategyRegistry.all.map { entry -> [String] in
            let c = entry.descriptor.capabilities
            return [entry.name, c.granularity.rawValue, c.delivery.rawValue, c.transactional ? "yes" : "no",
                    c.coalesces ? "yes" : "no", c.deduplicates ? "yes" : "no", entry.descriptor.dependency]
        }
        let widths = header.indices.map { index in ([header] + rows).map { $0[index].count }.max() ?? 0 }
        for row in [header] + rows {
            print("  " + row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  "))
        }
        print("")
        for entry in StrategyRegistry.all {
            print("  \(entry.name): \(entry.descriptor.summary)")
        }
    }
}
