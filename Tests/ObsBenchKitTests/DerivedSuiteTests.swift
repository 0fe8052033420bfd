import ObservationStrategies
import Testing

@testable import ObsBenchKit

/// The derived suite's semantics, on test stores whose behaviour is known exactly: the counts it
/// writes (re-runs, avoidable re-runs, evaluations, glitches) and its checks (a wrong derived value
/// is an error row, never a number). Never a timing, never a built-in strategy's finding.
@Suite("derived suite counts and checks")
@MainActor
struct DerivedSuiteTests {
    /// A few short samples: the tests read the counts, never the time.
    static let sampler = SamplerSettings(warmUpNanoseconds: 1_000_000, targetSampleNanoseconds: 100_000, minimumSamples: 3, maximumSamples: 5, budgetNanoseconds: 5_000_000)
    static let objects = 100

    static func rows(_ workload: any Workload, _ entry: StrategyEntry) async throws -> [ResultRow] {
        let context = WorkloadContext(runID: "test", suite: Suite.derived.name, strategy: entry, sampler: sampler, objects: objects, quick: true)
        return try await workload.run(context).rows
    }

    static func value(_ rows: [ResultRow], _ metric: Metric) -> Double? {
        rows.first { $0.metric == metric }?.value
    }

    /// The tasks the filtered list shows at the start (query "7"), counted independently of the workload.
    static var listed: Int {
        TaskRecord.sample(count: objects).dropFirst().filter { !$0.isComplete && $0.title.contains(FilteredSortedWorkload.queries.0) }.count
    }

    @Test("a store that re-runs every view on every write: every view re-runs, and those that show nothing new are avoidable")
    func everyWriteCounts() async throws {
        let entry = StrategyEntry(CountingStore<EveryWrite>.self)
        let views = Double(Self.listed + 1)
        let diamond = try await Self.rows(DiamondWorkload(), entry)
        #expect(!diamond.contains { $0.isError }, "\(diamond.filter(\.isError).map(\.note))")
        #expect(Self.value(diamond, .rerunsPerWrite) == 1)
        #expect(Self.value(diamond, .avoidableRerunsPerWrite) == 0)
        // The view body derives source, double and triple once per run.
        #expect(Self.value(diamond, .evaluationsPerWrite) == 3)
        #expect(Self.value(diamond, .glitchesPerWrite) == 0)
        #expect(diamond.contains { $0.metric == .latency && $0.workload == "diamond" })

        let unread = try await Self.rows(FilteredSortedWorkload(.unreadField), entry)
        #expect(!unread.contains { $0.isError }, "\(unread.filter(\.isError).map(\.note))")
        #expect(Self.value(unread, .rerunsPerWrite) == views)
        #expect(Self.value(unread, .avoidableRerunsPerWrite) == views)
        #expect(Self.value(unread, .evaluationsPerWrite) == 1)

        let membership = try await Self.rows(FilteredSortedWorkload(.membership), entry)
        #expect(Self.value(membership, .rerunsPerWrite) == views)
        #expect(Self.value(membership, .avoidableRerunsPerWrite) == views - 1)

        let fanOut = try await Self.rows(FanOutWorkload(width: 10), entry)
        #expect(Self.value(fanOut, .rerunsPerWrite) == 10)
        #expect(Self.value(fanOut, .evaluationsPerWrite) == 10)
        let chain = try await Self.rows(ChainWorkload(depth: 4), entry)
        #expect(Self.value(chain, .evaluationsPerWrite) == 4)
    }

