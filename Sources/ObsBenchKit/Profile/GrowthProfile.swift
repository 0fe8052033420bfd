/// The profile of b: where the instructions of each further view go, function by function, from
/// a counted scaling sweep's profiles (``CountedScalingSweep``). Two points of one sweep (one
/// suite, workload and strategy at S = `low` and `high` views) each have a per-operation profile
/// in `profile.csv`; per function, (own Ir/write at `high` − at `low`) / (`high` − `low`) is its
/// share of the Ir each view between them adds, and the shares sum to the sweep's difference
/// quotient, (Ir/write at `high` − at `low`) / (`high` − `low`): b where the counts lie on a line.
///
/// ```swift
/// let summary = try ProfileSummary.load("results/latest")
/// for sweep in GrowthProfile.all(in: summary) { print(sweep.text(top: 10)) }
/// // scaling/scaling-unrelated/published objects=… S=10 → S=100: 1525 Ir per further view …
/// ```
public struct GrowthProfile: Sendable {
    /// The two points, by their profiles' keys (same but for `subscribers`).
    public var low: RowKey
    public var high: RowKey
    /// One function's own Ir per further view.
    public struct Function: Sendable, Equatable {
        public var function: String
        public var group: CostGroup
        public var object: String
        public var perView: Double
    }
    /// Every function whose own cost moved, largest |Ir per view| first.
    public var functions: [Function]
    /// The functions' sum: Ir per further view between the two points.
    public var perView: Double { functions.reduce(0) { $0 + $1.perView } }

    /// Per-view Ir by group, largest first.
    public var groups: [(group: CostGroup, perView: Double)] {
        Dictionary(grouping: functions, by: \.group).map { ($0.key, $0.value.reduce(0) { $0 + $1.perView }) }
            .sorted { (abs($0.1), $1.0.rawValue) > (abs($1.1), $0.0.rawValue) }
    }

    /// The profile of b between two rows of `summary`; nil where either has no profile, or they
    /// are not two sizes of one sweep.
    public init?(_ summary: ProfileSummary, low: RowKey, high: RowKey) {
        var sameSweep = low
        sameSweep.subscribers = high.subscribers
        guard sameSweep == high, high.subscribers > low.subscribers, let lower = summary.row(low), let upper = summary.row(high), lower.error == nil,
            upper.error == nil
        else { return nil }
        self.low = low
        self.high = high
        struct Name: Hashable { var function, object: String }
        var byName: [Name: Function] = [:]
        let views = Double(high.subscribers - low.subscribers)
        for (row, sign) in [(lower, -1.0), (upper, 1.0)] {
            for function in row.functions {
                byName[
                    Name(function: function.function, object: function.object),
                    default: Function(function: function.function, group: function.group, object: function.object, perView: 0)
                ].perView += sign * (function.selfPerOperation ?? 0) / views
            }
        }
        functions = byName.values.filter { abs($0.perView) >= 0.0005 }.sorted { (abs($0.perView), $1.function) > (abs($1.perView), $0.function) }
    }

    /// The profile of b of every sweep in `summary` (rows of one suite, workload, strategy and
    /// executor at two or more S): between `from` and `to` views when both are given (rows
    /// without both points are left out), else between the sweep's two largest S, the decade its
    /// class is read from.
    public static func all(in summary: ProfileSummary, from: Int? = nil, to: Int? = nil) -> [GrowthProfile] {
        var sweeps: [RowKey: [RowKey]] = [:]
        var order: [RowKey] = []
        for row in summary.rows where row.error == nil {
            var sweep = row.key
            sweep.subscribers = 0
            if sweeps[sweep] == nil { order.append(sweep) }
            sweeps[sweep, default: []].append(row.key)
        }
        return order.compactMap { sweep -> GrowthProfile? in
            let keys = sweeps[sweep]!.sorted { $0.subscribers < $1.subscribers }
            if let from, let to {
                guard let low = keys.first(where: { $0.subscribers == from }), let high = keys.first(where: { $0.subscribers == to }) else { return nil }
                return GrowthProfile(summary, low: low, high: high)
            }
            guard keys.count >= 2 else { return nil }
            return GrowthProfile(summary, low: keys[keys.count - 2], high: keys[keys.count - 1])
        }
    }

    /// What `obsbench profile --per-view` prints for one sweep: its Ir per further view, its groups,
    /// and its `top` functions.
    public func text(top: Int) -> String {
        let name = "\(high.suite)/\(high.workload)/\(high.strategy) objects=\(high.objects)"
        var text = "\(name) S=\(low.subscribers) → S=\(high.subscribers): \(NumberFormat.instructions(perView)) per further view in \(functions.count) functions\n\n"
        let groupShares = groups.map { ProfileSummary.share($0.perView, of: perView) }
        text += TextTable(
            header: ["group", "Ir/view", "share"],
            rows: zip(groups, groupShares).map { [$0.group.rawValue, NumberFormat.irPerOperation($0.perView), $1] },
            alignment: .numbers, indent: "  "
        ).text()
        text += ProfileSummary.notes(shares: groupShares, total: perView).map { "  (\($0))\n" }.joined()
        text += "\n"
        let listed = Array(functions.prefix(top))
        let functionShares = listed.map { ProfileSummary.share($0.perView, of: perView) }
        text += TextTable(
            header: ["Ir/view", "share", "group", "function"],
            rows: zip(listed, functionShares).map { [NumberFormat.irPerOperation($0.perView), $1, $0.group.rawValue, ProfileSummary.shortName($0.function)] },
            alignment: .right([0, 1]), indent: "  "
        ).text()
        text += ProfileSummary.notes(shares: functionShares, total: perView, explained: groupShares).map { "  (\($0))\n" }.joined()
        return text
    }
}
