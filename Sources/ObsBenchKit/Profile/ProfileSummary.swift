import Foundation

/// `profile.csv` read back and summarised: per counted row, its cost by group and its top
/// functions (`obsbench profile`, the report's "Where the cost goes"); and between two runs, the
/// functions whose Ir/op moved most (`obsbench profile --diff`, the gate under a regression).
///
/// ```swift
/// let profiles = ProfileSummary(rows: try ProfileRow.read(file: "results/latest/profile.csv"))
/// profiles.row(RowKey(...))?.groups   // [(Observation runtime, 412.0), (Swift runtime, 230.5), …]
/// ProfileSummary.movers(base: old, current: new, key: key).prefix(5)
/// ```
public struct ProfileSummary: Sendable {
    /// One counted row's profile.
    public struct Row: Sendable {
        public var key: RowKey
        public var functions: [ProfileRow]
        /// Why the profile could not be made, for an error row.
        public var error: String?

        /// The row's Ir/op: its functions' self costs summed.
        public var total: Double { functions.reduce(0) { $0 + ($1.selfPerOperation ?? 0) } }

        /// The row's retains per operation: its functions' summed (``ReferenceCounts``); nil for a
        /// `profile.csv` written before it had the column.
        public var retains: Double? {
            functions.contains { $0.retainsPerOperation != nil } ? functions.reduce(0) { $0 + ($1.retainsPerOperation ?? 0) } : nil
        }

        /// The row's releases per operation, as ``retains``.
        public var releases: Double? {
            functions.contains { $0.releasesPerOperation != nil } ? functions.reduce(0) { $0 + ($1.releasesPerOperation ?? 0) } : nil
        }

        /// Ir/op per group (those of 0.05 Ir/op or more, either way), largest first.
        public var groups: [(group: CostGroup, perOperation: Double)] {
            Dictionary(grouping: functions, by: \.group).map { group, rows in (group, rows.reduce(0) { $0 + ($1.selfPerOperation ?? 0) }) }
                .filter { abs($0.perOperation) >= 0.05 }
                .sorted { ($0.perOperation, $1.group.rawValue) > ($1.perOperation, $0.group.rawValue) }
        }

        /// `function`'s inclusive Ir/op where it is the operation's own: within 0…``total``
        /// (``InclusiveCost/operationsOwn(_:total:)``); nil where `profile.csv` left it out or, in
        /// a file written before that rule, gave a figure outside that range.
        public func inclusive(of function: ProfileRow) -> Double? {
            function.inclusivePerOperation.flatMap { InclusiveCost.operationsOwn($0, total: total) }
        }

        /// Functions with an own cost per operation (at least 0.05 Ir), largest first. The rest
        /// only call others: frames the loop runs in, whose calls `inclusive_ir_per_op` shows.
        public var topFunctions: [ProfileRow] {
            functions.filter { abs($0.selfPerOperation ?? 0) >= 0.05 }.sorted { ($0.selfPerOperation ?? 0, $1.function) > ($1.selfPerOperation ?? 0, $0.function) }
        }
    }

    /// The rows, in the order `profile.csv` lists them.
    public var rows: [Row]

    public init(rows profileRows: [ProfileRow]) {
        var order: [RowKey] = []
        var byKey: [RowKey: Row] = [:]
        for row in profileRows {
            let key = row.key
            if byKey[key] == nil {
                order.append(key)
                byKey[key] = Row(key: key, functions: [])
            }
            if row.group == .error {
                byKey[key]?.error = row.function
            } else {
                byKey[key]?.functions.append(row)
            }
        }
        rows = order.compactMap { byKey[$0] }
    }

    public func row(_ key: RowKey) -> Row? {
        rows.first { $0.key == key }
    }

    /// A function whose cost per operation moved between two profiles of one row.
    public struct Mover: Sendable, Equatable {
        public var function: String
        public var group: CostGroup
        public var object: String
        /// Own Ir/op before and after (0 where the function did not appear).
        public var before: Double
        public var after: Double
        public var delta: Double { after - before }
    }

    /// Every function of `key`'s row in either run, by how far its own Ir/op moved, largest first.
    public static func movers(base: ProfileSummary, current: ProfileSummary, key: RowKey) -> [Mover] {
        struct Name: Hashable { var function, object: String }
        var movers: [Name: Mover] = [:]
        for row in base.row(key)?.functions ?? [] {
            movers[Name(function: row.function, object: row.object), default: Mover(function: row.function, group: row.group, object: row.object, before: 0, after: 0)]
                .before += row.selfPerOperation ?? 0
        }
        for row in current.row(key)?.functions ?? [] {
            movers[Name(function: row.function, object: row.object), default: Mover(function: row.function, group: row.group, object: row.object, before: 0, after: 0)]
                .after += row.selfPerOperation ?? 0
        }
        return movers.values.filter { abs($0.delta) >= 0.0005 }
            .sorted { (abs($0.delta), $1.function) > (abs($1.delta), $0.function) }
    }

