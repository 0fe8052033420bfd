import ObsBenchCLI
import ObservationStrategies

// obsbench measures the strategies it ships. A package of your own does the same with its store
// added: `ObsBench.main(strategies: StrategyRegistry.all + [StrategyEntry(MyStore.self)])`.
ObsBench.main(strategies: StrategyRegistry.all)