    @Test("a store that re-runs a view only when a field it read changed: only the views that show something new re-run")
    func onChangeCounts() async throws {
        let entry = StrategyEntry(CountingStore<OnChange>.self)
        let diamond = try await Self.rows(DiamondWorkload(), entry)
        #expect(Self.value(diamond, .rerunsPerWrite) == 1)
        #expect(Self.value(diamond, .avoidableRerunsPerWrite) == 0)

        for write in [FilteredSortedWorkload.Write.unreadField, .sameValue] {
            let rows = try await Self.rows(FilteredSortedWorkload(write), entry)
            #expect(!rows.contains { $0.isError }, "\(rows.filter(\.isError).map(\.note))")
            #expect(Self.value(rows, .rerunsPerWrite) == 0, "\(write)")
            #expect(Self.value(rows, .avoidableRerunsPerWrite) == 0, "\(write)")
            #expect(Self.value(rows, .evaluationsPerWrite) == 0, "\(write)")
        }
        // The list view reads isComplete; no row view does.
        let membership = try await Self.rows(FilteredSortedWorkload(.membership), entry)
        #expect(Self.value(membership, .rerunsPerWrite) == 1)
        #expect(Self.value(membership, .avoidableRerunsPerWrite) == 0)
        // The moved task's row view and the list view.
        let order = try await Self.rows(FilteredSortedWorkload(.order), entry)
        #expect(Self.value(order, .rerunsPerWrite) == 2)
        #expect(Self.value(order, .avoidableRerunsPerWrite) == 0)
        // The view-body default reads every field the derivation may read: the dynamic view re-runs
        // for the field it no longer reads, and shows nothing new.
        let dynamic = try await Self.rows(DynamicWorkload(), entry)
        #expect(Self.value(dynamic, .rerunsPerWrite) == 1)
        #expect(Self.value(dynamic, .avoidableRerunsPerWrite) == 1)
    }

    @Test("a strategy whose derived view shows a wrong value gives an error row saying so, and no number")
    func wrongValueIsAnErrorRow() async throws {
        for workload in [DiamondWorkload() as any Workload, FilteredSortedWorkload(.order)] {
            let rows = try await Self.rows(workload, StrategyEntry(WrongDerivedStore.self))
            #expect(rows.count == 1, "\(rows.map(\.metric))")
            let row = try #require(rows.first)
            #expect(row.isError)
            #expect(row.workload == workload.name)
            #expect(row.note.contains("a from-scratch computation over the store's records gives"), "\(row.note)")
        }
    }

    @Test("a strategy with no observation gives, for a write that changes what a view shows, a row with no number saying why, not an error")
    func plainSaysWhy() async throws {
        let rows = try await Self.rows(DiamondWorkload(), StrategyEntry(PlainStrategy.self))
        let row = try #require(rows.first)
        #expect(rows.count == 1 && !row.isError && row.statistics == nil)
        #expect(row.note.contains("not measurable: plain observes nothing"), "\(row.note)")
    }

    @Test("the report's derived section sums each strategy's re-runs and avoidable re-runs over the filtered-sorted writes it measured")
    func reportSection() async throws {
        let entry = StrategyEntry(CountingStore<EveryWrite>.self)
        let rows = try await Self.rows(FilteredSortedWorkload(.unreadField), entry) + Self.rows(FilteredSortedWorkload(.membership), entry)
        let blocks = RunReport.derivedSection(rows: rows, strategies: [EveryWrite.name])
        guard case .table(_, let table)? = blocks.last else {
            Issue.record("no table in \(blocks)")
            return
        }
        let views = Self.listed + 1
        #expect(table == [[EveryWrite.name, "2 of 5", "\(2 * views)", "\(2 * views - 1)", "\(Int((Double(2 * views - 1) / Double(2 * views) * 100).rounded())) %", "—"]])
        #expect(RunReport.derivedSection(rows: [], strategies: [EveryWrite.name]).isEmpty)
    }

    @Test("a strategy's other derivation styles are rows of their own, named workload+style")
    func stylesNameRows() {
        #expect(DerivedRows.name("diamond", style: .cached, usual: false) == "diamond+cached")
        #expect(DerivedRows.name("diamond", style: .computed, usual: true) == "diamond")
        #expect(DiamondWorkload().writesRows(named: "diamond+cached"))
        #expect(!ChainWorkload(depth: 1).writesRows(named: "chain-16"))
        #expect(SuiteRegistry.workload(suite: "derived", rowWorkload: "chain-16+pipeline")?.name == "chain-16")
    }

    @Test("a run.json made before derived promises existed declares the same strategy")
    func oldDeclarationsAgree() {
        var old = ObservableStrategy.descriptor.capabilities
        old.memoizesDerived = nil
        old.skipsUnchangedDerived = nil
        #expect(old.agrees(with: ObservableStrategy.descriptor.capabilities))
        var changed = old
        changed.skipsUnchangedDerived = true
        var other = old
        other.skipsUnchangedDerived = false
        #expect(!changed.agrees(with: other))
        other.coalesces.toggle()
        #expect(!old.agrees(with: other))
    }
}

