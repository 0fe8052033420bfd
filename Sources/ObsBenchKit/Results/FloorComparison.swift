/// A measured row held against the row it is compared with (its floor: `plain`'s same operation,
/// or a default actor's round trip with as many callers), as the summary tables print it: the net
/// difference first, the ratio only where the floor is well measured, and neither where the two
/// rows' intervals say nothing.
///
/// - **Net of the floor** (row − floor), the headline: "+52.1 ns". Its 95% interval is the row's
///   interval minus the floor's, endpoints crossed (``netInterval``); where it includes zero (the
///   two intervals overlap) the cell says "≈ plain" instead.
/// - **× the floor**, only where the net is beyond noise and the floor is well measured
///   (``isFloorWellMeasured``): its interval is within ±``maximumFloorRelativeHalfWidth`` of its
///   value and, for a timing, it is at least ``minimumTimedFloorNanoseconds``. A floor of a few
///   nanoseconds is a few clock cycles, and moves between runs by far more than its own interval:
///   `plain`'s write-unobserved was 1.75 ns in one run and 2.13 ns in the next (`observable` ×31,
///   then ×25, its net moving 2%), view-scope's 5.2 to 6.6 ns.
///
/// A row's interval is ``ResultRow/interval``: the median's bootstrap 95% interval for a timing,
/// the layouts' range for a count made in several layouts, the value itself for an exact count.
public struct FloorComparison: Sendable, Equatable {
    public var measure: CostMeasure
    public var value: Double
    public var valueInterval: ClosedRange<Double>
    public var floor: Double
    public var floorInterval: ClosedRange<Double>

    /// A timing floor below this (ns) takes no ratio: at about 30 clock cycles or more, a shift of
    /// one or two cycles between runs moves it by under 5%.
    public static let minimumTimedFloorNanoseconds = 10.0
    /// A floor whose interval reaches further than this fraction of its value either side takes no ratio.
    public static let maximumFloorRelativeHalfWidth = 0.05

    /// The comparison of `row` with `floor`; nil when either has no value, or when the floor does
    /// not differ from the empty loop (``ResultRow/isIndistinguishableFromEmptyLoop``: never a floor).
    public init?(_ row: ResultRow, floor: ResultRow, measure: CostMeasure) {
        guard let value = row.value, let floorValue = floor.value, !floor.isIndistinguishableFromEmptyLoop else { return nil }
        self.init(measure: measure, value: value, valueInterval: Self.interval(of: row), floor: floorValue, floorInterval: Self.interval(of: floor))
    }

    public init(measure: CostMeasure, value: Double, valueInterval: ClosedRange<Double>, floor: Double, floorInterval: ClosedRange<Double>) {
        self.measure = measure
        self.value = value
        self.valueInterval = valueInterval
        self.floor = floor
        self.floorInterval = floorInterval
    }

    /// A row's 95% interval, widened to hold its value; the value alone for an exact count.
    public static func interval(of row: ResultRow) -> ClosedRange<Double> {
        guard let value = row.value else { return 0...0 }
        guard let interval = row.interval else { return value...value }
        return min(interval.low, value)...max(interval.high, value)
    }

    /// Row − floor.
    public var net: Double { value - floor }

    /// The net's 95% interval: the row's lowest minus the floor's highest, to the row's highest
    /// minus the floor's lowest.
    public var netInterval: ClosedRange<Double> {
        (valueInterval.lowerBound - floorInterval.upperBound)...(valueInterval.upperBound - floorInterval.lowerBound)
    }

    /// Whether the row does not differ from its floor beyond the two intervals (they overlap).
    public var isWithinNoise: Bool { netInterval.contains(0) }

    /// Whether a ratio to the floor would be stable: a positive floor whose interval is narrow
    /// against it and, for a timing, at least ``minimumTimedFloorNanoseconds``.
    public var isFloorWellMeasured: Bool {
        guard floor > 0 else { return false }
        let halfWidth = max(floor - floorInterval.lowerBound, floorInterval.upperBound - floor)
        guard halfWidth <= Self.maximumFloorRelativeHalfWidth * floor else { return false }
        return measure == .instructions || floor >= Self.minimumTimedFloorNanoseconds
    }

    /// Row ÷ floor where the net is beyond noise and the floor well measured; nil otherwise.
    public var ratio: Double? { !isWithinNoise && isFloorWellMeasured ? value / floor : nil }

    /// What a table prints beside the row's value: "≈ plain", "+52.1 ns", "+1.22 µs, ×31".
    public func text(floorName: String) -> String {
        if isWithinNoise { return "≈ \(floorName)" }
        let net = measure == .time ? NumberFormat.signedNanoseconds(net) : NumberFormat.signedInstructions(net)
        return ratio.map { net + ", ×" + NumberFormat.ratio($0) } ?? net
    }

    /// The footnote that says how a table's comparisons are made, naming the floor.
    static func footnote(floorName: String) -> String {
        "+/-: net of \(floorName), where the two 95% intervals do not overlap (else ≈ \(floorName)); × \(floorName) only where \(floorName)'s interval is within "
            + "±\(NumberFormat.percent(maximumFloorRelativeHalfWidth)) of it and, timed, it is \(NumberFormat.count(minimumTimedFloorNanoseconds)) ns or more: "
            + "a floor of a few ns moves between runs by more than its interval, and a ratio with it (docs/method.md, \"Comparisons\")"
    }
}
