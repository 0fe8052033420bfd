import Foundation

/// The claims file (`claims/claims.json`): statements developers choose strategies by, each with
/// where it is commonly stated and the checks that decide it from a run's rows. Adding a claim
/// needs no code: a selector names the rows, and a range says what the claim predicts.
public struct ClaimsFile: Codable, Sendable {
    /// How the file reads "~X" and what the verdicts mean, shown in the report.
    public var method: String
    public var claims: [Claim]

    public static func load(_ path: String) throws(ClaimsError) -> ClaimsFile {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ClaimsError("cannot read the claims file \(path): \(error.localizedDescription)")
        }
        let file: ClaimsFile
        do {
            file = try JSONDecoder().decode(ClaimsFile.self, from: data)
        } catch {
            throw ClaimsError("the claims file \(path) is not valid: \(error)")
        }
        try file.validate(path)
        return file
    }

    /// Refuses claims that would hold by default: no check and no reason, or a check without a range.
    func validate(_ path: String) throws(ClaimsError) {
        var seen = Set<String>()
        for claim in claims {
            guard seen.insert(claim.id).inserted else { throw ClaimsError("\(path): claim id '\(claim.id)' appears twice") }
            if claim.checks.isEmpty && claim.notMeasurable == nil {
                throw ClaimsError("\(path): claim '\(claim.id)' has no checks and no not_measurable reason")
            }
            let requirements = claim.requires ?? []
            for check in claim.checks + requirements where check.low == nil && check.high == nil && check.above == nil {
                throw ClaimsError("\(path): claim '\(claim.id)', check '\(check.what)' predicts nothing (no low, no high, no above)")
            }
            for check in claim.checks + requirements {
                for selector in check.selectors where selector.largest != nil && !["objects", "subscribers"].contains(selector.largest!) {
                    throw ClaimsError("\(path): claim '\(claim.id)': largest must be objects or subscribers, not '\(selector.largest!)'")
                }
            }
            for check in claim.checks where Self.tornMetrics.contains(check.row.metric) {
                let rerun = requirements.contains { requirement in
                    let row = requirement.row
                    return row.suite == check.row.suite && row.workload == check.row.workload && row.strategy == check.row.strategy
                        && row.metric == .rerunsPerTransaction && requirement.minus == nil && requirement.excludesZero
                }
                guard rerun else {
                    throw ClaimsError(
                        "\(path): claim '\(claim.id)', check '\(check.what)' counts torn states, which a view that never re-ran cannot show: the claim must require \(Metric.rerunsPerTransaction.name) > 0 of \(check.row.strategy) in \(check.row.suite)/\(check.row.workload) (\"requires\": [{..., \"above\": 0}])"
                    )
                }
            }
        }
    }

    /// The metrics that count torn states: zero of them says something only if the views re-ran.
    static let tornMetrics: Set<Metric> = [.tornObservations, .tornPer1000Transactions, .combinedTornObservations, .combinedTornPer1000Transactions]
}

/// Why the claims file cannot be used, or why a claim's number could not be measured.
public struct ClaimsError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }

    /// The claims check was left out on purpose (`obsbench report --no-claims`).
    public static let leftOut = ClaimsError("left out (--no-claims)")
}

/// One claim: what is said, where, the checks that must all hold for it to hold, and what the run
/// must show for those checks to mean anything.
public struct Claim: Codable, Sendable {
    public var id: String
    public var claim: String
    /// Where it is commonly stated.
    public var source: String
    public var checks: [Check]
    /// Set when obsbench cannot measure the claim at all: why.
    public var notMeasurable: String?
    /// What must be true of the run before the checks are judged, written as checks: when one is
    /// missing or out of its range, the claim is not measurable here (its checks are shown, not
    /// judged). A claim about torn states requires that the views re-ran (`reruns_per_transaction`
    /// above 0): a view that never re-ran shows nothing torn, and nothing at all.
    public var requires: [Check]?

    enum CodingKeys: String, CodingKey {
        case id, claim, source, checks, requires
        case notMeasurable = "not_measurable"
    }
}

/// One number the claim predicts: `(row − minus + add) × factor`, divided by
/// `divided_by.row − divided_by.minus` where that is set (a ratio: one cost as a fraction of
/// another), expected within `low...high` and, where `above` is set, greater than it.
public struct Check: Codable, Sendable {
    /// What the number is, in words.
    public var what: String
    public var row: RowSelector
    public var minus: RowSelector?
    public var add: Double?
    public var factor: Double?
    /// The denominator of a ratio; it must come out above 0, or the number is not measured.
    public var dividedBy: Divisor?
    /// The unit after `factor` is applied.
    public var unit: String
    /// Inclusive bounds.
    public var low: Double?
    public var high: Double?
    /// An exclusive lower bound: `"above": 0` is "more than zero".
    public var above: Double?

