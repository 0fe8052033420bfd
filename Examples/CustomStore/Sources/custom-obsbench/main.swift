import CustomStore
import ObsBenchCLI
import ObservationStrategies

// obsbench, measuring DictionaryStore beside every built-in strategy:
//   swift run custom-obsbench --suite latency --quick
//   swift run custom-obsbench gate --baseline A --current B
ObsBench.main(strategies: StrategyRegistry.all + [StrategyEntry(DictionaryStore.self)])
