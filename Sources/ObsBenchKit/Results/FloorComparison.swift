/// A measured row held against the row it is compared with (its floor: `plain`'s same operation,
/// or a default actor's round trip with as many callers), as the summary tables print it: the net
/// difference first, the ratio only where the floor is well measured, and neither where the
/// processes behind the two rows do not support it.
///
/// The process is the unit of replication (docs/method.md, "Comparisons"): samples taken in one
/// worker process are not independent of each other, so a comparison between rows is made from
/// the rows' values in each process, never from samples pooled across processes.
///
/// - **A timing** is compared round by round: the rounds both rows have, paired by round number
///   (round k of every strategy runs in the same stretch of the run, ``RoundMerger``), each give a
///   difference (row − floor) of the two processes' medians. The difference is supported only
///   where every paired round gives it the same sign and there are at least
///   ``minimumPairedRounds`` of them (a two-sided sign test at under 5%); where the signs differ
///   the cell says "≈ plain (rounds disagree)"; with fewer rounds, or one process, "not compared".
///   The net printed is the row's figure minus the floor's, the two figures the cells print, so
///   that a cell's difference always agrees with its figure (a median of per-round differences
///   printed beside a pooled median could exceed the figure itself); its interval is the
///   per-round differences' range (``netInterval``). Where the rounds agree in sign and the two
///   figures differ the other way, the rounds do not decide it: "rounds disagree". "× plain" is
///   the figure over the floor's, only where the net is supported and the floor is well measured
///   (``isFloorWellMeasured``): the floor's values in those rounds lie within
///   ±``maximumFloorRelativeHalfWidth`` of their median and it is at least
///   ``minimumTimedFloorNanoseconds``.
/// - **An instruction count** is compared on its layouts (each layout one process): the net's
///   interval is the row's layouts' range minus the floor's, endpoints crossed; where it includes
///   zero the cell says "≈ plain". A count made in one layout repeats exactly in that layout.
public struct FloorComparison: Sendable, Equatable {
    public var measure: CostMeasure
    public var value: Double
    public var valueInterval: ClosedRange<Double>
    public var floor: Double
    public var floorInterval: ClosedRange<Double>
    /// For a timing: the row's and the floor's value in each round both have, in round order; nil
    /// where either row's rounds are not known (and for a count, which does not use them).
    public var pairedRounds: [RoundPair]?

    /// One round's (process's) value of the row and of its floor.
    public struct RoundPair: Sendable, Equatable {
        public var row: Double
        public var floor: Double

        public init(row: Double, floor: Double) {
            self.row = row
            self.floor = floor
        }
    }

    /// What the processes behind the two rows support.
    public enum Support: Sendable, Equatable {
        /// The difference is beyond noise: every paired round (or the layouts' ranges) agree.
        case separated
        /// Counts whose layouts' ranges overlap.
        case withinNoise
        /// Paired rounds give the difference both signs.
        case roundsDisagree
        /// Fewer paired rounds than ``minimumPairedRounds`` (1: one process).
        case tooFewRounds(Int)
        /// A row's rounds are not known (no samples, no per-round values).
        case roundsUnknown
    }

    /// A timing floor below this (ns) takes no ratio: at about 30 clock cycles or more, a shift of
    /// one or two cycles between runs moves it by under 5%.
    public static let minimumTimedFloorNanoseconds = 10.0
    /// A floor whose rounds (or layouts) reach further than this fraction of its value either side takes no ratio.
    public static let maximumFloorRelativeHalfWidth = 0.05
    /// The fewest paired rounds a timed difference is supported on: with 6, all of one sign has a
    /// two-sided probability of 2/64 (3.1%) where the rows do not differ; with 5, 6.3%.
    public static let minimumPairedRounds = 6

    /// The comparison of `row` with `floor`; nil when either has no value, or when the floor does
    /// not differ from the empty loop (``ResultRow/isIndistinguishableFromEmptyLoop``: never a floor).
    public init?(_ row: ResultRow, floor: ResultRow, measure: CostMeasure) {
        guard let value = row.value, let floorValue = floor.value, !floor.isIndistinguishableFromEmptyLoop else { return nil }
        var pairs: [RoundPair]?
        if measure == .time, let rowRounds = row.roundValues, let floorRounds = floor.roundValues {
            pairs = rowRounds.keys.sorted().compactMap { round in floorRounds[round].map { RoundPair(row: rowRounds[round]!, floor: $0) } }
        }
        self.init(
            measure: measure, value: value, valueInterval: Self.interval(of: row), floor: floorValue, floorInterval: Self.interval(of: floor), pairedRounds: pairs)
    }

    public init(
        measure: CostMeasure, value: Double, valueInterval: ClosedRange<Double>, floor: Double, floorInterval: ClosedRange<Double>, pairedRounds: [RoundPair]? = nil
    ) {
        self.measure = measure
        self.value = value
        self.valueInterval = valueInterval
        self.floor = floor
        self.floorInterval = floorInterval
        self.pairedRounds = pairedRounds
    }

