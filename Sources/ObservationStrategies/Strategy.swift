/// The one protocol the harness knows. Every observation strategy stores the same `TaskRecord`s
/// and is driven through the same operations, so one workload measures them all.
///
/// Strategies are main-actor isolated: observation exists to drive UI, and on every platform the
/// UI reads and writes its observed state from the main actor. Strategies whose machinery delivers
/// elsewhere (GRDB's observation queue) hop back through `settle()`.
///
/// Semantics every conformer keeps (the conformance suite proves them):
/// - `read` is untracked: it never subscribes anything.
/// - a view is a closure over the fields its `ViewSpec` names; it runs once when subscribed (not
///   counted as a re-run) and is re-run, re-arming its subscription, whenever the strategy's
///   granularity says a change concerns it.
/// - `settle()` returns only when every notification caused by earlier writes has been delivered
///   and every view that will re-run because of them has re-run.
@MainActor
public protocol ObservationStrategy: AnyObject, Sendable {
    /// Name, summary, capabilities and dependency: what `obsbench list` prints.
    nonisolated static var descriptor: StrategyDescriptor { get }

    /// Builds a store holding `records` (ids must be 1...N in order, as `TaskRecord.sample` makes).
    init(records: [TaskRecord]) throws

    /// Reads one field outside any view: no tracking, no subscription.
    func read(_ field: TaskField, of id: Int) throws -> FieldValue

    /// Reads `field` of every record in `ids`, in id order, untracked, handing each value to
    /// `body`: a scan, through the strategy's own bulk read where it has one (GRDB: one query).
    /// The default calls `read` once per record.
    func readEach(_ field: TaskField, of ids: ClosedRange<Int>, _ body: (FieldValue) -> Void) throws

    /// Reads one field `times` times inside one view-tracking scope, as a view body does,
    /// and returns the last value read. What a view pays per field it reads.
    func readInsideView(_ field: TaskField, of id: Int, times: Int) throws -> FieldValue

    /// Writes one field of one record.
    func write(_ value: FieldValue, to id: Int) throws

    /// Writes several fields, of one or several records, as one transaction where the strategy
    /// has transactions (`capabilities.transactional`), or one after the other where it has not.
    func transaction(_ writes: [FieldWrite]) throws

    /// Commits `writes` as one unit from off the main actor, the way a sync engine or a network
    /// response delivers changes, through the strategy's own API; calls `committed` while the
    /// commit is still exclusive (no other commit can come between), so a caller can log the
    /// states that existed at commit boundaries. The default hops to the main actor and calls
    /// `transaction` there, as code writing to a main-actor store does:
    ///
    /// ```swift
    /// try await store.commitFromBackground([FieldWrite(3, .isComplete(true))]) { log.append(...) }
    /// ```
    nonisolated func commitFromBackground(_ writes: [FieldWrite], committed: @escaping @Sendable () -> Void) async throws

    /// Subscribes a view reading `spec.reads`. The view runs once now.
    func subscribe(_ spec: ViewSpec) throws -> ViewHandle

    /// Stops re-running `view`. Unsubscribing twice is harmless.
    func unsubscribe(_ view: ViewHandle)

    /// Returns when every pending notification has been delivered and every view has re-run.
    func settle() async

    /// Cancels every view and releases every resource (open databases, temporary files).
    func tearDown() async

    /// The objects that must be freed once the store and its views are gone: the conformance
    /// suite holds them weakly to prove that teardown leaks nothing.
    func objectsThatMustBeFreed() -> [AnyObject]

    /// The same read and write on this strategy's own record type in a tight loop (see
    /// `ConcreteLoops`), for the attribution check; nil by default.
    static func concreteLoops(records: [TaskRecord]) -> ConcreteLoops?

    /// The ways this strategy derives values, its users' usual one first (``DerivationStyle``).
    /// Default: `[.viewBody]`.
    nonisolated static var derivationStyles: [DerivationStyle] { get }

    /// Subscribes a view of derived values, derived the `style` way (one of `derivationStyles`);
    /// the view runs once now. The default derives in the view body from the fields it reads
    /// (``subscribeDerivedInViewBody(_:)``); a strategy with a native way overrides it.
    func subscribeDerived(_ view: DerivedViewSpec, style: DerivationStyle) throws -> DerivedViewHandle

    /// Stops re-running a derived view. Unsubscribing twice is harmless.
    func unsubscribeDerived(_ view: DerivedViewHandle)

