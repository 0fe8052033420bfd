import Foundation
import ObservationStrategies
import Testing

/// One semantic rule every strategy keeps, checked with Swift Testing's `#expect` against a real
/// store of the strategy: who is notified, how often, with which values, what a transaction shows,
/// what teardown frees. The expected re-runs come from the strategy's declared `Capabilities`
/// (`ExpectedReruns`), so a store is held to what it says it is.
///
/// obsbench's own tests run every case against every built-in strategy. A store of your own is
/// proven the same way, from any test target that depends on the `ObsBenchConformance` product:
///
/// ```swift
/// import ObsBenchConformance
/// import ObservationStrategies
/// import Testing
///
/// @Test(arguments: ConformanceCase.all)
/// func myStoreConforms(_ rule: ConformanceCase) async throws {
///     try await rule.check(StrategyEntry(MyStore.self))
/// }
/// ```
///
/// Each case fails its test, naming the strategy, rather than hanging when `settle()` never returns
/// (10 s). Cases that do not apply to the strategy's capabilities pass without checking anything
/// (1b needs synchronous delivery and some observation; 5b and 5e need a transactional strategy).
/// A broken rule's key expectations carry its `ConformanceFailure`, which says what to change.
public struct ConformanceCase: Sendable, CustomTestStringConvertible {
    /// The rule, numbered as docs/method.md's list of rules (under "The strategies") numbers it.
    public let name: String
    /// Whether the rule applies to a strategy with these capabilities.
    public let appliesTo: @Sendable (Capabilities) -> Bool
    private let body: @MainActor @Sendable (StrategyEntry) async throws -> Void

    init(_ name: String, appliesTo: @escaping @Sendable (Capabilities) -> Bool, _ body: @escaping @MainActor @Sendable (StrategyEntry) async throws -> Void) {
        self.name = name
        self.appliesTo = appliesTo
        self.body = body
    }

    public var testDescription: String { name }

    /// Checks this rule against a fresh store of `entry` built from `ConformanceCase.records`.
    @MainActor
    public func check(_ entry: StrategyEntry) async throws {
        guard appliesTo(entry.descriptor.capabilities) else { return }
        try await body(entry)
    }

    /// The records every case's store holds: ids 1...10.
    public static let records = TaskRecord.sample(count: 10)

