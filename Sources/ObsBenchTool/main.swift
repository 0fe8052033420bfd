import BuiltInStrategies
import ObsBenchCLI
import ObservationStrategies

// obsbench itself: every command, built in release for every number. `swift run obsbench` starts
// the small launcher (Sources/obsbench), which builds this product in release and hands it the run.
// A package of your own does the same with its store added:
// `ObsBench.main(strategies: StrategyRegistry.all + [StrategyEntry(MyStore.self)])`.
ObsBench.main(strategies: StrategyRegistry.all)