    /// A count's interval: its layouts' range, widened to hold its value; the value alone for a
    /// count of one layout. (A timing's bootstrap interval over pooled samples describes the row
    /// alone: comparisons of timings use ``pairedRounds``.)
    public static func interval(of row: ResultRow) -> ClosedRange<Double> {
        guard let value = row.value else { return 0...0 }
        guard let interval = row.interval else { return value...value }
        return min(interval.low, value)...max(interval.high, value)
    }

    /// A row's rounds' range (each process's value), widened to hold its value; nil where fewer
    /// than two rounds are known.
    public static func roundRange(of row: ResultRow) -> ClosedRange<Double>? {
        let values = row.orderedRoundValues
        guard values.count > 1, let value = row.value, let low = values.min(), let high = values.max() else { return nil }
        return min(low, value)...max(high, value)
    }

    /// Each paired round's difference, row − floor.
    var roundDifferences: [Double] { (pairedRounds ?? []).map { $0.row - $0.floor } }

    /// What the processes support (see the type's documentation).
    public var support: Support {
        guard measure == .time else { return netIntervalFromRanges.contains(0) ? .withinNoise : .separated }
        guard let pairedRounds else { return .roundsUnknown }
        guard pairedRounds.count >= Self.minimumPairedRounds else { return .tooFewRounds(pairedRounds.count) }
        let differences = roundDifferences
        // The figures printed must differ the way every round does.
        if differences.allSatisfy({ $0 > 0 }) { return value > floor ? .separated : .roundsDisagree }
        if differences.allSatisfy({ $0 < 0 }) { return value < floor ? .separated : .roundsDisagree }
        return .roundsDisagree
    }

    /// Row − floor: the two figures' difference, for a timing as for a count (whether the
    /// processes support it is ``support``).
    public var net: Double { value - floor }

    /// The net's interval: for a timing, the range of the paired rounds' differences; for a count,
    /// the row's lowest minus the floor's highest, to the row's highest minus the floor's lowest.
    public var netInterval: ClosedRange<Double> {
        let differences = roundDifferences
        guard measure == .time, let low = differences.min(), let high = differences.max() else { return netIntervalFromRanges }
        return low...high
    }

    private var netIntervalFromRanges: ClosedRange<Double> {
        (valueInterval.lowerBound - floorInterval.upperBound)...(valueInterval.upperBound - floorInterval.lowerBound)
    }

    /// Whether the figures do not support a difference (any ``support`` but `separated`).
    public var isWithinNoise: Bool { support != .separated }

    /// Whether a ratio to the floor would be stable: a positive floor whose rounds (a timing) or
    /// layouts (a count) lie within ±``maximumFloorRelativeHalfWidth`` of it and, for a timing,
    /// at least ``minimumTimedFloorNanoseconds``.
    public var isFloorWellMeasured: Bool {
        switch measure {
        case .instructions:
            guard floor > 0 else { return false }
            let halfWidth = max(floor - floorInterval.lowerBound, floorInterval.upperBound - floor)
            return halfWidth <= Self.maximumFloorRelativeHalfWidth * floor
        case .time:
            let floors = (pairedRounds ?? []).map(\.floor).sorted()
            guard !floors.isEmpty else { return false }
            let center = Statistics.percentile(floors, 0.5)
            guard center >= Self.minimumTimedFloorNanoseconds else { return false }
            return max(center - floors.first!, floors.last! - center) <= Self.maximumFloorRelativeHalfWidth * center
        }
    }

    /// Row ÷ floor, the two figures', where the net is beyond noise and the floor well measured;
    /// nil otherwise.
    public var ratio: Double? {
        guard !isWithinNoise, isFloorWellMeasured else { return nil }
        return value / floor
    }

    /// What a table prints beside the row's value: "≈ plain", "≈ plain (rounds disagree)", "not
    /// compared: one process", "+52.1 ns", "+1.22 µs, ×31".
    public func text(floorName: String) -> String {
        switch support {
        case .withinNoise: return "≈ \(floorName)"
        case .roundsDisagree: return "≈ \(floorName) (rounds disagree)"
        case .tooFewRounds(let rounds): return rounds == 1 ? "not compared: one process" : "not compared: \(rounds) rounds"
        case .roundsUnknown: return "not compared: rounds unknown"
        case .separated:
            let net = measure == .time ? NumberFormat.signedNanoseconds(net) : NumberFormat.signedInstructions(net)
            return ratio.map { net + ", ×" + NumberFormat.ratio($0) } ?? net
        }
    }

    /// The footnote that says how a table's comparisons are made, naming the floor.
    static func footnote(floorName: String) -> String {
        "+/-: net of \(floorName), the figure minus \(floorName)'s, judged from each worker process's median (the process is the unit of replication): timed, "
            + "printed only where all of at least \(minimumPairedRounds) rounds paired by number agree in sign with it (else "
            + "\"≈ \(floorName) (rounds disagree)\"; fewer rounds: \"not compared\"); counted, where the layouts' ranges do not overlap (else ≈ \(floorName)). "
            + "× \(floorName) only where \(floorName)'s rounds (layouts) are within ±\(NumberFormat.percent(maximumFloorRelativeHalfWidth)) of it and, timed, it is "
            + "\(NumberFormat.count(minimumTimedFloorNanoseconds)) ns or more (docs/method.md, \"Comparisons\")"
    }
}
