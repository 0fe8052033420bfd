import ObservationStrategies

/// How much of a protocol-path figure is the harness's, from the concrete reference
/// (`ConcreteReferenceWorkload`): net of `plain`, the strategy's cost through the protocol
/// (`read-untracked`, `write-unobserved`) against its cost on its own record type in a tight loop.
/// What the harness adds the same to every strategy cancels in "net of plain"; what is left over
/// is harness work this strategy pays and `plain` does not.
public struct HarnessShare: Sendable, Equatable {
    public var strategy: String
    /// `read` or `write`.
    public var operation: String
    public var measure: CostMeasure
    /// The strategy's figure minus `plain`'s, through the protocol.
    public var protocolNet: Double
    /// The same, on the concrete record types.
    public var concreteNet: Double

    /// (protocol − concrete) / protocol, net of plain: the share of the figure that is the harness's.
    public var share: Double { protocolNet == 0 ? 0 : (protocolNet - concreteNet) / protocolNet }

    /// The pairs of measured and reference workloads.
    static let pairs = [
        ("read", "read-untracked", ConcreteReferenceWorkload.readName),
        ("write", "write-unobserved", ConcreteReferenceWorkload.writeName),
    ]

    /// Every share the rows allow: each strategy other than `plain` with concrete rows, each operation, each measure.
    public static func all(in rows: [ResultRow], suite: String = "latency") -> [HarnessShare] {
        func value(_ measure: CostMeasure, _ strategy: String, _ workload: String) -> Double? {
            rows.first { $0.suite == suite && $0.metric == measure.metric.name && $0.strategy == strategy && $0.workload == workload }?.value
        }
        let strategies = rows.filter { $0.workload == ConcreteReferenceWorkload.readName && $0.strategy != RowKey.floorStrategy }.map(\.strategy)
        var shares: [HarnessShare] = []
        for strategy in strategies where !shares.contains(where: { $0.strategy == strategy }) {
            for measure in CostMeasure.allCases {
                for (operation, measured, reference) in pairs {
                    guard let viaProtocol = value(measure, strategy, measured), let plainViaProtocol = value(measure, RowKey.floorStrategy, measured),
                        let concrete = value(measure, strategy, reference), let plainConcrete = value(measure, RowKey.floorStrategy, reference)
                    else { continue }
                    shares.append(
                        HarnessShare(
                            strategy: strategy, operation: operation, measure: measure,
                            protocolNet: viaProtocol - plainViaProtocol, concreteNet: concrete - plainConcrete))
                }
            }
        }
        return shares
    }

    /// "observable read: 214 Ir via the protocol, 200 Ir concrete, net of plain: harness 7%".
    public var description: String {
        let format: (Double) -> String = measure == .time ? { NumberFormat.nanoseconds($0) } : { NumberFormat.instructions($0) }
        return
            "\(strategy) \(operation): \(format(protocolNet)) via the protocol, \(format(concreteNet)) concrete, net of plain: harness \(NumberFormat.fixed(share * 100, digits: 0))%"
    }
}
