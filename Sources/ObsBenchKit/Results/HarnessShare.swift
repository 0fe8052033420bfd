import ObservationStrategies

/// How much of a protocol-path figure is the harness's, from the concrete reference
/// (`ConcreteReferenceWorkload`): net of `plain`, the strategy's cost through the protocol
/// (`read-untracked`, `write-unobserved`) against its cost on its own record type in a tight loop.
/// What the harness adds the same to every strategy cancels in "net of plain"; what is left over
/// is harness work this strategy pays and `plain` does not.
///
/// A share is defined only where the protocol path costs more than `plain`'s beyond the noise, and
/// it is printed only where the protocol path costs more than the concrete loop beyond the noise
/// (``reading``): each difference's 95% interval is the crossed difference of its rows' intervals
/// (``FloorComparison/interval(of:)``: a timing's bootstrap interval, a count's layouts' range).
public struct HarnessShare: Sendable, Equatable {
    public var strategy: String
    /// `read` or `write`.
    public var operation: String
    public var measure: CostMeasure
    /// The strategy's figure minus `plain`'s, through the protocol.
    public var protocolNet: Double
    /// The same, on the concrete record types.
    public var concreteNet: Double
    /// ``protocolNet``'s 95% interval.
    public var protocolNetInterval: ClosedRange<Double>
    /// ``concreteNet``'s 95% interval.
    public var concreteNetInterval: ClosedRange<Double>

    public init(
        strategy: String, operation: String, measure: CostMeasure, protocolNet: Double, concreteNet: Double, protocolNetInterval: ClosedRange<Double>? = nil,
        concreteNetInterval: ClosedRange<Double>? = nil
    ) {
        self.strategy = strategy
        self.operation = operation
        self.measure = measure
        self.protocolNet = protocolNet
        self.concreteNet = concreteNet
        self.protocolNetInterval = protocolNetInterval ?? protocolNet...protocolNet
        self.concreteNetInterval = concreteNetInterval ?? concreteNet...concreteNet
    }

    /// (protocol − concrete) / protocol, net of plain: the share of the figure that is the
    /// harness's. Not a number where ``protocolNet`` is not positive (no share is defined); tables
    /// print ``reading``, which also says where the difference is within noise.
    public var share: Double { protocolNet > 0 ? (protocolNet - concreteNet) / protocolNet : .nan }

    /// protocol − concrete, net of plain: what the harness adds for this strategy.
    public var harness: Double { protocolNet - concreteNet }

    /// ``harness``'s 95% interval: ``protocolNetInterval`` minus ``concreteNetInterval``, crossed.
    public var harnessInterval: ClosedRange<Double> {
        (protocolNetInterval.lowerBound - concreteNetInterval.upperBound)...(protocolNetInterval.upperBound - concreteNetInterval.lowerBound)
    }

    /// What the figures support.
    public enum Reading: Sendable, Equatable {
        /// The harness's share of the protocol path's cost (a fraction, 0 to 1).
        case share(Double)
        /// The protocol path and the concrete loop do not differ beyond the noise.
        case withinNoise
        /// The concrete loop costs more than the protocol path beyond the noise: no share (a tight
        /// loop can run slower, e.g. a store the CPU cannot overlap with the next iteration's).
        case concreteSlower
        /// The protocol path does not cost more than `plain`'s beyond the noise: no share is defined.
        case protocolNotAbovePlain
        /// The protocol path costs less than `plain`'s beyond the noise: no share is defined.
        case protocolBelowPlain
    }

    /// What the figures support: no share unless ``protocolNet``'s interval is above zero, and a
    /// share only where ``harnessInterval`` excludes zero.
    public var reading: Reading {
        if protocolNetInterval.upperBound < 0 { return .protocolBelowPlain }
        if protocolNetInterval.lowerBound <= 0 { return .protocolNotAbovePlain }
        if harnessInterval.contains(0) { return .withinNoise }
        if harness < 0 { return .concreteSlower }
        return .share(harness / protocolNet)
    }

    /// The table's cell: "7%", "within noise", "concrete slower", "none: ≈ plain", "none: < plain".
    public var cell: String {
        switch reading {
        case .share(let fraction): NumberFormat.fixed(fraction * 100, digits: 0) + "%"
        case .withinNoise: "within noise"
        case .concreteSlower: "concrete slower"
        case .protocolNotAbovePlain: "none: ≈ plain"
        case .protocolBelowPlain: "none: < plain"
        }
    }

    /// The pairs of measured and reference workloads.
    static let pairs = [
        ("read", "read-untracked", ConcreteReferenceWorkload.readName),
        ("write", "write-unobserved", ConcreteReferenceWorkload.writeName),
    ]

    /// Every share the rows allow: each strategy other than `plain` with concrete rows, each operation, each measure.
    public static func all(in rows: [ResultRow], suite: String = "latency") -> [HarnessShare] {
        func row(_ measure: CostMeasure, _ strategy: String, _ workload: String) -> ResultRow? {
            rows.first(RowQuery(suite: suite, workload: workload, strategy: strategy, metric: measure.metric, valued: true))
        }
        /// The difference of two rows' values and its interval, crossed.
        func difference(_ row: ResultRow, _ floor: ResultRow) -> (Double, ClosedRange<Double>) {
            let (high, low) = (FloorComparison.interval(of: row), FloorComparison.interval(of: floor))
            return (row.value! - floor.value!, (high.lowerBound - low.upperBound)...(high.upperBound - low.lowerBound))
        }
        let strategies = rows.filter { $0.workload == ConcreteReferenceWorkload.readName && $0.strategy != RowKey.floorStrategy }.map(\.strategy)
        var shares: [HarnessShare] = []
        for strategy in strategies where !shares.contains(where: { $0.strategy == strategy }) {
            for measure in CostMeasure.allCases {
                for (operation, measured, reference) in pairs {
                    guard let viaProtocol = row(measure, strategy, measured), let plainViaProtocol = row(measure, RowKey.floorStrategy, measured),
                        let concrete = row(measure, strategy, reference), let plainConcrete = row(measure, RowKey.floorStrategy, reference)
                    else { continue }
                    let (protocolNet, protocolInterval) = difference(viaProtocol, plainViaProtocol)
                    let (concreteNet, concreteInterval) = difference(concrete, plainConcrete)
                    shares.append(
                        HarnessShare(
                            strategy: strategy, operation: operation, measure: measure, protocolNet: protocolNet, concreteNet: concreteNet,
                            protocolNetInterval: protocolInterval, concreteNetInterval: concreteInterval))
                }
            }
        }
        return shares
    }

    /// "observable read: 214 Ir via the protocol, 191 Ir concrete, net of plain: harness 11%"; where
    /// no share is supported, why.
    public var description: String {
        let format: (Double) -> String = measure == .time ? { $0 < 0 ? NumberFormat.signedNanoseconds($0) : NumberFormat.nanoseconds($0) } : { NumberFormat.instructions($0) }
        let figures = "\(strategy) \(operation): \(format(protocolNet)) via the protocol, \(format(concreteNet)) concrete, net of plain"
        switch reading {
        case .share: return figures + ": harness " + cell
        case .withinNoise: return figures + ": the difference is within noise, no share"
        case .concreteSlower: return figures + ": the concrete loop is slower, no share"
        case .protocolNotAbovePlain: return figures + ": the protocol path is not above plain's beyond noise, no share"
        case .protocolBelowPlain: return figures + ": the protocol path is below plain's, no share"
        }
    }
}
