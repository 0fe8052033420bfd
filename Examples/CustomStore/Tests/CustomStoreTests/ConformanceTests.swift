import CustomStore
import ObsBenchConformance
import ObservationStrategies
import Testing

/// DictionaryStore keeps the semantics obsbench's numbers assume: every rule of the kit.
@Test("DictionaryStore conforms", arguments: ConformanceCase.all)
func dictionaryStoreConforms(_ rule: ConformanceCase) async throws {
    try await rule.check(StrategyEntry(DictionaryStore.self))
}
