#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif

/// One `CurrentValueSubject` holds the whole state (an array of `TaskRecord` structs); each view
/// maps the state to its slice and drops unchanged slices with `removeDuplicates()`: the
/// deduplicated-state approach of centralised stores.
///
/// Every write sends the whole state to every subscriber's `map`, so its cost grows with the number
/// of subscribed views, while re-runs happen only where a slice changed. The subject stores its
/// value, so a write copies the state array (copy-on-write): that copy is part of the approach.
@MainActor
public final class StateSubjectStrategy: ObservationStrategy {
    nonisolated public static let descriptor = StrategyDescriptor(
        name: "state-subject",
        summary: "one CurrentValueSubject of the whole state; views map their slice + removeDuplicates()",
        dependency: "OpenCombine 0.14 (Combine on Apple platforms)",
        capabilities: Capabilities(
            granularity: .store, deduplicates: true, delivery: .synchronous, transactional: true, coalesces: false, memoizesDerived: false,
            skipsUnchangedDerived: true)
    )

    /// A selector, `subject.map(select).removeDuplicates()`, the usual way; and the default, a view
    /// mapping its fields' slice and deriving from it.
    nonisolated public static var derivationStyles: [DerivationStyle] { [.selector, .viewBody] }

    /// The whole store's state, as a centralised store keeps it.
    struct StoreState {
        var records: [TaskRecord]
    }

    private let subject: CurrentValueSubject<StoreState, Never>
    private var subscriptions: [ObjectIdentifier: (view: ViewHandle, cancellable: AnyCancellable)] = [:]
    private var selectors: [ObjectIdentifier: (view: DerivedViewHandle, cancellable: AnyCancellable)] = [:]
    private let count: Int

    public init(records: [TaskRecord]) throws {
        try validateRecordIDs(records)
        subject = CurrentValueSubject(StoreState(records: records))
        count = records.count
    }

    public func read(_ field: TaskField, of id: Int) throws -> FieldValue {
        subject.value.records[try recordIndex(of: id, count: count)].value(of: field)
    }

    /// A view body reads from the state value its `map` received: an ordinary struct read.
    public func readInsideView(_ field: TaskField, of id: Int, times: Int) throws -> FieldValue {
        let index = try recordIndex(of: id, count: count)
        let state = subject.value
        var value = state.records[index].value(of: field)
        for _ in 1..<max(times, 1) { value = state.records[index].value(of: field) }
        return value
    }

    public func write(_ value: FieldValue, to id: Int) throws {
        let index = try recordIndex(of: id, count: count)
        subject.value.records[index].apply(value)
    }

    public func transaction(_ writes: [FieldWrite]) throws {
        for write in writes { _ = try recordIndex(of: write.id, count: count) }
        var state = subject.value
        for write in writes { state.records[write.id - 1].apply(write.value) }
        subject.value = state
    }

    public func subscribe(_ spec: ViewSpec) throws -> ViewHandle {
        try validateViewSpec(spec, count: count)
        let view = ViewHandle(spec: spec)
        let reads = spec.reads
        let cancellable =
            subject
            .map { state -> [FieldValue] in
                view.recordNotificationAfterFirstRun()
                return reads.map { state.records[$0.id - 1].value(of: $0.field) }
            }
            .removeDuplicates()
            .sink { values in view.recordRun(values) }
        subscriptions[ObjectIdentifier(view)] = (view, cancellable)
        return view
    }

    public func unsubscribe(_ view: ViewHandle) {
        view.cancel()
        subscriptions.removeValue(forKey: ObjectIdentifier(view))?.cancellable.cancel()
    }

    public func settle() async {}

    public func subscribeDerived(_ view: DerivedViewSpec, style: DerivationStyle) throws -> DerivedViewHandle {
        switch style {
        case .viewBody: return try subscribeDerivedInViewBody(view)
        case .selector:
            let fields = view.allFields
            guard !fields.isEmpty else { throw StrategyError.emptyView }
            for ref in fields { _ = try recordIndex(of: ref.id, count: count) }
            let handle = DerivedViewHandle(spec: view)
            // The selector evaluates every node the view reads on every state the subject sends;
            // removeDuplicates() lets only a changed output re-run the view.
            let cancellable =
                subject
                .map { state in view.output(countingOn: handle) { state.records[$0.id - 1].value(of: $0.field) } }
                .removeDuplicates()
                .sink { output in handle.recordRun(output) }
            selectors[ObjectIdentifier(handle)] = (handle, cancellable)
            return handle
        default: throw DerivedError.unsupportedStyle(style, strategy: Self.descriptor.name)
        }
    }

    public func unsubscribeDerived(_ view: DerivedViewHandle) {
        view.cancel()
        if let fieldView = view.fieldView { unsubscribe(fieldView) }
        selectors.removeValue(forKey: ObjectIdentifier(view))?.cancellable.cancel()
    }

    public func tearDown() async {
        for entry in selectors.values {
            entry.view.cancel()
            entry.cancellable.cancel()
        }
        selectors.removeAll()
        for entry in subscriptions.values {
            entry.view.cancel()
            entry.cancellable.cancel()
        }
        subscriptions.removeAll()
        subject.send(completion: .finished)
    }

    public func objectsThatMustBeFreed() -> [AnyObject] { [subject] }
}
