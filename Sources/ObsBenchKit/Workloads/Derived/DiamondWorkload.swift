import ObservationStrategies

/// The reactivity benchmarks' diamond: one source derived from a record, two values derived from
/// it, and a view that reads both. A view that sees one of them updated and the other not has seen
/// a glitch: a pair no single state of the record produces.
public struct DiamondWorkload: Workload {
    public let name = "diamond"
    public let summary = "two values derived from one record's priority (×2 and ×3 of it), one view reading both; glitches counted"
    public let countsInstructions = true

    public init() {}

    /// Its rows in every style, and its concrete loop's (``ConcreteApp``).
    public func writesRows(named rowWorkload: String) -> Bool { DerivedRows.isRow(rowWorkload, of: name) || rowWorkload == DerivedRows.concreteName(name) }

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        var output = try await context.measureDerived(workload: name) { Self.scenario() }
        output.append(
            try await context.measureConcreteDerived(workload: name) { app in
                ConcreteDerivedLoop.diamond(app, records: TaskRecord.sample(count: context.objects), scenario: Self.scenario())
            })
        return output
    }

    static func scenario() -> DerivedScenario {
        let source = FieldRef(1, .priority)
        let graph = DerivedSpec(nodes: [
            DerivedNode(name: "source", reads: [source]) { reader in
                guard case .priority(let value) = reader.field(source) else { return .int(0) }
                return .int(value)
            },
            DerivedNode(name: "double", reads: [], inputs: [0]) { reader in
                guard case .int(let value) = reader.node(0) else { return .int(0) }
                return .int(value * 2)
            },
            DerivedNode(name: "triple", reads: [], inputs: [0]) { reader in
                guard case .int(let value) = reader.node(0) else { return .int(0) }
                return .int(value * 3)
            },
        ])
        return DerivedScenario(
            graph: graph, views: [DerivedViewSpec(graph: graph, nodes: [1, 2])],
            write: { FieldWrite(1, .priority($0 % 2 == 0 ? 5 : 0)) }, note: "record 1's priority 0 ↔ 5, read by both sides of the diamond")
    }
}
