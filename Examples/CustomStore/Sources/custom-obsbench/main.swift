import BuiltInStrategies
import CustomStore
import ObsBenchCLI
import ObservationStrategies

// obsbench, measuring DictionaryStore (synchronous), CoalescingStore (asynchronous, coalescing) and
// ActorStreamsStore (asynchronous: an actor and a stream per view) beside every built-in strategy:
//   swift run custom-obsbench --suite latency --quick
//   swift run custom-obsbench gate --baseline A --current B
// PaddedStore is a fixture for .ci/run's check of heap profiles, not part of the example.
ObsBench.main(
    strategies: StrategyRegistry.all + [
        StrategyEntry(DictionaryStore.self), StrategyEntry(CoalescingStore.self), StrategyEntry(ActorStreamsStore.self),
        StrategyEntry(PaddedStore.self),
    ])