    enum CodingKeys: String, CodingKey {
        case what, row, minus, add, factor, unit, low, high, above
        case dividedBy = "divided_by"
    }

    /// Every row selector the check reads: its row, `minus`, and the divisor's.
    var selectors: [RowSelector] {
        [row] + [minus, dividedBy?.row, dividedBy?.minus].compactMap { $0 }
    }

    /// Whether the range leaves 0 out from below (`low` > 0 or `above` ≥ 0).
    var excludesZero: Bool { (low.map { $0 > 0 } ?? false) || (above.map { $0 >= 0 } ?? false) }

    /// Whether `value` is in the range.
    func contains(_ value: Double) -> Bool {
        (low.map { value >= $0 } ?? true) && (high.map { value <= $0 } ?? true) && (above.map { value > $0 } ?? true)
    }
}

/// What a check's number is divided by: `row − minus`, e.g. a cost through the protocol net of
/// `plain`'s, for the concrete loop's cost as a fraction of it.
public struct Divisor: Codable, Sendable {
    public var row: RowSelector
    public var minus: RowSelector?
}

/// Picks one row of `results.csv` by its columns; where several match, `largest` names the column
/// (`objects` or `subscribers`) whose largest value wins (a sweep's last point).
public struct RowSelector: Codable, Sendable, CustomStringConvertible {
    public var suite: String
    public var workload: String
    public var strategy: String
    /// Decoded by name (``Metric/named(_:unit:)``).
    public var metric: Metric
    public var executor: String?
    public var objects: Int?
    public var subscribers: Int?
    public var concurrency: Int?
    public var largest: String?

    public var description: String {
        var text = "\(suite)/\(workload)/\(strategy)/\(metric)"
        if let executor { text += " executor=\(executor)" }
        if let objects { text += " objects=\(objects)" }
        if let subscribers { text += " S=\(subscribers)" }
        if let concurrency { text += " c=\(concurrency)" }
        return text
    }

    /// The matching row with a value, or why there is none.
    func select(from rows: [ResultRow]) -> Result<ResultRow, ClaimsError> {
        let query = RowQuery(
            suite: suite, workload: workload, strategy: strategy, executor: executor, metric: metric, objects: objects, subscribers: subscribers,
            concurrency: concurrency)
        let matching = rows.matching(query)
        let chosen: ResultRow?
        switch largest {
        case "objects": chosen = matching.max { $0.objects < $1.objects }
        case "subscribers": chosen = matching.max { $0.subscribers < $1.subscribers }
        default:
            guard matching.count <= 1 else { return .failure(ClaimsError("\(matching.count) rows match \(self)")) }
            chosen = matching.first
        }
        guard let chosen else {
            if rows.contains(where: { $0.suite == suite && $0.strategy == strategy && $0.isError }) {
                return .failure(ClaimsError("the \(suite) worker of \(strategy) failed in this run"))
            }
            let otherMetrics = Set(rows.filter { $0.suite == suite && $0.workload == workload && $0.strategy == strategy }.map(\.metric.name)).sorted()
            if !otherMetrics.isEmpty && !otherMetrics.contains(metric.name) {
                return .failure(
                    ClaimsError("the run has no row \(self): its \(suite)/\(workload)/\(strategy) rows are \(otherMetrics.joined(separator: ", ")) (made with another --measure?)"))
            }
            return .failure(ClaimsError("the run has no row \(self) (suite not run, or strategy not selected)"))
        }
        guard chosen.statistics != nil else {
            return .failure(ClaimsError("\(self) has no value here: \(chosen.note)"))
        }
        return .success(chosen)
    }
}

/// A claim judged against one run.
public struct ClaimVerdict: Sendable {
    /// What a run says of a claim.
    public enum Verdict: String, Sendable {
        case holds
        case refuted
        case notMeasurable = "not measurable here"
        /// Every number it reads comes from one worker process (or one layout): what the run shows
        /// has not been shown to repeat, so it neither holds nor is refuted.
        case notShownToRepeat = "not shown to repeat"
        /// Judged process by process (round by round, or layout by layout), some processes hold
        /// it and some refute it.
        case roundsDisagree = "rounds disagree"
    }

    /// The fewest worker processes (rounds, or layouts under Callgrind) any number the claim reads
    /// comes from; nil when it read none.
    public var processes: Int?

