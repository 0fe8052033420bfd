/// One registered strategy: its descriptor and how to build a store of it.
public struct StrategyEntry: Sendable {
    public let descriptor: StrategyDescriptor
    /// Builds a store of this strategy holding `records`.
    public let makeStore: @MainActor @Sendable (_ records: [TaskRecord]) throws -> any ObservationStrategy
    /// The strategy's concrete reference loops (`ConcreteLoops`), when it has them.
    public let makeConcreteLoops: @MainActor @Sendable (_ records: [TaskRecord]) -> ConcreteLoops?
    /// The concrete loops over records whose looped field is `@ObservationIgnored`, when it has them.
    public let makeIgnoredFieldLoops: @MainActor @Sendable (_ records: [TaskRecord]) -> ConcreteLoops?
    /// The ways the strategy derives values, its usual one first.
    public let derivationStyles: [DerivationStyle]

    public var name: String { descriptor.name }

    /// The entry of strategy `S`: `StrategyEntry(MyStore.self)`.
    public init<S: ObservationStrategy>(_ type: S.Type) {
        descriptor = S.descriptor
        makeStore = { records in try S(records: records) }
        makeConcreteLoops = { records in S.concreteLoops(records: records) }
        makeIgnoredFieldLoops = { records in S.ignoredFieldLoops(records: records) }
        derivationStyles = S.derivationStyles
    }
}

/// Every strategy obsbench knows, in the order reports list them. Adding a strategy means adding
/// its folder and one line here; no workload changes.
public enum StrategyRegistry {
    public static let all: [StrategyEntry] = [
        StrategyEntry(PlainStrategy.self),
        StrategyEntry(ObservableStrategy.self),
        StrategyEntry(ObservationsStrategy.self),
        StrategyEntry(ObservableContextStrategy.self),
        StrategyEntry(PublishedStrategy.self),
        StrategyEntry(DeduplicatedObjectStrategy.self),
        StrategyEntry(StateSubjectStrategy.self),
        StrategyEntry(StructViewModelStrategy.self),
        StrategyEntry(GRDBQueueStrategy.self),
        StrategyEntry(GRDBPoolStrategy.self),
    ]

    /// Every strategy name, in registry order.
    public static var names: [String] { all.map(\.name) }

    /// The strategy called `name`, or nil.
    public static func entry(named name: String) -> StrategyEntry? {
        all.first { $0.name == name }
    }
}
