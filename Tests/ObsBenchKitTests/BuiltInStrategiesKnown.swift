import BuiltInStrategies
import ObsBenchKit

/// What `ObsBench.main` does before any command: tells the harness the built-in strategies'
/// descriptors, which it reads runs whose `run.json` predates `strategy_details` with (the
/// committed runs, and the hand-made runs of the gate's tests). A suite calls it in its `init()`,
/// which Swift Testing runs before each of its tests.
enum BuiltInStrategiesKnown {
    static func declare() {
        KnownStrategies.descriptors = StrategyRegistry.all.map(\.descriptor)
    }
}
