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

    @Test("a store that claims transactions and re-runs views after each write of one fails rule 5e")
    func halfTransactionStoreFails() async throws {
        let rule = try #require(ConformanceCase.all.first { $0.name.hasPrefix("5e.") })
        await withKnownIssue("HalfTransactionStore writes a transaction write by write, each shown to the views, claiming transactions") {
            try await rule.check(StrategyEntry(HalfTransactionStore.self))
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

/// `published` writing a transaction write by write, each shown to the views, under a description
/// that claims transactions.
@MainActor
final class HalfTransactionStore: ObservationStrategy {
    nonisolated static let descriptor = StrategyDescriptor(
        name: "half-transaction", summary: "published, claiming transactions", dependency: "OpenCombine",
        capabilities: Capabilities(granularity: .object, deduplicates: false, delivery: .synchronous, transactional: true, coalesces: false))

    private let published: PublishedStrategy

    init(records: [TaskRecord]) throws { published = try PublishedStrategy(records: records) }
    func read(_ field: TaskField, of id: Int) throws -> FieldValue { try published.read(field, of: id) }
    func readInsideView(_ field: TaskField, of id: Int, times: Int) throws -> FieldValue { try published.readInsideView(field, of: id, times: times) }
    func write(_ value: FieldValue, to id: Int) throws { try published.write(value, to: id) }
    /// Write by write, each shown to the views before the next is applied.
    func transaction(_ writes: [FieldWrite]) throws {
        for write in writes { try published.write(write.value, to: write.id) }
    }
    func subscribe(_ spec: ViewSpec) throws -> ViewHandle { try published.subscribe(spec) }
    func unsubscribe(_ view: ViewHandle) { published.unsubscribe(view) }
    func settle() async { await published.settle() }
    func tearDown() async { await published.tearDown() }
    func objectsThatMustBeFreed() -> [AnyObject] { published.objectsThatMustBeFreed() }
}
