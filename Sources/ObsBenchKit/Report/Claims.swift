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
            for check in claim.checks where check.low == nil && check.high == nil {
                throw ClaimsError("\(path): claim '\(claim.id)', check '\(check.what)' predicts nothing (no low, no high)")
            }
            for check in claim.checks {
                for selector in [check.row] + (check.minus.map { [$0] } ?? []) where selector.largest != nil && !["objects", "subscribers"].contains(selector.largest!) {
                    throw ClaimsError("\(path): claim '\(claim.id)': largest must be objects or subscribers, not '\(selector.largest!)'")
                }
            }
        }
    }
}

/// Why the claims file cannot be used, or why a claim's number could not be measured.
public struct ClaimsError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }

    /// The claims check was left out on purpose (`obsbench report --no-claims`).
    public static let leftOut = ClaimsError("left out (--no-claims)")
}

/// One claim: what is said, where, and the checks that must all hold for it to hold.
public struct Claim: Codable, Sendable {
    public var id: String
    public var claim: String
    /// Where it is commonly stated.
    public var source: String
    public var checks: [Check]
    /// Set when obsbench cannot measure the claim at all: why.
    public var notMeasurable: String?

    enum CodingKeys: String, CodingKey {
        case id, claim, source, checks
        case notMeasurable = "not_measurable"
    }
}

/// One number the claim predicts: `(row − minus + add) × factor`, expected within `low...high`.
public struct Check: Codable, Sendable {
    /// What the number is, in words.
    public var what: String
    public var row: RowSelector
    public var minus: RowSelector?
    public var add: Double?
    public var factor: Double?
    /// The unit after `factor` is applied.
    public var unit: String
    public var low: Double?
    public var high: Double?
}

/// Picks one row of `results.csv` by its columns; where several match, `largest` names the column
/// (`objects` or `subscribers`) whose largest value wins (a sweep's last point).
public struct RowSelector: Codable, Sendable, CustomStringConvertible {
    public var suite: String
    public var workload: String
    public var strategy: String
    public var metric: String
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
        let matching = rows.filter { row in
            row.suite == suite && row.workload == workload && row.strategy == strategy && row.metric == metric
                && executor.map { $0 == row.executor } ?? true && objects.map { $0 == row.objects } ?? true
                && subscribers.map { $0 == row.subscribers } ?? true && concurrency.map { $0 == row.concurrency } ?? true
        }
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
    }

    public var claim: Claim
    public var verdict: Verdict
    /// Per check: what was measured and whether it fell in the claimed range, or why it was not measured.
    public var findings: [String]

    /// Judges `claim` on `rows`: it holds when every check's number is in its range, is refuted
    /// when any is outside, and is not measurable when a number is missing and none is outside.
    public init(claim: Claim, rows: [ResultRow]) {
        self.claim = claim
        if let reason = claim.notMeasurable {
            verdict = .notMeasurable
            findings = [reason]
            return
        }
        var anyOutside = false
        var anyMissing = false
        var findings: [String] = []
        for check in claim.checks {
            switch Self.measure(check, rows: rows) {
            case .failure(let error):
                anyMissing = true
                findings.append("\(check.what): not measured — \(error.description)")
            case .success(let (value, where_)):
                let inside = (check.low.map { value >= $0 } ?? true) && (check.high.map { value <= $0 } ?? true)
                if !inside { anyOutside = true }
                findings.append(
                    "\(check.what): \(NumberFormat.claimed(value))\(check.unit.isEmpty ? "" : " " + check.unit)\(where_) — claimed \(Self.range(check)) \(inside ? "✓" : "✗")")
            }
        }
        self.findings = findings
        verdict = anyOutside ? .refuted : anyMissing ? .notMeasurable : .holds
    }

    static func measure(_ check: Check, rows: [ResultRow]) -> Result<(Double, String), ClaimsError> {
        let first: ResultRow
        switch check.row.select(from: rows) {
        case .failure(let error): return .failure(error)
        case .success(let row): first = row
        }
        var value = first.value!
        if var minus = check.minus {
            // Subtract at the sweep point the first row was taken at, not the other's own largest.
            if minus.largest == "objects" { minus.largest = nil; minus.objects = first.objects }
            if minus.largest == "subscribers" { minus.largest = nil; minus.subscribers = first.subscribers }
            switch minus.select(from: rows) {
            case .failure(let error): return .failure(error)
            case .success(let row): value -= row.value!
            }
        }
        value += check.add ?? 0
        value *= check.factor ?? 1
        let sweep = check.row.largest == "objects" ? " (N=\(first.objects))" : check.row.largest == "subscribers" ? " (S=\(first.subscribers))" : ""
        return .success((value, sweep))
    }

    static func range(_ check: Check) -> String {
        switch (check.low, check.high) {
        case let (low?, high?) where low == high: NumberFormat.claimed(low)
        case let (low?, high?): "\(NumberFormat.claimed(low))–\(NumberFormat.claimed(high))"
        case let (low?, nil): "≥ \(NumberFormat.claimed(low))"
        case let (nil, high?): "≤ \(NumberFormat.claimed(high))"
        case (nil, nil): "anything"
        }
    }
}