    /// `concreteLoops` over this strategy's record type with the looped field excluded from
    /// observation (`@ObservationIgnored`), where the strategy has such a mitigation; nil by default.
    static func ignoredFieldLoops(records: [TaskRecord]) -> ConcreteLoops?
}

extension ObservationStrategy {
    public func readEach(_ field: TaskField, of ids: ClosedRange<Int>, _ body: (FieldValue) -> Void) throws {
        for id in ids { body(try read(field, of: id)) }
    }

    public nonisolated func commitFromBackground(_ writes: [FieldWrite], committed: @escaping @Sendable () -> Void) async throws {
        try await MainActor.run {
            try self.transaction(writes)
            committed()
        }
    }
}

/// What a strategy is, for `obsbench list`, the README table and reports.
public struct StrategyDescriptor: Sendable, Hashable, Codable {
    /// The command-line name, e.g. `published`.
    public var name: String
    /// One sentence: what this strategy really is.
    public var summary: String
    /// The real component it exercises, e.g. "OpenCombine 0.14".
    public var dependency: String
    public var capabilities: Capabilities

    public init(name: String, summary: String, dependency: String, capabilities: Capabilities) {
        self.name = name
        self.summary = summary
        self.dependency = dependency
        self.capabilities = capabilities
    }
}

/// What a strategy promises, so that results can be explained and the conformance suite can derive
/// the exact number of re-runs each case must show.
public struct Capabilities: Sendable, Hashable, Codable {
    /// What a change notification is about: who gets called when one field of one record changes.
    public var granularity: Granularity
    /// Whether a subscriber drops notifications whose slice did not change (`removeDuplicates`).
    /// When true, a view re-runs only if a field it read changed, whatever the granularity.
    public var deduplicates: Bool
    public var delivery: Delivery
    /// Whether a multi-field transaction is seen whole or not at all.
    public var transactional: Bool
    /// Whether several writes before delivery may reach a view as fewer re-runs (values can be skipped).
    public var coalesces: Bool
    /// Whether the strategy's usual derivation (the first of `derivationStyles`) keeps a derived
    /// value and evaluates it again only when an input changed, rather than on every read or
    /// view run. Nil: not declared (a `run.json` made before derived values were declared).
    public var memoizesDerived: Bool?
    /// Whether, in its usual derivation, a view does not re-run when no derived value or field it
    /// reads changed (an unchanged derived value re-runs nothing). Nil: not declared.
    public var skipsUnchangedDerived: Bool?

    public init(
        granularity: Granularity, deduplicates: Bool, delivery: Delivery, transactional: Bool, coalesces: Bool, memoizesDerived: Bool? = nil,
        skipsUnchangedDerived: Bool? = nil
    ) {
        self.granularity = granularity
        self.deduplicates = deduplicates
        self.delivery = delivery
        self.transactional = transactional
        self.coalesces = coalesces
        self.memoizesDerived = memoizesDerived
        self.skipsUnchangedDerived = skipsUnchangedDerived
    }

    /// Whether two declarations agree: the same notification capabilities, and the same derived
    /// promises where both declare them (a `run.json` made before they existed declares none, and
    /// is not therefore a different declaration).
    public func agrees(with other: Capabilities) -> Bool {
        func same(_ lhs: Bool?, _ rhs: Bool?) -> Bool {
            guard let lhs, let rhs else { return true }
            return lhs == rhs
        }
        return granularity == other.granularity && deduplicates == other.deduplicates && delivery == other.delivery
            && transactional == other.transactional && coalesces == other.coalesces
            && same(memoizesDerived, other.memoizesDerived) && same(skipsUnchangedDerived, other.skipsUnchangedDerived)
    }
}

/// The unit of change a strategy notifies about.
public enum Granularity: String, Sendable, Hashable, CaseIterable, Codable {
    /// No observation at all: views never re-run.
    case none
    /// One property of one object (`@Observable`).
    case property
    /// Any property of one object (`objectWillChange`).
    case object
    /// Anything in the store (one subject of the whole state).
    case store
    /// A database region: the columns and rows a fetch read (GRDB).
    case region
}

/// When a view re-runs relative to the write that caused it.
public enum Delivery: String, Sendable, Hashable, Codable {
    /// Before the write call returns, on the writing thread.
    case synchronous
    /// Later, on another task or queue; `settle()` waits for it.
    case asynchronous
}
