import ObservationStrategies

/// The reactivity benchmarks' deep propagation: a chain of D derivations, each of the one before
/// (the first of a record's priority), and a view reading the last.
public struct ChainWorkload: Workload {
    /// Derivations in the chain.
    public let depth: Int
    public var name: String { "chain-\(depth)" }
    public var summary: String { "a chain of \(depth) derivations of derivations of one record's priority, one view reading the last" }
    public let countsInstructions = true

    /// The depths the suite measures.
    public static let depths = [1, 4, 16]

    public init(depth: Int) {
        self.depth = max(1, depth)
    }

    public func writesRows(named rowWorkload: String) -> Bool { DerivedRows.isRow(rowWorkload, of: name) }

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        try await context.measureDerived(workload: name) { scenario() }
    }

    func scenario() -> DerivedScenario {
        let source = FieldRef(1, .priority)
        var nodes = [
            DerivedNode(name: "chain-1", reads: [source]) { reader in
                guard case .priority(let value) = reader.field(source) else { return .int(0) }
                return .int(value + 1)
            }
        ]
        for level in 1..<depth {
            nodes.append(
                DerivedNode(name: "chain-\(level + 1)", reads: [], inputs: [level - 1]) { reader in
                    guard case .int(let value) = reader.node(level - 1) else { return .int(0) }
                    return .int(value + 1)
                })
        }
        let graph = DerivedSpec(nodes: nodes)
        return DerivedScenario(
            graph: graph, views: [DerivedViewSpec(graph: graph, nodes: [depth - 1])],
            write: { FieldWrite(1, .priority($0 % 2 == 0 ? 5 : 0)) }, note: "record 1's priority 0 ↔ 5, at the root of \(depth) derivations")
    }
}
