import ObservationStrategies

/// Records 1...N in an array, as ``CoalescingStore`` and ``ActorStreamsStore`` keep them: made from
/// the records a store is given, and read by id with a clear error for an id that is not one.
extension [DictionaryStore.Record] {
    /// The records a store is given, whose ids must be 1...N in order (the harness's are).
    init(validating records: [TaskRecord]) throws {
        for (index, record) in records.enumerated() where record.id != index + 1 {
            throw StrategyError.storeFailure("records must have ids 1...N in order; record at position \(index) has id \(record.id)")
        }
        self = records.map { DictionaryStore.Record(title: $0.title, isComplete: $0.isComplete, priority: $0.priority) }
    }

    /// Throws ``StrategyError/unknownRecord(id:validRange:)`` unless `id` is one of 1...count.
    func check(_ id: Int) throws {
        guard indices.contains(id - 1) else { throw StrategyError.unknownRecord(id: id, validRange: isEmpty ? nil : 1...count) }
    }

    /// Field `field` of record `id`, read `times` times (at least once), as a view body that reads
    /// it repeatedly does.
    func value(_ field: TaskField, of id: Int, times: Int = 1) throws -> FieldValue {
        try check(id)
        var value = self[id - 1].value(of: field)
        for _ in 1..<Swift.max(times, 1) { value = try self.value(field, of: id) }
        return value
    }
}