    /// A function's name made short enough for a table: generic arguments, parameter lists and
    /// return types left out (`profile.csv` keeps the whole name), at most `width` characters.
    public static func shortName(_ name: String, width: Int = 72) -> String {
        var text = name.replacingOccurrences(of: "generic specialization ", with: "specialized ")
            .replacingOccurrences(of: "function signature specialization ", with: "specialized ")
        text = removeBalanced(text, open: "<", close: ">", keep: "")
        text = removeBalanced(text, open: "(", close: ")", keep: "()")
        for noise in [" async", " throws", " rethrows", "@Sendable ", "@escaping ", "@Swift.MainActor ", "@callee_guaranteed "] {
            text = text.replacingOccurrences(of: noise, with: "")
        }
        // " -> Type" up to the next " in " / " of " or the end.
        while let arrow = text.range(of: " -> ") {
            let rest = text[arrow.upperBound...]
            let end = [rest.range(of: " in ")?.lowerBound, rest.range(of: " of ")?.lowerBound].compactMap { $0 }.min() ?? text.endIndex
            text.removeSubrange(arrow.lowerBound..<end)
        }
        text = text.replacingOccurrences(of: "specialized  of ", with: "specialized ").replacingOccurrences(of: "specialized of ", with: "specialized ")
        return text.count <= width ? text : String(text.prefix(width - 1)) + "…"
    }

    /// `text` with every outermost `open…close` group replaced by `keep` (an unbalanced close is kept).
    static func removeBalanced(_ text: String, open: Character, close: Character, keep: String) -> String {
        var result = ""
        var depth = 0
        for character in text {
            if character == open {
                if depth == 0 { result += keep }
                depth += 1
            } else if character == close, depth > 0 {
                depth -= 1
            } else if depth == 0 {
                result.append(character)
            }
        }
        return result
    }

    /// The text `obsbench profile` prints for one row: its groups with Ir/op and share, then its
    /// `top` functions by own Ir/op, with their inclusive Ir/op where it is the operation's own
    /// (``InclusiveCost``). Shares only for a row of ``minimumInstructionsForShares`` or more; a
    /// share below 0 or above 100% is marked and explained under the table that prints it.
    /// `retainRanges`: the range of the row's retains and releases over its layouts (results.csv),
    /// printed beside their mean where the layouts differ.
    public static func text(
        _ row: Row, top: Int, resultIrPerOperation: Double? = nil, retainRanges: (retains: ClosedRange<Double>?, releases: ClosedRange<Double>?) = (nil, nil)
    ) -> String {
        var text = "\(row.key.benchmark)"
        if let error = row.error { return text + "\n  no profile: \(error)\n" }
        let total = row.total
        text += ": \(NumberFormat.instructions(total))/op in \(row.functions.count) functions"
        if let resultIrPerOperation { text += " (results.csv: \(NumberFormat.instructions(resultIrPerOperation))/op)" }
        if let retains = row.retains, let releases = row.releases {
            // The mean over layouts, with their range where they differ: one figure from several processes.
            func counted(_ value: Double, _ range: ClosedRange<Double>?) -> String {
                guard let range, range.upperBound > range.lowerBound else { return ReferenceCounts.text(value) }
                return "\(ReferenceCounts.text(value)) (layouts \(ReferenceCounts.text(range.lowerBound))–\(ReferenceCounts.text(range.upperBound)))"
            }
            text += "; \(counted(retains, retainRanges.retains)) retains/op, \(counted(releases, retainRanges.releases)) releases/op"
        }
        text += "\n\n"
        let groupShares = row.groups.map { share($0.perOperation, of: total) }
        let groups = zip(row.groups, groupShares).map { [$0.group.rawValue, NumberFormat.irPerOperation($0.perOperation), $1] }
        text += TextTable(header: ["group", "Ir/op", "share"], rows: groups, alignment: .numbers, indent: "  ").text()
        text += notes(shares: groupShares, total: total).map { "  (\($0))\n" }.joined()
        text += "\n"
        let listed = Array(row.topFunctions.prefix(top))
        let functionShares = listed.map { share($0.selfPerOperation ?? 0, of: total) }
        let inclusive = listed.map { row.inclusive(of: $0) }
        let functions = zip(listed, zip(functionShares, inclusive)).map { function, figures in
            [
                NumberFormat.irPerOperation(function.selfPerOperation ?? 0), figures.1.map(NumberFormat.irPerOperation) ?? InclusiveCost.unknownMark,
                figures.0, function.group.rawValue, shortName(function.function),
            ]
        }
        text += TextTable(header: ["self Ir/op", "incl. Ir/op", "share", "group", "function"], rows: functions, alignment: .right([0, 1, 2]), indent: "  ").text()
        var footnotes = notes(shares: functionShares, total: total, explained: groupShares)
        if inclusive.contains(where: { $0 == nil }) { footnotes.append(InclusiveCost.unknownNote) }
        text += footnotes.map { "  (\($0))\n" }.joined()
        return text
    }

