import ObsBenchConformance
import ObservationStrategies
import Testing

/// The kit fails a store that breaks a rule: a store that says it notifies per property but never
/// re-runs a view (plain's behaviour under observable's capabilities).
@Suite("Conformance kit catches broken stores")
@MainActor
struct ConformanceKitTests {
    @Test("a store that never re-runs its views fails rule 1")
    func silentStoreFails() async throws {
        let rule = try #require(ConformanceCase.all.first { $0.name.hasPrefix("1.") })
        await withKnownIssue("SilentStore declares property granularity and never re-runs a view") {
            try await rule.check(StrategyEntry(SilentStore.self))
        }
    }

    @Test("the same store passes rule 7 (bad input), which it keeps")
    func silentStoreKeepsOtherRules() async throws {
        let rule = try #require(ConformanceCase.all.first { $0.name.hasPrefix("7.") })
        try await rule.check(StrategyEntry(SilentStore.self))
    }
}

/// `plain` under a false description: it claims property-level observation.
@MainActor
final class SilentStore: ObservationStrategy {
    nonisolated static let descriptor = StrategyDescriptor(
        name: "silent", summary: "plain, claiming to observe", dependency: "none",
        capabilities: Capabilities(granularity: .property, deduplicates: false, delivery: .synchronous, transactional: false, coalesces: false))

    private let plain: PlainStrategy

    init(records: [TaskRecord]) throws { plain = try PlainStrategy(records: records) }
    func read(_ field: TaskField, of id: Int) throws -> FieldValue { try plain.read(field, of: id) }
    func readInsideView(_ field: TaskField, of id: Int, times: Int) throws -> FieldValue { try plain.readInsideView(field, of: id, times: times) }
    func write(_ value: FieldValue, to id: Int) throws { try plain.write(value, to: id) }
    func transaction(_ writes: [FieldWrite]) throws { try plain.transaction(writes) }
    func subscribe(_ spec: ViewSpec) throws -> ViewHandle { try plain.subscribe(spec) }
    func unsubscribe(_ view: ViewHandle) { plain.unsubscribe(view) }
    func settle() async { await plain.settle() }
    func tearDown() async { await plain.tearDown() }
    func objectsThatMustBeFreed() -> [AnyObject] { plain.objectsThatMustBeFreed() }
}
