/// One record's measured loops: what ``WorkloadContext/measureCost(label:sampler:drawing:)`` runs
/// on each record it draws.
///
/// Which entries of a hash table collide depends on where the table lies, so an operation that
/// looks up an `@Observable` record's observers by key path costs one of a few amounts on a given
/// record (`observable` transaction-2-fields: about 21,750 or about 22,400 Ir). Counting a
/// synchronous strategy on many records and taking the mean measures what the operation costs
/// across them, not on record 1's accidental table:
///
/// ```swift
/// let measured = try await context.measureCost(label: name) { record in
///     let view = try store.subscribe(.record(record, .priority))
///     await store.settle()
///     return MeasuredDraw(
///         batch: { iterations in
///             for _ in 0..<iterations { try store.write(.priority(next()), to: record); await store.settle() }
///         },
///         emptyBatch: { iterations in
///             for _ in 0..<iterations { blackHole(FieldValue.priority(next())) }
///         },
///         end: { store.unsubscribe(view) })
/// }
/// ```
public struct MeasuredDraw {
    /// Runs the measured operation `iterations` times on the drawn record.
    public var batch: Batch
    /// The same loop with the measured work removed; its cost is subtracted.
    public var emptyBatch: Batch
    /// Ends the draw (unsubscribes its view) before the next record is drawn.
    public var end: @MainActor () async throws -> Void

    public init(batch: @escaping Batch, emptyBatch: @escaping Batch, end: @escaping @MainActor () async throws -> Void = {}) {
        self.batch = batch
        self.emptyBatch = emptyBatch
        self.end = end
    }
}

/// Sets up the loops of one draw on `record` (1-based, at most the store's record count).
public typealias Drawing = @MainActor (_ record: Int) async throws -> MeasuredDraw