    public var claim: Claim
    public var verdict: Verdict
    /// Per check: what was measured and whether it fell in the claimed range, or why it was not measured.
    public var findings: [String]

    /// Judges `claim` on `rows`: when a requirement is missing or out of its range it is not
    /// measurable (its checks are listed, not judged); otherwise it holds when every check's number
    /// is in its range, is refuted when any is outside, and is not measurable when a number is
    /// missing and none is outside.
    public init(claim: Claim, rows: [ResultRow]) {
        self.claim = claim
        if let reason = claim.notMeasurable {
            verdict = .notMeasurable
            findings = [reason]
            return
        }
        var findings: [String] = []
        var unmet = 0
        for requirement in claim.requires ?? [] {
            let (finding, outcome) = Self.judge(requirement, rows: rows, claimed: "needed")
            if outcome != .inside { unmet += 1 }
            findings.append("requires \(finding)")
        }
        var outcomes: [Outcome] = []
        // Each process's own outcome, by round number, where every number a check reads has its
        // processes' values; nil once one does not.
        var byProcess: [Int: Bool]? = [:]
        var fewest: Int?
        for check in claim.checks {
            let (finding, outcome) = Self.judge(check, rows: rows, claimed: "claimed")
            outcomes.append(outcome)
            findings.append(unmet > 0 ? "\(finding) (not judged)" : finding)
            guard case .success(let read) = Self.rowsRead(check, rows: rows) else { continue }
            let processes = read.map(\.rounds).min() ?? 1
            fewest = min(fewest ?? processes, processes)
            if let values = Self.processValues(check, read: read) {
                byProcess = byProcess.map { known in
                    let rounds = known.isEmpty ? Set(values.keys) : Set(known.keys).intersection(values.keys)
                    return Dictionary(uniqueKeysWithValues: rounds.map { ($0, (known[$0] ?? true) && check.contains(values[$0]!)) })
                }
            } else {
                byProcess = nil
            }
        }
        processes = fewest
        if unmet > 0 {
            findings.insert("not judged: \(unmet) of its \((claim.requires ?? []).count) requirements not met, so its checks say nothing here", at: 0)
            verdict = .notMeasurable
        } else if outcomes.contains(.missing) && !outcomes.contains(.outside) {
            verdict = .notMeasurable
        } else if let fewest, fewest <= 1 {
            let would = outcomes.contains(.outside) ? "would be refuted" : "would hold"
            findings.append("one process: every number above comes from one worker process, so it \(would) on this run but has not been shown to repeat")
            verdict = .notShownToRepeat
        } else if let byProcess, byProcess.count >= 2, Set(byProcess.values).count > 1 {
            let holding = byProcess.values.filter { $0 }.count
            findings.append("rounds disagree: it holds in \(holding) of the \(byProcess.count) processes every number was measured in")
            verdict = .roundsDisagree
        } else {
            verdict = outcomes.contains(.outside) ? .refuted : .holds
            let judgedHow =
                byProcess.map { $0.count >= 2 ? ", each giving the same verdict" : "" }
                ?? ", judged on the figures that pool them (a number it reads has no value per process here: a count whose processes differed)"
            findings.append("rests on \(fewest ?? 0) processes" + judgedHow)
        }
        self.findings = findings
    }

    /// Where a check's number fell.
    enum Outcome { case inside, outside, missing }

    /// One check's finding ("what: value — claimed range ✓"), and where its number fell.
    static func judge(_ check: Check, rows: [ResultRow], claimed: String) -> (String, Outcome) {
        switch measure(check, rows: rows) {
        case .failure(let error):
            return ("\(check.what): not measured — \(error.description)", .missing)
        case .success(let (value, where_)):
            let inside = check.contains(value)
            return (
                "\(check.what): \(NumberFormat.claimed(value))\(check.unit.isEmpty ? "" : " " + check.unit)\(where_) — \(claimed) \(range(check)) \(inside ? "✓" : "✗")",
                inside ? .inside : .outside
            )
        }
    }

    /// The rows a check reads: its row first, then those of `minus`, the divisor and its `minus`
    /// where set (at the sweep point of the first).
    static func rowsRead(_ check: Check, rows: [ResultRow]) -> Result<[ResultRow], ClaimsError> {
        let first: ResultRow
        switch check.row.select(from: rows) {
        case .failure(let error): return .failure(error)
        case .success(let row): first = row
        }
        var read = [first]
        for selector in [check.minus, check.dividedBy?.row, check.dividedBy?.minus].compactMap({ $0 }) {
            var selector = selector
            if selector.largest == "objects" { selector.largest = nil; selector.objects = first.objects }
            if selector.largest == "subscribers" { selector.largest = nil; selector.subscribers = first.subscribers }
            switch selector.select(from: rows) {
            case .failure(let error): return .failure(error)
            case .success(let row): read.append(row)
            }
        }
        return .success(read)
    }