    /// The notes a table of `shares` of a row of `total` Ir/op needs: why its shares are not
    /// printed, or what a share below 0 or above 100% is; none already said under `explained`.
    public static func notes(shares: [String], total: Double, explained: [String] = []) -> [String] {
        func needs(_ shares: [String]) -> (omitted: Bool, outOfRange: Bool) {
            (shares.contains(sharesOmittedMark), shares.contains { $0.hasSuffix(outOfRangeMark) })
        }
        let (omitted, outOfRange) = needs(shares)
        let (saidOmitted, saidOutOfRange) = needs(explained)
        var notes: [String] = []
        if omitted && !saidOmitted { notes.append(sharesOmittedNote(total: total)) }
        if outOfRange && !saidOutOfRange { notes.append(outOfRangeNote) }
        return notes
    }

    /// The movers of one row as a table: before, after and delta Ir/op.
    public static func moversTable(_ movers: some Collection<Mover>, indent: String = "  ") -> TextTable {
        TextTable(
            header: ["before", "after", "delta", "group", "function"],
            rows: movers.map { mover in
                [
                    NumberFormat.irPerOperation(mover.before), NumberFormat.irPerOperation(mover.after), NumberFormat.signedIrPerOperation(mover.delta),
                    mover.group.rawValue, shortName(mover.function),
                ]
            }, alignment: .right([0, 1, 2]), indent: indent)
    }

    /// A row (or a per-view profile) below this many Ir/op prints no shares. Its Ir/op is a net of
    /// the empty loop, whose own harness code is subtracted function by function: 1 to 14 Ir/op
    /// in `results/baseline-instructions`, more than a third of a row of 35 Ir/op. Such a row's
    /// shares said 467% and −367% (`read-untracked-concrete/plain`, 3 Ir/op); from 100 Ir/op on,
    /// that subtraction moves a share by at most 14 points, and the share is marked and explained
    /// where it is below 0 or above 100% (``outOfRangeMark``).
    public static let minimumInstructionsForShares = 100.0

    /// What a share column prints for a row below ``minimumInstructionsForShares``.
    public static let sharesOmittedMark = "—"

    /// Marks a share below 0 or above 100%; ``outOfRangeNote`` says why there is one.
    public static let outOfRangeMark = "‡"

    /// Why a row's shares are not printed.
    public static func sharesOmittedNote(total: Double) -> String {
        "share \(sharesOmittedMark): this row is \(NumberFormat.instructions(total))/op, below the \(NumberFormat.instructions(minimumInstructionsForShares))/op a share needs: "
            + "the empty loop's own harness code, subtracted from it function by function, is too large a part of it for shares to mean anything"
    }

    /// What a share below 0 or above 100% is.
    public static let outOfRangeNote =
        "\(outOfRangeMark) a share below 0 is a cost the empty loop paid more than the operation's loop, subtracted: obsbench's harness code (the empty loop runs in it) "
        + "or, in another group, another thread's work timed differently; the other shares then sum above 100%"

    /// `part` as a percentage of `total`, whole percent from 10% up; ``sharesOmittedMark`` for a
    /// `total` below ``minimumInstructionsForShares``; ``outOfRangeMark`` after a share below 0 or
    /// above 100%.
    public static func share(_ part: Double, of total: Double) -> String {
        guard total >= minimumInstructionsForShares else { return sharesOmittedMark }
        let percent = part / total * 100
        let text = abs(percent) >= 10 ? "\(Int(percent.rounded()))%" : "\((percent * 10).rounded() / 10)%"
        return percent <= -0.05 || percent >= 100.05 ? text + outOfRangeMark : text
    }
}

extension ProfileSummary {
    /// Reads the `profile.csv` of a run folder (or a `latest` link to one), or the file itself.
    public static func load(_ path: String) throws -> ProfileSummary {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ResultsReader.ReadError(file: path, line: 0, reason: "does not exist")
        }
        var file = URL(fileURLWithPath: path)
        if isDirectory.boolValue {
            file = file.appendingPathComponent(ResultsDirectory.profileFileName)
        } else if file.lastPathComponent != ResultsDirectory.profileFileName {
            file = file.deletingLastPathComponent().appendingPathComponent(ResultsDirectory.profileFileName)
        }
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw ResultsReader.ReadError(file: file.path, line: 0, reason: "does not exist: only a run made with --measure instructions has per-function profiles")
        }
        return ProfileSummary(rows: try ProfileRow.read(file: file.path))
    }

    /// The rows whose total moved by at least `minimumChange` (a fraction) between `base` and
    /// `current`, largest relative change first, each with its movers.
    public static func diff(base: ProfileSummary, current: ProfileSummary, minimumChange: Double) -> [(key: RowKey, before: Double, after: Double, movers: [Mover])] {
        current.rows.compactMap { row -> (RowKey, Double, Double, [Mover])? in
            guard row.error == nil, let old = base.row(row.key), old.error == nil else { return nil }
            let before = old.total, after = row.total
            guard abs(after - before) >= max(abs(before) * minimumChange, 0.05) else { return nil }
            return (row.key, before, after, movers(base: base, current: current, key: row.key))
        }.sorted { abs($0.2 - $0.1) / max(abs($0.1), 1) > abs($1.2 - $1.1) / max(abs($1.1), 1) }
    }
}