    /// Every rule, in order.
    public static let all: [ConformanceCase] = [
        ConformanceCase("1. a view re-runs once when a field it read changes, and sees the new value", appliesTo: { _ in true }) { entry in
            let store = try entry.makeStore(records)
            let spec = ViewSpec.record(3, .title)
            let view = try store.subscribe(spec)
            try await Settling.settle(store)
            #expect(view.snapshot.reruns == 0)
            #expect(view.lastSeen == [.title("Task 3")])

            let write = FieldWrite(3, .title("renamed"))
            try store.write(write.value, to: write.id)
            try await Settling.settleAndConfirmQuiet(store, [view])

            let expected = ExpectedReruns.afterWrite(write, view: spec, capabilities: entry.descriptor.capabilities)
            #expect(view.reruns == expected, ConformanceFailure.wrongReruns.comment("expected \(expected) re-runs"))
            #expect(view.lastSeen == (expected == 0 ? [.title("Task 3")] : [.title("renamed")]), ConformanceFailure.wrongReruns.comment("the view shows what it last read"))
            if entry.descriptor.capabilities.granularity != .none { #expect(expected == 1) }
            await store.tearDown()
        },
        ConformanceCase(
            "1b. a store declared synchronous has re-run its views when write and transaction return",
            appliesTo: { $0.delivery == .synchronous && $0.granularity != .none }
        ) { entry in
            let store = try entry.makeStore(records)
            let view = try store.subscribe(.record(3, .title, .priority))
            try await Settling.settle(store)
            let failure = ConformanceFailure.deliveredAfterReturn

            // Each snapshot is taken before any suspension: nothing a store delivers later (on a
            // task, a queue, the run loop) can have run by then.
            try store.write(.title("written"), to: 3)
            let afterWrite = view.snapshot
            #expect(afterWrite.reruns >= 1, failure.comment("no re-run when write returned"))
            #expect(afterWrite.lastSeen == [.title("written"), .priority(records[2].priority)], failure.comment("the view showed \(afterWrite.lastSeen) when write returned"))

            try store.transaction([FieldWrite(3, .title("moved")), FieldWrite(3, .priority(99))])
            let afterTransaction = view.snapshot
            #expect(afterTransaction.reruns > afterWrite.reruns, failure.comment("no re-run when transaction returned"))
            #expect(afterTransaction.lastSeen == [.title("moved"), .priority(99)], failure.comment("the view showed \(afterTransaction.lastSeen) when transaction returned"))

            try await Settling.settleAndConfirmQuiet(store, [view])
            await store.tearDown()
        },
        ConformanceCase("2. a write to an unread field of the same record re-runs only whole-object views, counted", appliesTo: { _ in true }) { entry in
            let store = try entry.makeStore(records)
            let spec = ViewSpec.record(3, .title)
            let view = try store.subscribe(spec)
            try await Settling.settle(store)

            let write = FieldWrite(3, .isComplete(!records[2].isComplete))
            try store.write(write.value, to: write.id)
            try await Settling.settleAndConfirmQuiet(store, [view])

            let capabilities = entry.descriptor.capabilities
            let expected = ExpectedReruns.afterWrite(write, view: spec, capabilities: capabilities)
            #expect(view.reruns == expected, ConformanceFailure.wrongReruns.comment("expected \(expected) re-runs"))
            switch capabilities.granularity {
            case .object where !capabilities.deduplicates: #expect(expected == 1, "whole-object observation re-runs for unread fields")
            case .store where !capabilities.deduplicates: #expect(expected == 1)
            default: #expect(expected == 0)
            }
            #expect(view.lastSeen == [.title("Task 3")])
            await store.tearDown()
        },
        ConformanceCase("3. a write to another record re-runs no view, except store-granular ones", appliesTo: { _ in true }) { entry in
            let store = try entry.makeStore(records)
            let spec = ViewSpec.record(3, .title)
            let view = try store.subscribe(spec)
            try await Settling.settle(store)

            let write = FieldWrite(4, .title("other"))
            try store.write(write.value, to: write.id)
            try await Settling.settleAndConfirmQuiet(store, [view])

            let expected = ExpectedReruns.afterWrite(write, view: spec, capabilities: entry.descriptor.capabilities)
            #expect(view.reruns == expected, ConformanceFailure.wrongReruns.comment("expected \(expected) re-runs"))
            #expect(view.lastSeen == [.title("Task 3")])
            await store.tearDown()
        },
        ConformanceCase("4. K writes then settle: nothing lost, re-runs as the declared coalescing allows", appliesTo: { _ in true }) { entry in
            let store = try entry.makeStore(records)
            let view = try store.subscribe(.record(3, .priority))
            try await Settling.settle(store)

            let writes = 10
            for value in 1...writes { try store.write(.priority(100 + value), to: 3) }
            try await Settling.settleAndConfirmQuiet(store, [view])

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
        },
        ConformanceCase("5. a two-field transaction is never seen half-applied where the strategy is transactional", appliesTo: { _ in true }) { entry in
            let store = try entry.makeStore(records)
            let view = try store.subscribe(.record(3, .title, .priority))
            try await Settling.settle(store)
            let before: [FieldValue] = [.title("Task 3"), .priority(records[2].priority)]
            let after: [FieldValue] = [.title("moved"), .priority(99)]
            #expect(view.lastSeen == before)

            try store.transaction([FieldWrite(3, .title("moved")), FieldWrite(3, .priority(99))])
            try await Settling.settleAndConfirmQuiet(store, [view])

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
        },
        ConformanceCase("5b. views of a transactional strategy never observe a half-applied transaction", appliesTo: { $0.transactional }) { entry in
            let store = try entry.makeStore(records)
            var spec = ViewSpec.record(3, .title, .priority)
            spec.recordsHistory = true
            let view = try store.subscribe(spec)
            try await Settling.settle(store)
            for round in 1...20 {
                try store.transaction([FieldWrite(3, .title("round \(round)")), FieldWrite(3, .priority(round))])
                if round % 5 == 0 { try await Settling.settle(store) }
            }
            try await Settling.settle(store)
            let history = view.snapshot.history
            let initial: [FieldValue] = [.title("Task 3"), .priority(records[2].priority)]
            #expect(history.count >= 2)
            for seen in history where seen != initial {
                guard case .title(let title) = seen[0], case .priority(let priority) = seen[1] else {
                    Issue.record("unexpected values \(seen)")
                    continue
                }
                #expect(title == "round \(priority)", ConformanceFailure.tornTransaction.comment("title \(title) with priority \(priority)"))
            }
            #expect(view.lastSeen == [.title("round 20"), .priority(20)])
            await store.tearDown()
        },
        ConformanceCase("5e. a transaction across two records is never seen half-applied by a view reading both, where transactional", appliesTo: { $0.transactional }) { entry in
            let store = try entry.makeStore(records)
            let spec = ViewSpec(reads: [FieldRef(3, .priority), FieldRef(4, .priority)], recordsHistory: true)
            let view = try store.subscribe(spec)
            try await Settling.settle(store)
            let initial: [FieldValue] = [.priority(records[2].priority), .priority(records[3].priority)]
            for round in 1...20 {
                try store.transaction([FieldWrite(3, .priority(1_000 + round)), FieldWrite(4, .priority(-1_000 - round))])
                if round % 5 == 0 { try await Settling.settle(store) }
            }
            try await Settling.settleAndConfirmQuiet(store, [view])
            for seen in view.snapshot.history where seen != initial {
                guard case .priority(let three) = seen[0], case .priority(let four) = seen[1] else {
                    Issue.record("unexpected values \(seen)")
                    continue
                }
                #expect(three == -four, ConformanceFailure.tornTransaction.comment("across records: #3 \(three) with #4 \(four)"))
            }
            if entry.descriptor.capabilities.granularity != .none {
                #expect(view.lastSeen == [.priority(1_020), .priority(-1_020)], "the last transaction must reach the view")
                // One commit may reach a view once, or once per record it touched (a store that
                // notifies per record after applying the whole commit), never more.
                #expect((1...40).contains(view.reruns), "\(view.reruns) re-runs for 20 two-record transactions")
            }
            await store.tearDown()
        },
        ConformanceCase(
            "5c. a commit from a background task lands whole, runs its hook once, and re-runs the view once where transactional, at most once per write otherwise",
            appliesTo: { _ in true }
        ) { entry in
            let store = try entry.makeStore(records)
            let view = try store.subscribe(.record(4, .title, .priority))
            try await Settling.settle(store)
            let hooks = Locked(0)
            let writes = [FieldWrite(4, .title("from the background")), FieldWrite(4, .priority(77))]
            try await Task.detached { try await store.commitFromBackground(writes) { hooks.withLock { $0 += 1 } } }.value
            try await Settling.settleAndConfirmQuiet(store, [view])
            #expect(hooks.withLock { $0 } == 1)
            #expect(try store.read(.title, of: 4) == .title("from the background") && store.read(.priority, of: 4) == .priority(77))
            let capabilities = entry.descriptor.capabilities
            let reruns = view.reruns
            if capabilities.granularity == .none {
                #expect(reruns == 0, "a store that observes nothing re-runs no view")
            } else {
                #expect(view.lastSeen == [.title("from the background"), .priority(77)], "the commit must reach the view")
                if capabilities.transactional {
                    #expect(reruns == 1, ConformanceFailure.commitNotOneRerun.comment("\(reruns) re-runs for one commit"))
                } else {
                    // A store without transactions may show a commit write by write.
                    #expect((1...writes.count).contains(reruns), ConformanceFailure.commitRerunsOutOfRange.comment("\(reruns) re-runs for one commit of \(writes.count) writes"))
                }
            }
            await #expect(throws: StrategyError.self) { try await store.commitFromBackground([FieldWrite(99, .priority(1))]) {} }
            await store.tearDown()
        },
        ConformanceCase("5d. readEach hands every record's value in id order, untracked", appliesTo: { _ in true }) { entry in
            let store = try entry.makeStore(records)
            let view = try store.subscribe(.record(2, .priority))
            try await Settling.settle(store)
            var seen: [FieldValue] = []
            try store.readEach(.priority, of: 3...7) { seen.append($0) }
            #expect(seen == records[2...6].map { .priority($0.priority) })
            #expect(throws: StrategyError.self) { try store.readEach(.priority, of: 1...11) { _ in } }
            try await Settling.settle(store)
            #expect(view.reruns == 0)
            await store.tearDown()
        },
        ConformanceCase("6. unsubscribe stops re-runs; teardown frees the store and its views", appliesTo: { _ in true }) { entry in
            weak var weakView: ViewHandle?
            var weakObjects: [WeakObject] = []
            do {
                let store = try entry.makeStore(records)
                let kept = try store.subscribe(.record(5, .title))
                let dropped = try store.subscribe(.record(5, .title))
                try await Settling.settle(store)
                store.unsubscribe(dropped)
                store.unsubscribe(dropped)
                try store.write(.title("after unsubscribe"), to: 5)
                try await Settling.settle(store)
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
        },
        ConformanceCase("7. unknown record ids throw a clear error, never crash or default", appliesTo: { _ in true }) { entry in
            let store = try entry.makeStore(records)
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
        },
    ]
}

/// Parameterised tests over strategies name each case after the strategy.
extension StrategyEntry: CustomTestStringConvertible {
    public var testDescription: String { name }
}
