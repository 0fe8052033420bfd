import GRDBStrategies
import ObservationStrategies

/// Every strategy obsbench knows, in the order reports list them. Adding a strategy means adding
/// its folder and one line here; no workload changes.
///
/// Its own module, so that nothing but the tool waits for GRDB: the harness (`ObsBenchKit`) builds
/// against `ObservationStrategies` alone, beside `GRDBStrategies`, and is handed this list at start.
public enum StrategyRegistry {
    public static let all: [StrategyEntry] = [
        StrategyEntry(PlainStrategy.self),
        StrategyEntry(ObservableStrategy.self),
        StrategyEntry(ObservationsStrategy.self),
        StrategyEntry(ObservableContextStrategy.self),
        StrategyEntry(PublishedStrategy.self),
        StrategyEntry(PublishedContextStrategy.self),
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
