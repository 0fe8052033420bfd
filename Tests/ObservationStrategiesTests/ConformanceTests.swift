import BuiltInStrategies
import ObsBenchConformance
import ObservationStrategies
import Testing

/// The conformance kit (`ObsBenchConformance`), run against every built-in strategy: the same
/// semantics, proven for all, as a store of one's own is proven with the same cases.
// A hang fails a case; 3 minutes, as a case waits for the main actor behind every main-actor
// suite (on a loaded machine, load average 8, those ended near 660 s and cases timed out at 1).
@Suite("Conformance", .timeLimit(.minutes(3)))
@MainActor
struct ConformanceTests {
    @Test("rule × strategy", arguments: StrategyRegistry.all, ConformanceCase.all)
    func conforms(entry: StrategyEntry, rule: ConformanceCase) async throws {
        try await rule.check(entry)
    }

    @Test("the kit has every rule once, 5b, 5e and 5f for transactional strategies only, 1b for synchronous observing ones only, 9 for observing ones")
    func kit() {
        let names = ConformanceCase.all.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.count == 15)
        let transactionalOnly = ConformanceCase.all.filter {
            !$0.appliesTo(Capabilities(granularity: .property, deduplicates: false, delivery: .synchronous, transactional: false, coalesces: false))
        }
        #expect(transactionalOnly.map { $0.name.prefix(3) } == ["5b.", "5e.", "5f."])
        let synchronousOnly = ConformanceCase.all.filter {
            !$0.appliesTo(Capabilities(granularity: .property, deduplicates: false, delivery: .asynchronous, transactional: true, coalesces: false))
        }
        #expect(synchronousOnly.map { $0.name.prefix(3) } == ["1b."])
        let observingOnly = ConformanceCase.all.filter {
            !$0.appliesTo(Capabilities(granularity: .none, deduplicates: false, delivery: .synchronous, transactional: true, coalesces: false))
        }
        #expect(observingOnly.map { $0.name.prefix(3) } == ["1b.", "9. "])
    }

    @Test("every strategy is registered once, with a unique name", arguments: [StrategyRegistry.names])
    func registry(names: [String]) {
        #expect(Set(names).count == names.count)
        #expect(
            names == [
                "plain", "observable", "observations", "observable-context", "published", "published-context", "deduplicated-object", "state-subject", "struct-vm", "grdb-queue",
                "grdb-pool",
            ])
    }
}
