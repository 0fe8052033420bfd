import Foundation
import ObservationStrategies
import Testing

extension StrategyEntry: CustomTestStringConvertible {
    public var testDescription: String { name }
}

/// One conformance suite, run against every registered strategy: the same semantics, proven for all.
@Suite("Conformance", .timeLimit(.minutes(1)))
@MainActor
struct ConformanceTests {
    static let records = TaskRecord.sample(count: 10)

    func makeStore(_ entry: StrategyEntry) throws -> any ObservationStrategy {
        try entry.makeStore(Self.records)
    }

    /// Settles, failing the test (instead of hanging the run) if `settle()` does not return within 10 s.
    func settle(_ store: any ObservationStrategy, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let returned = SettleFlag()
        Task { @MainActor in
            await store.settle()
            returned.value = true
        }
        for _ in 0..<1_000 where !returned.value {
            try await Task.sleep(for: .milliseconds(10))
        }
        try #require(returned.value, "settle() did not return within 10 s (\(type(of: store).descriptor.name))", sourceLocation: sourceLocation)
    }

    /// Settles, then gives any late delivery a chance to arrive, and checks none did:
    /// `settle()` must mean that nothing more is coming.
    func settleAndConfirmQuiet(_ store: any ObservationStrategy, _ views: [ViewHandle], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await settle(store, sourceLocation: sourceLocation)
        let counted = views.map(\.snapshot.reruns)
        for _ in 0..<20 { await Task.yield() }
        try await Task.sleep(for: .milliseconds(30))
        try await settle(store, sourceLocation: sourceLocation)
        #expect(views.map(\.snapshot.reruns) == counted, "a re-run arrived after settle() returned", sourceLocation: sourceLocation)
    }

