import ObservationStrategies
import Testing

/// The native derivations of `observations`, `observable-context`, `struct-vm` and
/// `deduplicated-object`, in every style each has: semantics only (what a view shows after
/// `settle()`, that nothing comes after it, that unsubscribing stops a view and teardown frees
/// everything), never a timing and never a count that is a finding of the strategy.
// A hang fails a case; 3 minutes, as a case waits for the main actor behind every main-actor
// suite (on a loaded machine, load average 8, those ended near 660 s and cases timed out at 1).
@Suite("Native derived views", .timeLimit(.minutes(3)))
@MainActor
struct NativeDerivedViewTests {
    nonisolated static let strategies = [
        StrategyEntry(ObservationsStrategy.self), StrategyEntry(ObservableContextStrategy.self), StrategyEntry(StructViewModelStrategy.self),
        StrategyEntry(DeduplicatedObjectStrategy.self),
    ]

    /// Every style of every strategy above.
    nonisolated static let cases = strategies.flatMap { entry in entry.derivationStyles.map { (entry, $0) } }

    /// Node 0 reads record 2's or record 3's priority as record 1 is complete or not; node 1 is
    /// node 0 doubled, node 2 whether node 0 is at least 5; the view reads nodes 1 and 2 and record
    /// 4's title.
    static let graph: DerivedSpec = {
        let condition = FieldRef(1, .isComplete)
        let first = FieldRef(2, .priority)
        let second = FieldRef(3, .priority)
        return DerivedSpec(nodes: [
            DerivedNode(name: "pick", reads: [condition, first, second]) { reader in
                guard case .isComplete(let useFirst) = reader.field(condition), case .priority(let value) = reader.field(useFirst ? first : second) else {
                    return .int(-1)
                }
                return .int(value)
            },
            DerivedNode(name: "double", reads: [], inputs: [0]) { reader in
                guard case .int(let value) = reader.node(0) else { return .int(-1) }
                return .int(value * 2)
            },
            DerivedNode(name: "high", reads: [], inputs: [0]) { reader in
                guard case .int(let value) = reader.node(0) else { return .bool(false) }
                return .bool(value >= 5)
            },
        ])
    }()

    static let view = DerivedViewSpec(graph: graph, nodes: [1, 2], fields: [FieldRef(4, .title)])

    /// Settles the store and runs the view's render pass.
    static func settle(_ store: any ObservationStrategy, _ view: DerivedViewHandle) async {
        await store.settle()
        view.catchUp()
    }

    /// What the view must show over the store's records, computed from scratch.
    static func expected(_ store: any ObservationStrategy) throws -> [DerivedValue] {
        let fields = view.allFields
        let values = try fields.map { try store.read($0.field, of: $0.id) }
        return view.expectedOutput { ref in values[fields.firstIndex(of: ref) ?? 0] }
    }

    @Test("a derived view shows what its derivation computes after each write, and nothing re-runs it after settle() returned", arguments: cases)
    func followsWrites(entry: StrategyEntry, style: DerivationStyle) async throws {
        let store = try entry.makeStore(TaskRecord.sample(count: 6))
        let view = try store.subscribeDerived(Self.view, style: style)
        await Self.settle(store, view)
        #expect(view.lastOutput == (try Self.expected(store)), "\(entry.name) \(style.rawValue) after subscribing")
        let writes: [FieldWrite] = [
            FieldWrite(3, .priority(7)), FieldWrite(1, .isComplete(true)), FieldWrite(2, .priority(8)), FieldWrite(3, .priority(1)),
            FieldWrite(4, .title("renamed")), FieldWrite(1, .isComplete(false)), FieldWrite(5, .priority(9)),
        ]
        for write in writes {
            try store.write(write.value, to: write.id)
            await Self.settle(store, view)
            #expect(view.lastOutput == (try Self.expected(store)), "\(entry.name) \(style.rawValue) after writing \(write.id).\(write.value)")
            let reruns = view.snapshot.reruns
            for _ in 0..<20 { await Task.yield() }
            try await Task.sleep(for: .milliseconds(20))
            await Self.settle(store, view)
            #expect(view.snapshot.reruns == reruns, "\(entry.name) \(style.rawValue): the view re-ran after settle() returned (\(write.id).\(write.value))")
        }
        #expect(view.snapshot.failure == nil)
        store.unsubscribeDerived(view)
        await store.tearDown()
    }

    @Test("an unsubscribed derived view re-runs no more, and teardown frees the store's objects and the view", arguments: cases)
    func unsubscribeAndTeardown(entry: StrategyEntry, style: DerivationStyle) async throws {
        weak var weakView: DerivedViewHandle?
        var weakObjects: [WeakBox] = []
        do {
            let store = try entry.makeStore(TaskRecord.sample(count: 6))
            let view = try store.subscribeDerived(Self.view, style: style)
            let kept = try store.subscribeDerived(DerivedViewSpec(graph: Self.graph, nodes: [2]), style: style)
            await Self.settle(store, view)
            weakView = view
            store.unsubscribeDerived(view)
            let before = view.snapshot
            // Record 1 is complete in the sample, so node 0 reads record 2's priority.
            try store.write(.priority(9), to: 2)
            await Self.settle(store, view)
            kept.catchUp()
            #expect(view.snapshot.reruns == before.reruns, "\(entry.name) \(style.rawValue): an unsubscribed view re-ran")
            #expect(view.snapshot.totalEvaluations == before.totalEvaluations, "\(entry.name) \(style.rawValue): an unsubscribed view's values were evaluated")
            #expect(kept.lastOutput == [.bool(true)], "\(entry.name) \(style.rawValue): the view still subscribed shows \(kept.lastOutput)")
            store.unsubscribeDerived(view)
            weakObjects = store.objectsThatMustBeFreed().map(WeakBox.init)
            await store.tearDown()
        }
        for _ in 0..<10 { await Task.yield() }
        try await Task.sleep(for: .milliseconds(20))
        #expect(weakView == nil, "\(entry.name) \(style.rawValue): the unsubscribed view outlived its store")
        #expect(weakObjects.allSatisfy { $0.object == nil }, "\(entry.name) \(style.rawValue): teardown leaked objects")
    }

    @Test("each strategy lists its native style first, and rejects a style it does not have", arguments: strategies)
    func styles(entry: StrategyEntry) async throws {
        let native: [String: DerivationStyle] = ["observations": .computed, "observable-context": .computed, "struct-vm": .cached, "deduplicated-object": .pipeline]
        #expect(entry.derivationStyles.first == native[entry.name])
        let store = try entry.makeStore(TaskRecord.sample(count: 6))
        #expect(throws: DerivedError.unsupportedStyle(.sql, strategy: entry.name)) { try store.subscribeDerived(Self.view, style: .sql) }
        #expect(throws: StrategyError.unknownRecord(id: 7, validRange: 1...6)) {
            try store.subscribeDerived(DerivedViewSpec(graph: Self.graph, nodes: [], fields: [FieldRef(7, .title)]), style: entry.derivationStyles[0])
        }
        await store.tearDown()
    }
}

/// A weak reference to an object that must be freed.
private struct WeakBox {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}
