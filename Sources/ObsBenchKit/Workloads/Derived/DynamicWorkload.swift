import ObservationStrategies

/// The reactivity benchmarks' unstable dependencies: a derived value reads record 2's priority
/// or record 3's, depending on record 1's `isComplete`. Once it has switched to record 3, a write
/// to record 2's priority, which it no longer reads, should re-run nothing: every re-run counted
/// here is avoidable.
public struct DynamicWorkload: Workload {
    public let name = "dynamic"
    public let summary = "a view reads record 2's or record 3's priority depending on record 1's isComplete; after it switches, writes to the one it no longer reads"
    public let countsInstructions = true

    public init() {}

    public func writesRows(named rowWorkload: String) -> Bool { DerivedRows.isRow(rowWorkload, of: name) }

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        try await context.measureDerived(workload: name) { try Self.scenario(records: context.objects) }
    }

    static func scenario(records: Int) throws -> DerivedScenario {
        guard records >= 3 else { throw DerivedCheckError.tooFewRecords("the dynamic view reads records 1, 2 and 3; the store holds \(records)") }
        let condition = FieldRef(1, .isComplete)
        let first = FieldRef(2, .priority)
        let second = FieldRef(3, .priority)
        let graph = DerivedSpec(nodes: [
            DerivedNode(name: "pick", reads: [condition, first, second]) { reader in
                guard case .isComplete(let useFirst) = reader.field(condition) else { return .int(0) }
                guard case .priority(let value) = reader.field(useFirst ? first : second) else { return .int(0) }
                return .int(value)
            }
        ])
        return DerivedScenario(
            graph: graph, views: [DerivedViewSpec(graph: graph, nodes: [0])],
            setup: [FieldWrite(1, .isComplete(true))], prelude: [FieldWrite(1, .isComplete(false))],
            write: { FieldWrite(2, .priority($0 % 2 == 0 ? 9 : 1)) },
            note: "record 2's priority 1 ↔ 9, which the view read before record 1's isComplete switched it to record 3")
    }
}