    @Test("1. a view re-runs once when a field it read changes, and sees the new value", arguments: StrategyRegistry.all)
    func rerunOnReadFieldChange(entry: StrategyEntry) async throws {
        let store = try makeStore(entry)
        let spec = ViewSpec.record(3, .title)
        let view = try store.subscribe(spec)
        try await settle(store)
        #expect(view.snapshot.reruns == 0)
        #expect(view.lastSeen == [.title("Task 3")])

        let write = FieldWrite(3, .title("renamed"))
        try store.write(write.value, to: write.id)
        try await settleAndConfirmQuiet(store, [view])

        let expected = ExpectedReruns.afterWrite(write, view: spec, capabilities: entry.descriptor.capabilities)
        #expect(view.reruns == expected)
        #expect(view.lastSeen == (expected == 0 ? [.title("Task 3")] : [.title("renamed")]))
        if entry.descriptor.capabilities.granularity != .none { #expect(expected == 1) }
        await store.tearDown()
    }

    @Test("2. a write to an unread field of the same record re-runs only whole-object views, counted", arguments: StrategyRegistry.all)
    func unreadFieldOfSameRecord(entry: StrategyEntry) async throws {
        let store = try makeStore(entry)
        let spec = ViewSpec.record(3, .title)
        let view = try store.subscribe(spec)
        try await settle(store)

        let write = FieldWrite(3, .isComplete(!Self.records[2].isComplete))
        try store.write(write.value, to: write.id)
        try await settleAndConfirmQuiet(store, [view])

        let capabilities = entry.descriptor.capabilities
        let expected = ExpectedReruns.afterWrite(write, view: spec, capabilities: capabilities)
        #expect(view.reruns == expected)
        switch capabilities.granularity {
        case .object where !capabilities.deduplicates: #expect(expected == 1, "whole-object observation re-runs for unread fields")
        case .store where !capabilities.deduplicates: #expect(expected == 1)
        default: #expect(expected == 0)
        }
        #expect(view.lastSeen == [.title("Task 3")])
        await store.tearDown()
    }

    @Test("3. a write to another record re-runs no view, except store-granular ones", arguments: StrategyRegistry.all)
    func otherRecord(entry: StrategyEntry) async throws {
        let store = try makeStore(entry)
        let spec = ViewSpec.record(3, .title)
        let view = try store.subscribe(spec)
        try await settle(store)

        let write = FieldWrite(4, .title("other"))
        try store.write(write.value, to: write.id)
        try await settleAndConfirmQuiet(store, [view])

        #expect(view.reruns == ExpectedReruns.afterWrite(write, view: spec, capabilities: entry.descriptor.capabilities))
        #expect(view.lastSeen == [.title("Task 3")])
        await store.tearDown()
    }

    @Test("4. K writes then settle: nothing lost, re-runs as the declared coalescing allows", arguments: StrategyRegistry.all)
    func manyWrites(entry: StrategyEntry) async throws {
        let store = try makeStore(entry)
        let view = try store.subscribe(.record(3, .priority))
        try await settle(store)

        let writes = 10
        for value in 1...writes { try store.write(.priority(100 + value), to: 3) }
        try await settleAndConfirmQuiet(store, [view])

        let capabilities = entry.descriptor.capabilities
        if capabilities.granularity == .none {
            #expect(view.reruns == 0)
        } else {
            #expect(view.lastSeen == [.priority(100 + writes)], "the final value must reach the view")
            if capabilities.coalesces {
                #expect((1...writes).contains(view.reruns))
            } else {
                #expect(view.reruns == writes)
            }
        }
        #expect(try store.read(.priority, of: 3) == .priority(100 + writes))
        await store.tearDown()
    }

    @Test("5. a two-field transaction is never seen half-applied where the strategy is transactional", arguments: StrategyRegistry.all)
    func transactionSeenWhole(entry: StrategyEntry) async throws {
        let store = try makeStore(entry)
        let view = try store.subscribe(.record(3, .title, .priority))
        try await settle(store)
        let before: [FieldValue] = [.title("Task 3"), .priority(Self.records[2].priority)]
        let after: [FieldValue] = [.title("moved"), .priority(99)]
        #expect(view.lastSeen == before)

        try store.transaction([FieldWrite(3, .title("moved")), FieldWrite(3, .priority(99))])
        try await settleAndConfirmQuiet(store, [view])

        let capabilities = entry.descriptor.capabilities
        #expect(try store.read(.title, of: 3) == .title("moved"))
        #expect(try store.read(.priority, of: 3) == .priority(99))
        if capabilities.granularity == .none {
            #expect(view.reruns == 0)
        } else {
            #expect(view.lastSeen == after)
        }
        if capabilities.transactional {
            #expect(view.reruns == 1, "a transaction is one change")
        }
        await store.tearDown()
    }

    @Test("5b. views of a transactional strategy never observe a half-applied transaction", arguments: StrategyRegistry.all.filter { $0.descriptor.capabilities.transactional })
    func transactionHistoryHasNoMixedState(entry: StrategyEntry) async throws {
        let store = try makeStore(entry)
        var spec = ViewSpec.record(3, .title, .priority)
        spec.recordsHistory = true
        let view = try store.subscribe(spec)
        try await settle(store)
        for round in 1...20 {
            try store.transaction([FieldWrite(3, .title("round \(round)")), FieldWrite(3, .priority(round))])
            if round % 5 == 0 { try await settle(store) }
        }
        try await settle(store)
        let history = view.snapshot.history
        let initial: [FieldValue] = [.title("Task 3"), .priority(Self.records[2].priority)]
        #expect(history.count >= 2)
        for seen in history where seen != initial {
            guard case .title(let title) = seen[0], case .priority(let priority) = seen[1] else {
                Issue.record("unexpected values \(seen)")
                continue
            }
            #expect(title == "round \(priority)", "torn: title \(title) with priority \(priority)")
        }
        #expect(view.lastSeen == [.title("round 20"), .priority(20)])
        await store.tearDown()
    }

    @Test("5c. a commit from a background task lands whole, runs its hook once, and re-runs the view once", arguments: StrategyRegistry.all)
    func commitFromBackground(entry: StrategyEntry) async throws {
        let store = try makeStore(entry)
        let view = try store.subscribe(.record(4, .title, .priority))
        try await settle(store)
        let hooks = Locked(0)
        let writes = [FieldWrite(4, .title("from the background")), FieldWrite(4, .priority(77))]
        try await Task.detached { try await store.commitFromBackground(writes) { hooks.withLock { $0 += 1 } } }.value
        try await settle(store)
        #expect(hooks.withLock { $0 } == 1)
        #expect(try store.read(.title, of: 4) == .title("from the background") && store.read(.priority, of: 4) == .priority(77))
        #expect(view.reruns == (entry.descriptor.capabilities.granularity == .none ? 0 : 1), "one commit, one re-run")
        await #expect(throws: StrategyError.self) { try await store.commitFromBackground([FieldWrite(99, .priority(1))]) {} }
        await store.tearDown()
    }

    @Test("5d. readEach hands every record's value in id order, untracked", arguments: StrategyRegistry.all)
    func readEach(entry: StrategyEntry) async throws {
        let store = try makeStore(entry)
        let view = try store.subscribe(.record(2, .priority))
        try await settle(store)
        var seen: [FieldValue] = []
        try store.readEach(.priority, of: 3...7) { seen.append($0) }
        #expect(seen == Self.records[2...6].map { .priority($0.priority) })
        #expect(throws: StrategyError.self) { try store.readEach(.priority, of: 1...11) { _ in } }
        try await settle(store)
        #expect(view.reruns == 0)
        await store.tearDown()
    }

    @Test("6. unsubscribe stops re-runs; teardown frees the store and its views", arguments: StrategyRegistry.all)
    func unsubscribeAndTeardown(entry: StrategyEntry) async throws {
        weak var weakView: ViewHandle?
        var weakObjects: [WeakObject] = []
        do {
            let store = try makeStore(entry)
            let kept = try store.subscribe(.record(5, .title))
            let dropped = try store.subscribe(.record(5, .title))
            try await settle(store)
            store.unsubscribe(dropped)
            store.unsubscribe(dropped)
            try store.write(.title("after unsubscribe"), to: 5)
            try await settle(store)
            #expect(dropped.reruns == 0, "an unsubscribed view re-ran")
            let keptExpected = entry.descriptor.capabilities.granularity == .none ? 0 : 1
            #expect(kept.reruns == keptExpected)

            weakView = kept
            weakObjects = store.objectsThatMustBeFreed().map(WeakObject.init)
            #expect(!weakObjects.isEmpty)
            await store.tearDown()
        }
        for _ in 0..<10 { await Task.yield() }
        try await Task.sleep(for: .milliseconds(20))
        #expect(weakView == nil, "the view outlived its store")
        #expect(weakObjects.allSatisfy { $0.object == nil }, "teardown leaked \(weakObjects.filter { $0.object != nil }.count) objects")
    }

    @Test("7. unknown record ids throw a clear error, never crash or default", arguments: StrategyRegistry.all)
    func badInput(entry: StrategyEntry) async throws {
        let store = try makeStore(entry)
        let unknown = StrategyError.unknownRecord(id: 11, validRange: 1...10)
        #expect(throws: unknown) { try store.read(.title, of: 11) }
        #expect(throws: StrategyError.unknownRecord(id: 0, validRange: 1...10)) { try store.read(.title, of: 0) }
        #expect(throws: StrategyError.unknownRecord(id: -1, validRange: 1...10)) { try store.write(.priority(1), to: -1) }
        #expect(throws: unknown) { try store.readInsideView(.title, of: 11, times: 3) }
        #expect(throws: unknown) { try store.subscribe(.record(11, .title)) }
        #expect(throws: StrategyError.emptyView) { try store.subscribe(ViewSpec(reads: [])) }
        // A transaction with one bad write applies nothing.
        #expect(throws: unknown) { try store.transaction([FieldWrite(2, .title("half")), FieldWrite(11, .title("bad"))]) }
        #expect(try store.read(.title, of: 2) == .title("Task 2"))
        #expect("\(unknown)".contains("no record with id 11"))
        await store.tearDown()
    }

    @Test("every strategy is registered once, with a unique name", arguments: [StrategyRegistry.names])
    func registry(names: [String]) {
        #expect(Set(names).count == names.count)
        #expect(names == ["plain", "observable", "observations", "observable-context", "published", "deduplicated-object", "state-subject", "struct-vm", "grdb-queue", "grdb-pool"])
    }
}

/// Set on the main actor when `settle()` returns.
@MainActor
final class SettleFlag {
    var value = false
}

/// A weak reference, to prove an object was freed.
struct WeakObject {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}