    /// The check's number in each worker process (by round number) that every row it reads was
    /// measured in, from the rows' own process values (``ResultRow/roundValues``); nil where a row
    /// has none (a count pooled over processes that differed), or no process is common to all.
    static func processValues(_ check: Check, read: [ResultRow]) -> [Int: Double]? {
        let perRow: [[Int: Double]] = read.compactMap { row in
            if let values = row.roundValues, !values.isEmpty { return values }
            // A count every process gave alike: each of its processes gave that value.
            guard let statistics = row.statistics, row.rounds > 1, row.isRepeatedExactly else { return nil }
            return Dictionary(uniqueKeysWithValues: (1...row.rounds).map { ($0, statistics.median) })
        }
        guard perRow.count == read.count else { return nil }
        let common = perRow.dropFirst().reduce(Set(perRow[0].keys)) { $0.intersection($1.keys) }
        guard !common.isEmpty else { return nil }
        var values: [Int: Double] = [:]
        for round in common {
            let numbers = perRow.map { $0[round]! }
            var index = 1
            var value = numbers[0]
            if check.minus != nil { value -= numbers[index]; index += 1 }
            value = (value + (check.add ?? 0)) * (check.factor ?? 1)
            if let divisor = check.dividedBy {
                var denominator = numbers[index]
                if divisor.minus != nil { denominator -= numbers[index + 1] }
                guard denominator > 0 else { return nil }
                value /= denominator
            }
            values[round] = value
        }
        return values
    }

    static func measure(_ check: Check, rows: [ResultRow]) -> Result<(Double, String), ClaimsError> {
        let first: ResultRow
        switch check.row.select(from: rows) {
        case .failure(let error): return .failure(error)
        case .success(let row): first = row
        }
        /// `selector`'s value, taken at the sweep point the first row was taken at, not its own largest.
        func pick(_ selector: RowSelector) -> Result<Double, ClaimsError> {
            var selector = selector
            if selector.largest == "objects" { selector.largest = nil; selector.objects = first.objects }
            if selector.largest == "subscribers" { selector.largest = nil; selector.subscribers = first.subscribers }
            return selector.select(from: rows).map { $0.value! }
        }
        /// `selector − minus`.
        func difference(_ selector: RowSelector, _ minus: RowSelector?) -> Result<Double, ClaimsError> {
            pick(selector).flatMap { picked in minus.map { pick($0).map { picked - $0 } } ?? .success(picked) }
        }
        var value = first.value!
        if let minus = check.minus {
            switch pick(minus) {
            case .failure(let error): return .failure(error)
            case .success(let subtracted): value -= subtracted
            }
        }
        value += check.add ?? 0
        value *= check.factor ?? 1
        if let divisor = check.dividedBy {
            switch difference(divisor.row, divisor.minus) {
            case .failure(let error): return .failure(error)
            case .success(let denominator) where denominator > 0: value /= denominator
            case .success(let denominator):
                let what = divisor.minus.map { "\(divisor.row) − \($0)" } ?? "\(divisor.row)"
                return .failure(ClaimsError("the ratio's denominator \(what) is \(NumberFormat.claimed(denominator)) here, not above 0"))
            }
        }
        let sweep = check.row.largest == "objects" ? " (N=\(first.objects))" : check.row.largest == "subscribers" ? " (S=\(first.subscribers))" : ""
        return .success((value, sweep))
    }

    static func range(_ check: Check) -> String {
        let inclusive: String? =
            switch (check.low, check.high) {
            case let (low?, high?) where low == high: NumberFormat.claimed(low)
            case let (low?, high?): "\(NumberFormat.claimed(low))–\(NumberFormat.claimed(high))"
            case let (low?, nil): "≥ \(NumberFormat.claimed(low))"
            case let (nil, high?): "≤ \(NumberFormat.claimed(high))"
            case (nil, nil): nil
            }
        let exclusive = check.above.map { "> \(NumberFormat.claimed($0))" }
        return [exclusive, inclusive].compactMap { $0 }.joined(separator: ", ").nonEmpty ?? "anything"
    }
}

extension String {
    /// Self, or nil when empty.
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
