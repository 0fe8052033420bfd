import ObservationStrategies

/// How much of a protocol-path figure is the harness's, from the concrete reference
/// (`ConcreteReferenceWorkload`): net of `plain`, the strategy's cost through the protocol
/// (`read-untracked`, `write-unobserved`) against its cost on its own record type in a tight loop.
/// What the harness adds the same to every strategy cancels in "net of plain"; what is left over
/// is harness work this strategy pays and `plain` does not.
///
/// A share is defined only where the protocol path costs more than `plain`'s beyond the noise, and
/// it is printed only where the protocol path costs more than the concrete loop beyond the noise
/// (``reading``). The process is the unit of replication: timed, each round (worker process, the
/// four rows paired by round number) gives its own nets, and a difference is beyond the noise only
/// where all of at least ``FloorComparison/minimumPairedRounds`` rounds agree in sign; counted,
/// each difference's interval is the crossed difference of its rows' layouts' ranges
/// (``FloorComparison/interval(of:)``).
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
    /// Timed: each round's nets (the four rows' values in that process, paired by round number),
    /// which the reading rests on; nil where a row's rounds are not known, and for counts.
    public var roundNets: [RoundNets]?

    /// One round's protocol and concrete nets, each net of `plain`'s in the same round.
    public struct RoundNets: Sendable, Equatable {
        public var protocolNet: Double
        public var concreteNet: Double

        public init(protocolNet: Double, concreteNet: Double) {
            self.protocolNet = protocolNet
            self.concreteNet = concreteNet
        }

        /// What the harness adds in this round.
        public var harness: Double { protocolNet - concreteNet }
    }

    public init(
        strategy: String, operation: String, measure: CostMeasure, protocolNet: Double, concreteNet: Double, protocolNetInterval: ClosedRange<Double>? = nil,
        concreteNetInterval: ClosedRange<Double>? = nil, roundNets: [RoundNets]? = nil
    ) {
        self.strategy = strategy
        self.operation = operation
        self.measure = measure
        self.protocolNet = protocolNet
        self.concreteNet = concreteNet
        self.protocolNetInterval = protocolNetInterval ?? protocolNet...protocolNet
        self.concreteNetInterval = concreteNetInterval ?? concreteNet...concreteNet
        self.roundNets = roundNets
    }

    /// A timed share from each round's nets: the nets printed are their medians.
    public init(strategy: String, operation: String, roundNets: [RoundNets]) {
        let median = { (values: [Double]) in values.isEmpty ? 0 : Statistics.percentile(values.sorted(), 0.5) }
        let protocolNets = roundNets.map(\.protocolNet)
        let concreteNets = roundNets.map(\.concreteNet)
        self.init(
            strategy: strategy, operation: operation, measure: .time, protocolNet: median(protocolNets), concreteNet: median(concreteNets),
            protocolNetInterval: (protocolNets.min() ?? 0)...(protocolNets.max() ?? 0), concreteNetInterval: (concreteNets.min() ?? 0)...(concreteNets.max() ?? 0),
            roundNets: roundNets)
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
        /// Timed: the rounds give the harness's difference both signs.
        case roundsDisagree
        /// Timed: fewer than ``FloorComparison/minimumPairedRounds`` rounds are known for all four rows (1: one process).
        case tooFewRounds(Int)
    }

    /// What the figures support: no share unless ``protocolNet``'s interval is above zero, and a
    /// share only where ``harnessInterval`` excludes zero.
    public var reading: Reading {
        if measure == .time {
            let rounds = roundNets ?? []
            guard rounds.count >= FloorComparison.minimumPairedRounds else { return .tooFewRounds(rounds.count) }
            if rounds.allSatisfy({ $0.protocolNet < 0 }) { return .protocolBelowPlain }
            if !rounds.allSatisfy({ $0.protocolNet > 0 }) { return .protocolNotAbovePlain }
            if rounds.allSatisfy({ $0.harness < 0 }) { return .concreteSlower }
            if !rounds.allSatisfy({ $0.harness > 0 }) { return .roundsDisagree }
            return .share(Statistics.percentile(rounds.map(\.harness).sorted(), 0.5) / protocolNet)
        }
        if protocolNetInterval.upperBound < 0 { return .protocolBelowPlain }
        if protocolNetInterval.lowerBound <= 0 { return .protocolNotAbovePlain }
        if harnessInterval.contains(0) { return .withinNoise }
        if harness < 0 { return .concreteSlower }
        return .share(harness / protocolNet)
    }

    /// The table's cell: "7%", "within noise", "rounds disagree", "concrete slower", "none: ≈ plain",
    /// "none: < plain", "one process".
    public var cell: String {
        switch reading {
        case .share(let fraction): NumberFormat.fixed(fraction * 100, digits: 0) + "%"
        case .withinNoise: "within noise"
        case .concreteSlower: "concrete slower"
        case .protocolNotAbovePlain: "none: ≈ plain"
        case .protocolBelowPlain: "none: < plain"
        case .roundsDisagree: "rounds disagree"
        case .tooFewRounds(let rounds): rounds == 1 ? "one process" : "\(rounds) rounds: none"
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
                    if measure == .time {
                        // Each round's four values, from the rounds all four rows have.
                        let four = [viaProtocol, plainViaProtocol, concrete, plainConcrete].map { $0.roundValues ?? [:] }
                        let rounds = four[0].keys.sorted().filter { round in four.allSatisfy { $0[round] != nil } }
                        let nets = rounds.map { round in
                            RoundNets(protocolNet: four[0][round]! - four[1][round]!, concreteNet: four[2][round]! - four[3][round]!)
                        }
                        shares.append(HarnessShare(strategy: strategy, operation: operation, roundNets: nets))
                        continue
                    }
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
        if measure == .time, (roundNets ?? []).isEmpty {
            return "\(strategy) \(operation): no round known for all four rows (rounds unknown), no share"
        }
        let figures = "\(strategy) \(operation): \(format(protocolNet)) via the protocol, \(format(concreteNet)) concrete, net of plain"
        switch reading {
        case .share: return figures + ": harness " + cell
        case .withinNoise: return figures + ": the difference is within noise, no share"
        case .concreteSlower: return figures + ": the concrete loop is slower, no share"
        case .protocolNotAbovePlain: return figures + ": the protocol path is not above plain's beyond noise, no share"
        case .protocolBelowPlain: return figures + ": the protocol path is below plain's, no share"
        case .roundsDisagree:
            // The harness's per-round differences (ns), not shares: a share is never printed negative.
            let harness = (roundNets ?? []).map(\.harness)
            let range = harness.isEmpty ? "" : " (\(NumberFormat.signedNanoseconds(harness.min()!)) to \(NumberFormat.signedNanoseconds(harness.max()!)) by round)"
            return figures + ": the harness's difference changes sign between rounds\(range), no share"
        case .tooFewRounds(let rounds):
            return figures + ": \(rounds == 1 ? "one process" : "\(rounds) rounds"), too few to compare (\(FloorComparison.minimumPairedRounds)+ needed), no share"
        }
    }
}
