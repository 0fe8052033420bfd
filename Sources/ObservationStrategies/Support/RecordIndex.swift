/// Maps record ids (1...N) to array positions, throwing `StrategyError.unknownRecord` for any other id.
/// Every in-memory strategy uses it, so lookup costs the same everywhere.
/// `@inlinable` so that the GRDB strategies' module (`GRDBStrategies`) inlines it as this one does.
@inlinable @inline(__always)
package func recordIndex(of id: Int, count: Int) throws(StrategyError) -> Int {
    let index = id &- 1
    guard index >= 0, index < count else {
        throw StrategyError.unknownRecord(id: id, validRange: count > 0 ? 1...count : nil)
    }
    return index
}

/// Checks that `records` have ids 1...N in order, as every store requires.
package func validateRecordIDs(_ records: [TaskRecord]) throws(StrategyError) {
    for (index, record) in records.enumerated() where record.id != index + 1 {
        throw StrategyError.storeFailure("records must have ids 1...N in order; record at position \(index) has id \(record.id)")
    }
}

/// Checks every field a view reads exists, so a bad view fails at subscription, not on delivery.
package func validateViewSpec(_ spec: ViewSpec, count: Int) throws(StrategyError) {
    guard !spec.reads.isEmpty else { throw StrategyError.emptyView }
    for ref in spec.reads { _ = try recordIndex(of: ref.id, count: count) }
}