/// How a ``CountingStore`` re-runs its views.
protocol RerunPolicy {
    static var name: String { get }
    /// Whether every write re-runs every view (else: only views that read a field whose value changed).
    static var everyWrite: Bool { get }
}

enum EveryWrite: RerunPolicy {
    static let name = "every-write"
    static let everyWrite = true
}

enum OnChange: RerunPolicy {
    static let name = "on-change"
    static let everyWrite = false
}

/// Records in an array and views re-run synchronously, at each write, as `Policy` says: a store
/// whose re-runs are known exactly.
@MainActor
final class CountingStore<Policy: RerunPolicy>: ObservationStrategy {
    nonisolated static var descriptor: StrategyDescriptor {
        StrategyDescriptor(
            name: Policy.name, summary: "a test store re-running views \(Policy.everyWrite ? "on every write" : "when a field they read changed")", dependency: "none",
            capabilities: Capabilities(
                granularity: Policy.everyWrite ? .store : .property, deduplicates: !Policy.everyWrite, delivery: .synchronous, transactional: false, coalesces: false))
    }

    private var records: [TaskRecord]
    private var views: [ViewHandle] = []

    init(records: [TaskRecord]) throws { self.records = records }

    func read(_ field: TaskField, of id: Int) throws -> FieldValue {
        guard records.indices.contains(id - 1) else { throw StrategyError.unknownRecord(id: id, validRange: nil) }
        return records[id - 1].value(of: field)
    }

    func readInsideView(_ field: TaskField, of id: Int, times: Int) throws -> FieldValue { try read(field, of: id) }

    func write(_ value: FieldValue, to id: Int) throws {
        let old = try read(value.field, of: id)
        records[id - 1].apply(value)
        let ref = FieldRef(id, value.field)
        for view in views where Policy.everyWrite || (old != value && view.spec.reads.contains(ref)) {
            view.recordNotification()
            view.recordRun { self.records[$0.id - 1].value(of: $0.field) }
        }
    }

    func transaction(_ writes: [FieldWrite]) throws {
        for write in writes { try self.write(write.value, to: write.id) }
    }

    func subscribe(_ spec: ViewSpec) throws -> ViewHandle {
        let view = ViewHandle(spec: spec)
        views.append(view)
        view.recordRun { self.records[$0.id - 1].value(of: $0.field) }
        return view
    }

    func unsubscribe(_ view: ViewHandle) {
        view.cancel()
        views.removeAll { $0 === view }
    }

    func settle() async {}
    func tearDown() async { views.removeAll() }
    func objectsThatMustBeFreed() -> [AnyObject] { [] }
}

/// A store whose derived views show a wrong value: every node's value plus one.
@MainActor
final class WrongDerivedStore: ObservationStrategy {
    nonisolated static var descriptor: StrategyDescriptor {
        StrategyDescriptor(
            name: "wrong-derived", summary: "a test store whose derived views show each value plus one", dependency: "none",
            capabilities: CountingStore<OnChange>.descriptor.capabilities)
    }

    private let store: CountingStore<OnChange>

    init(records: [TaskRecord]) throws { store = try CountingStore(records: records) }
    func read(_ field: TaskField, of id: Int) throws -> FieldValue { try store.read(field, of: id) }
    func readInsideView(_ field: TaskField, of id: Int, times: Int) throws -> FieldValue { try store.readInsideView(field, of: id, times: times) }
    func write(_ value: FieldValue, to id: Int) throws { try store.write(value, to: id) }
    func transaction(_ writes: [FieldWrite]) throws { try store.transaction(writes) }
    func subscribe(_ spec: ViewSpec) throws -> ViewHandle { try store.subscribe(spec) }
    func unsubscribe(_ view: ViewHandle) { store.unsubscribe(view) }
    func settle() async { await store.settle() }
    func tearDown() async { await store.tearDown() }
    func objectsThatMustBeFreed() -> [AnyObject] { [] }

    func subscribeDerived(_ view: DerivedViewSpec, style: DerivationStyle) throws -> DerivedViewHandle {
        let handle = DerivedViewHandle(spec: view)
        var values: [FieldRef: FieldValue] = [:]
        for ref in view.allFields { values[ref] = try read(ref.field, of: ref.id) }
        let right = view.expectedOutput { values[$0] ?? .priority(0) }
        handle.recordRun(right.map { value in if case .int(let number) = value { .int(number + 1) } else { .ids([-1]) } })
        return handle
    }
}
