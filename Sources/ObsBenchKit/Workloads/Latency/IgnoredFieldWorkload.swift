import ObservationStrategies

/// The design notes' first mitigation for a hot field of an `@Observable` record: mark it
/// `@ObservationIgnored`. Reads and writes `priority` on such records in the same tight loop as
/// `concrete-reference` (rows `read-ignored-concrete`, `write-ignored-concrete`), to set against
/// that workload's tracked `priority` (`read-untracked-concrete`, `write-unobserved-concrete`) of
/// the same strategy. Only strategies whose record can ignore a field give rows (`observable`).
/// An ignored field is a stored property, so the optimiser may hoist or fold its loop as it does
/// `plain`'s concrete loop: compare it with `plain`'s, not with a cost per read.
public struct IgnoredFieldWorkload: Workload {
    public let name = "ignored-field"
    public let summary = "read and write an @ObservationIgnored field of the @Observable record in a tight loop (observable), against the tracked field"
    public let countsInstructions = true

    /// Nothing is delivered: the operation's counts are the calling thread's alone.
    public let measuredThreads = MeasuredThreads.callingThread

    /// Its rows are the ignored field's read and write.
    public func writesRows(named rowWorkload: String) -> Bool { [Self.readName, Self.writeName].contains(rowWorkload) }
    public static let readName = "read-ignored-concrete"
    public static let writeName = "write-ignored-concrete"

    public init() {}

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        guard let loops = try context.measuredStrategy().makeIgnoredFieldLoops(TaskRecord.sample(count: context.objects)) else { return WorkloadOutput() }
        return try await context.measureConcreteLoops(
            loops, readName: Self.readName, writeName: Self.writeName,
            readNote:
                "@ObservationIgnored priority of records 1...N in turn on the concrete record type, summed; a stored property like plain's (compare read-untracked-concrete, plain and observable)",
            writeNote:
                "@ObservationIgnored priority of records 1...N in turn on the concrete record type, each a new value; a stored property like plain's (compare write-unobserved-concrete, plain and observable)"
        )
    }
}
