import ArgumentParser
import ObsBenchKit
import ObservationStrategies

/// A `--suite` value: one suite by name, or `all`.
enum SuiteChoice: ExpressibleByArgument, CustomStringConvertible {
    case all
    case one(Suite)

    init?(argument: String) {
        if argument == "all" {
            self = .all
        } else if let suite = SuiteRegistry.suite(named: argument) {
            self = .one(suite)
        } else {
            return nil
        }
    }

    static var allValueStrings: [String] { ["all"] + SuiteRegistry.names }

    var description: String {
        switch self {
        case .all: "all"
        case .one(let suite): suite.name
        }
    }

    var defaultValueDescription: String { description }
}

/// A `--strategy` value: a strategy this binary measures, by name.
extension StrategyEntry: ExpressibleByArgument {
    public init?(argument: String) {
        guard let entry = Registered.entry(named: argument) else { return nil }
        self = entry
    }

    public static var allValueStrings: [String] { Registered.names }
}

/// Suite and strategy choices shared by `run` and `worker`, and the checks of their sizes.
enum Selection {
    /// The suites chosen (`all`, or none, means every suite), each once, in registry order.
    static func suites(_ choices: [SuiteChoice]) -> [Suite] {
        var names: [String] = []
        for choice in choices {
            guard case .one(let suite) = choice else { return SuiteRegistry.all }
            names.append(suite.name)
        }
        return names.isEmpty ? SuiteRegistry.all : SuiteRegistry.all.filter { names.contains($0.name) }
    }

    /// The strategies chosen (none means every strategy), each once, in registry order so tables
    /// always list strategies the same way.
    static func strategies(_ chosen: [StrategyEntry]) -> [StrategyEntry] {
        if chosen.isEmpty { return Registered.strategies }
        return Registered.strategies.filter { entry in chosen.contains { $0.name == entry.name } }
    }

    /// Checks `--workload`: each name keeps a workload of one of `suites` (``Suite/keeping(workloads:)``).
    static func validateWorkloads(_ names: [String], in suites: [Suite]) throws {
        for name in names where !suites.contains(where: { !$0.keeping(workloads: [name]).workloads.isEmpty }) {
            let known = suites.map { "\($0.name): \($0.workloads.map(\.name).joined(separator: ", "))" }.joined(separator: "; ")
            throw ValidationError("no workload '\(name)' in \(suites.count == 1 ? "suite \(suites[0].name)" : "the suites chosen") (\(known))")
        }
    }

    /// Checks `--objects`: at least 1, at most a million (a store is built per workload).
    static func validateObjects(_ objects: Int?) throws {
        guard let objects else { return }
        guard (1...1_000_000).contains(objects) else {
            throw ValidationError("--objects must be between 1 and 1000000, got \(objects)")
        }
    }

    /// Checks `--subscribers`: 1 to 100,000 views (each is a real subscription, and GRDB re-fetches for each).
    static func validateSubscribers(_ subscribers: Int?) throws {
        guard let subscribers else { return }
        guard (1...100_000).contains(subscribers) else {
            throw ValidationError("--subscribers must be between 1 and 100000, got \(subscribers)")
        }
    }

    /// Checks `--rounds`: 1 to 20 worker rounds per strategy.
    static func validateRounds(_ rounds: Int?) throws {
        guard let rounds else { return }
        guard (1...20).contains(rounds) else {
            throw ValidationError("--rounds must be between 1 and 20, got \(rounds)")
        }
    }
}
