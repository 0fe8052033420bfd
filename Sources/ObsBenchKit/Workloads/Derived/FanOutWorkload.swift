import ObservationStrategies

/// The reactivity benchmarks' broad propagation: W values derived from one record's priority, each
/// read by a view of its own.
public struct FanOutWorkload: Workload {
    /// Derived values, and views.
    public let width: Int
    public var name: String { "fan-out-\(width)" }
    public var summary: String { "\(width) values derived from one record's priority, each read by a view of its own" }
    /// Counted under `--measure instructions` at every W, on short loops of write pairs at W = 100
    /// and 1,000 (``CountedWrites``), where a write re-runs that many views.
    public let countsInstructions = true

    /// The widths the suite measures.
    public static let widths = [10, 100, 1_000]

    public init(width: Int) {
        self.width = max(1, width)
    }

    /// Its rows in every style, and its concrete loop's (``ConcreteApp``).
    public func writesRows(named rowWorkload: String) -> Bool { DerivedRows.isRow(rowWorkload, of: name) || rowWorkload == DerivedRows.concreteName(name) }

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        var output = try await context.measureDerived(workload: name) { scenario() }
        output.append(
            try await context.measureConcreteDerived(workload: name) { app in
                ConcreteDerivedLoop.fanOut(app, width: width, records: TaskRecord.sample(count: context.objects), scenario: scenario())
            })
        return output
    }

    func scenario() -> DerivedScenario {
        let source = FieldRef(1, .priority)
        let graph = DerivedSpec(
            nodes: (0..<width).map { offset in
                DerivedNode(name: "fan-\(offset)", reads: [source]) { reader in
                    guard case .priority(let value) = reader.field(source) else { return .int(0) }
                    return .int(value + offset)
                }
            })
        return DerivedScenario(
            graph: graph, views: (0..<width).map { DerivedViewSpec(graph: graph, nodes: [$0]) },
            write: { FieldWrite(1, .priority($0 % 2 == 0 ? 5 : 0)) }, note: "record 1's priority 0 ↔ 5, read by \(width) derived values")
    }
}
