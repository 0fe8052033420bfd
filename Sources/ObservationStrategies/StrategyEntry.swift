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
