import ArgumentParser
import ObsBenchKit
import ObservationStrategies

/// Suite and strategy choices shared by `run` and `worker`, validated against the registries.
enum Selection {
    /// Resolves suite names (`all` means every suite); throws a usage error listing valid names.
    static func suites(_ names: [String]) throws -> [Suite] {
        if names.isEmpty || names.contains("all") { return SuiteRegistry.all }
        return try unique(names).map { name in
            guard let suite = SuiteRegistry.suite(named: name) else {
                throw ValidationError("unknown suite '\(name)'. Valid suites: all, \(SuiteRegistry.names.joined(separator: ", "))")
            }
            return suite
        }
    }

    /// Resolves strategy names (none means every strategy); throws a usage error listing valid names.
    static func strategies(_ names: [String]) throws -> [StrategyEntry] {
        if names.isEmpty { return Registered.strategies }
        let chosen = try unique(names).map { name in
            guard let entry = Registered.entry(named: name) else {
                throw ValidationError("unknown strategy '\(name)'. Valid strategies: \(Registered.names.joined(separator: ", "))")
            }
            return entry
        }
        // Registry order, so tables always list strategies the same way.
        return Registered.strategies.filter { entry in chosen.contains { $0.name == entry.name } }
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

    private static func unique(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }
}
