import CustomStore
import ObsBenchConformance
import ObservationStrategies
import Testing

/// DictionaryStore keeps the semantics obsbench's numbers assume: every rule of the kit.
@Test("DictionaryStore conforms", arguments: ConformanceCase.all)
func dictionaryStoreConforms(_ rule: ConformanceCase) async throws {
    try await rule.check(StrategyEntry(DictionaryStore.self))
}

/// CoalescingStore too: its views re-run once per main-actor turn, as it declares (asynchronous,
/// coalescing), and its transactions are seen whole.
@Test("CoalescingStore conforms", arguments: ConformanceCase.all)
func coalescingStoreConforms(_ rule: ConformanceCase) async throws {
    try await rule.check(StrategyEntry(CoalescingStore.self))
}

/// ActorStreamsStore too: every view re-runs for every state the actor yields to its stream, after
/// the write returns (asynchronous, granularity `.store`), and a transaction is one state.
@Test("ActorStreamsStore conforms", arguments: ConformanceCase.all)
func actorStreamsStoreConforms(_ rule: ConformanceCase) async throws {
    try await rule.check(StrategyEntry(ActorStreamsStore.self))
}
