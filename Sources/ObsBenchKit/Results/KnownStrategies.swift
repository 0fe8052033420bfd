import ObservationStrategies

/// The strategies this binary measures, by descriptor: what a run whose `run.json` predates
/// `strategy_details` is read with (``RunMetadata/descriptor(of:in:)``).
///
/// `ObsBench.main(strategies:)` sets it to the strategies it was given; a program that uses
/// `ObsBenchKit` without it (a test target) sets it to the strategies it builds with:
///
/// ```swift
/// KnownStrategies.descriptors = StrategyRegistry.all.map(\.descriptor)
/// ```
///
/// It is not a registry of its own so that this module builds without the GRDB strategies
/// (`BuiltInStrategies` names them), beside them rather than after.
public enum KnownStrategies {
    private static let storage = Locked<[StrategyDescriptor]>([])

    /// The descriptors, in the order tables list the strategies; empty until set.
    public static var descriptors: [StrategyDescriptor] {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }

    /// The descriptor of the strategy called `name`, or nil.
    public static func descriptor(named name: String) -> StrategyDescriptor? {
        descriptors.first { $0.name == name }
    }
}
