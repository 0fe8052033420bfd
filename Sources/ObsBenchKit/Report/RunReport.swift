import Foundation
import ObservationStrategies

/// A run turned into one page, the answer first: a guide naming the winner of each profile (or
/// the strategies the processes cannot separate), then each suite's headline table and chart, the
/// claims check, and last the machine, the strategies' declarations and what contradicts them. Rendered as `report.md` and as a single
/// self-contained `report.html` (charts inlined as SVG).
public struct RunReport: Sendable {
    /// The pieces of the page, rendered alike to markdown and HTML.
    public enum Block: Sendable {
        case heading(level: Int, text: String)
        case paragraph(String)
        case list([String])
        case table(header: [String], rows: [[String]])
        /// A table whose cells are shaded by a ratio to the best (1: green; 10 or more: red); nil leaves
        /// a cell unshaded. Markdown shows it as a plain table.
        case shadedTable(header: [String], rows: [[String]], shades: [[Double?]])
        /// An SVG chart: its path relative to the report, and its file's contents.
        case chart(title: String, relativePath: String, svg: String)
    }

    public var blocks: [Block] = []
    /// How many claims were judged (held or refuted); "not measurable here" is not a judgement.
    public private(set) var claimsJudged = 0
    /// The claims check's one-line summary ("5 hold, 2 refuted, ..."), or why there was none.
    public private(set) var claimsSummary = ""

    /// - Parameters:
    ///   - runDirectory: the run folder (its `results.csv`, `run.json` and `plots/`).
    ///   - claims: the claims file, or why there is none.
    ///   - profiles: per-function profiles (`profile.csv` of an instruction run, this one's or
    ///     another's) and where they came from, for "Where the cost goes".
    public init(
        runDirectory: URL, rows: [ResultRow], metadata: RunMetadata?, claims: Result<ClaimsFile, ClaimsError>, chartNote: String?,
        profiles: (summary: ProfileSummary, source: URL)? = nil
    ) {
        let runID = metadata?.runID ?? runDirectory.lastPathComponent
        blocks.append(.heading(level: 1, text: "obsbench report — run \(runID)"))
        blocks.append(
            .paragraph(
                "What each observation strategy cost on this machine, measured by `obsbench` with one shared harness over real implementations. Every number below comes from `results.csv` in this folder; ratios are to `plain` measured in the same run, which is what to compare across machines."
            ))
        if let problem = metadata?.partialRunProblem {
            blocks.append(.paragraph("**Only part of a run.** This folder cannot be read as a whole run: \(problem)."))
        }

        blocks.append(.heading(level: 2, text: "Which strategy for which app"))
        blocks += Self.guide(ProfileGuide(rows: rows, metadata: metadata))

        let suites = SuiteRegistry.all.filter { suite in rows.contains { $0.suite == suite.name } }
        let strategies = (metadata?.strategies ?? []).isEmpty ? Array(Set(rows.map(\.strategy))).sorted() : metadata!.strategies
        for suite in suites {
            blocks.append(.heading(level: 2, text: "\(suite.name): \(suite.summary)"))
            for table in SummaryTable.tables(suite: suite, rows: rows, strategies: strategies, descriptors: metadata?.strategyDetails ?? []) {
                blocks.append(.paragraph(table.title.isEmpty ? table.unit : "\(table.title): \(table.unit)"))
                blocks.append(.table(header: [table.rowLabel] + table.columns, rows: table.rows.map { [$0.strategy] + $0.cells }))
                if !table.footnotes.isEmpty { blocks.append(.list(table.footnotes)) }
            }
            let relative = suite.chartFile
            if let svg = try? String(contentsOf: runDirectory.appendingPathComponent(relative), encoding: .utf8) {
                blocks.append(.chart(title: "\(suite.name) chart", relativePath: relative, svg: svg))
            }
        }
        if let chartNote { blocks.append(.paragraph(chartNote)) }
        blocks += Self.derivedSection(rows: rows, strategies: strategies)
        blocks += Self.whereTheCostGoes(profiles, strategies: strategies, relativeTo: runDirectory)
        if rows.contains(where: { $0.suite == Suite.memory.name }) {
            let file = runDirectory.appendingPathComponent(ResultsDirectory.FileName.memoryProfile).path
            let memory = (try? MemoryProfileRow.read(file: file)).map { MemoryProfileSummary(profile: $0, results: rows, metadata: metadata) }
            blocks += Self.whereTheBytesGo(memory, strategies: strategies)
        }

        blocks.append(.heading(level: 2, text: "Claims check"))
        switch claims {
        case .failure(let error):
            claimsSummary = "No claims checked: \(error.description)"
            blocks.append(.paragraph(claimsSummary))
        case .success(let file):
            blocks.append(.paragraph(file.method))
            let verdicts = file.claims.map { ClaimVerdict(claim: $0, rows: rows) }
            blocks.append(
                .table(
                    header: ["claim", "commonly stated", "measured here", "verdict"],
                    rows: verdicts.map { verdict in
                        [verdict.claim.claim, verdict.claim.source, verdict.findings.joined(separator: "<br>"), "**\(verdict.verdict.rawValue)**"]
                    }))
            let counts = Dictionary(grouping: verdicts, by: \.verdict).mapValues(\.count)
            claimsJudged = (counts[.holds] ?? 0) + (counts[.refuted] ?? 0)
            claimsSummary =
                "\(counts[.holds] ?? 0) hold, \(counts[.refuted] ?? 0) refuted, \(counts[.notMeasurable] ?? 0) not measurable here, \(counts[.notShownToRepeat] ?? 0) not shown to repeat (one process), \(counts[.roundsDisagree] ?? 0) where rounds disagree, of \(verdicts.count) claims in `claims/claims.json`."
            blocks.append(.paragraph(claimsSummary))
        }
        blocks.append(.heading(level: 2, text: "Machine and toolchain"))
        if let metadata {
            blocks.append(
                .table(
                    header: ["fact", "value"],
                    rows: [
                        ["host", metadata.host], ["CPU", "\(metadata.cpuModel), \(metadata.coreCount) cores"],
                        ["Swift", metadata.swiftVersion], ["build", metadata.buildConfiguration], ["allocator", metadata.allocator],
                        ["git revision", metadata.gitRevision], ["started", metadata.time], ["finished", metadata.finishedTime ?? "—"],
                        ["status", metadata.status.rawValue], ["sampling", metadata.quick ? "--quick (short: for CI, not for conclusions)" : "full"],
                        ["suites", metadata.suites.joined(separator: ", ")], ["strategies", metadata.strategies.joined(separator: ", ")],
                        ["workloads", metadata.workloads.map { "only \($0.joined(separator: ", ")) (--workload)" } ?? "all"],
                        ["command", metadata.commandLine.joined(separator: " ")],
                    ] + (metadata.mergedShards.map { [["merged from", "\($0.count) shards (obsbench merge): \($0.joined(separator: ", "))"]] } ?? [])))
        } else {
            blocks.append(.paragraph("No `run.json` beside the results: machine facts unknown."))
        }

        if let details = metadata?.strategyDetails, !details.isEmpty {
            blocks.append(.heading(level: 2, text: "Strategies"))
            blocks.append(.paragraph("As each strategy describes itself (from `run.json`): what a notification is about, when views re-run, and the component measured."))
            blocks.append(.table(header: StrategyDescriptor.tableHeader + ["what it is"], rows: details.map { $0.tableCells + [$0.summary] }))
        }

        blocks += Self.declarations(DeclarationCheck(rows: rows, metadata: metadata), consistencyRun: rows.contains { $0.suite == Suite.consistency.name })

        blocks.append(
            .paragraph(
                "Files: `results.csv` (every statistic), `samples.csv` (raw samples), `rounds.csv` (each worker's rows), `run.json`, `plots/`. Regenerate this page with `obsbench report` on this folder."
            ))
    }

    /// "Which strategy for which app": one table row per profile (winner, next two, what decided
    /// it and the rows it needs), then, per profile, who was left out and why, and what strategies
    /// that do not promise the property showed.
    static func guide(_ guide: ProfileGuide) -> [Block] {
        var blocks: [Block] = [.list(guide.entries.map(Self.answer))]
        if let glance = Self.glance(guide) {
            blocks += [
                glance,
                .paragraph(
                    "Each cell: the strategy's deciding figure in that profile (the guide's, below) divided by the winner's; green is the winner, red ten times it or more. \"tied\": the worker processes do not separate it from the winner (the guide says why); —: not ranked there."
                ),
            ]
        }
        blocks += [
            .paragraph(
                "Drawn from this run's numbers. A profile ranks only strategies whose declared capabilities promise what it needs (every profile: views that re-run, so `plain` never competes) and that have every row it names; a strategy left out is listed below with why. A close second is often a fine choice: see the tables below."
            )
        ]
        var table: [[String]] = []
        var notes: [String] = []
        for entry in guide.entries {
            let ranking = entry.ranking
            var winner = ranking.first.map { "**\($0.strategy)** (\($0.value))" } ?? "—"
            var following = ranking.dropFirst()
            if let tie = entry.tie, let second = following.first {
                // The processes do not support the order: both named, tied, and why.
                winner = "tied: **\(ranking[0].strategy)** (\(ranking[0].value)) and **\(second.strategy)** (\(second.value)); \(tie)"
                following = following.dropFirst()
            }
            let next = following.prefix(2).map { "\($0.strategy) (\($0.value))" }.joined(separator: ", ")
            table.append([
                entry.profile, winner, next.isEmpty ? "—" : next, entry.promise, entry.remark.map { "\(entry.decidedBy); \($0)" } ?? entry.decidedBy,
                entry.needs.map { "`\($0)`" }.joined(separator: "<br>"),
            ])
            var parts: [String] = []
            if !entry.leftOut.isEmpty {
                parts.append("not ranked: " + Self.grouped(entry.leftOut.map { ($0.strategy, $0.reason) }).map { "\($0.strategies) (\($0.text))" }.joined(separator: "; "))
            }
            if !entry.observed.isEmpty {
                parts.append(
                    "observed here, not promised (a strategy ranks here only if it \(entry.promise)): "
                        + Self.grouped(entry.observed.map { ($0.strategy, $0.value) }).map { "\($0.strategies): \($0.text)" }.joined(separator: "; "))
            }
            if !parts.isEmpty { notes.append("**\(entry.profile)** — " + parts.joined(separator: ". ")) }
        }
        blocks.append(.table(header: ["profile", "winner", "next", "ranks only a store that", "decided by", "rows it needs"], rows: table))
        if !notes.isEmpty { blocks.append(.list(notes)) }
        return blocks
    }

    /// The guide at a glance: a strategy per row, a profile per column, each cell its deciding
    /// figure over the winner's, shaded by that ratio (a tied second shaded as the winner). Rows
    /// in order of their ratios' geometric mean over the profiles that rank them; nil when no
    /// profile ranks anybody.
    static func glance(_ guide: ProfileGuide) -> Block? {
        let columns = guide.entries.filter { !$0.ranking.isEmpty }
        guard !columns.isEmpty else { return nil }
        var strategies: [String] = []
        for entry in columns { for ranked in entry.ranking where !strategies.contains(ranked.strategy) { strategies.append(ranked.strategy) } }
        /// The cell's text, its shade (a tied second's is the winner's), and its ratio.
        func cell(_ entry: ProfileGuide.Entry, _ strategy: String) -> (text: String, shade: Double?, ratio: Double?) {
            guard let best = entry.ranking.first.flatMap({ entry.scores[$0.strategy] }), let score = entry.scores[strategy] else { return ("—", nil, nil) }
            let ratio = best > 0 ? score / best : (score == best ? 1 : .infinity)
            let tied = entry.tie != nil && entry.ranking.prefix(2).contains { $0.strategy == strategy }
            let text = ratio.isFinite ? "×" + String(format: "%.2f", ratio) : "×∞"
            return tied ? ("\(text), tied", 1, ratio) : (text, ratio, ratio)
        }
        func meanLog(_ strategy: String) -> Double {
            let logs = columns.compactMap { cell($0, strategy).ratio }.filter(\.isFinite).map { log(max($0, 1)) }
            return logs.isEmpty ? .infinity : logs.reduce(0, +) / Double(logs.count)
        }
        let order = strategies.map { ($0, meanLog($0)) }.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }.map(\.0)
        let header = ["strategy"] + columns.map { String($0.profile.prefix { $0 != "(" }).trimmingCharacters(in: .whitespaces) }
        let cells = order.map { strategy in columns.map { cell($0, strategy) } }
        return .shadedTable(header: header, rows: zip(order, cells).map { [$0] + $1.map(\.text) }, shades: cells.map { [nil] + $0.map(\.shade) })
    }

    /// One profile's answer in a line, for the top of the page: the winner and the number that
    /// decides it, or the two the processes cannot separate, or why nobody is ranked.
    static func answer(_ entry: ProfileGuide.Entry) -> String {
        // The deciding number: the value's text up to its first qualification.
        func number(_ value: String) -> String {
            String(value.prefix { $0 != ";" && $0 != "(" && $0 != "[" }).trimmingCharacters(in: .whitespaces)
        }
        let profile = "**\(entry.profile.prefix { $0 != "(" }.trimmingCharacters(in: .whitespaces))**"
        guard let first = entry.ranking.first else { return "\(profile): \(entry.remark ?? "nobody is ranked")" }
        if let tie = entry.tie, entry.ranking.count > 1 {
            let second = entry.ranking[1]
            return "\(profile): tied, \(first.strategy) \(number(first.value)) and \(second.strategy) \(number(second.value)) (\(tie))"
        }
        let next = entry.ranking.dropFirst().first.map { "; next \($0.strategy), \(number($0.value))" } ?? ""
        return "\(profile): \(first.strategy), \(number(first.value))\(next)"
    }

    /// "Declarations against measurements": each declaration this run's rows contradict, or that
    /// none does, and what no row measures.
    static func declarations(_ check: DeclarationCheck, consistencyRun: Bool) -> [Block] {
        var blocks: [Block] = [.heading(level: 2, text: "Declarations against measurements")]
        if !check.contradictions.isEmpty {
            blocks.append(
                .paragraph(
                    "**\(check.contradictions.count) declaration\(check.contradictions.count == 1 ? "" : "s") contradicted by this run.** A strategy's numbers below are measured as it behaved, not as it declares; the profile guide does not rank it on what it contradicts."
                ))
            blocks.append(.list(check.contradictions.map(\.description)))
        } else if consistencyRun {
            blocks.append(
                .paragraph(
                    "No row of this run contradicts what its strategy declares: no strategy declaring transactional: true showed a torn state, and none declaring synchronous delivery re-ran a view after write returned (where the latency suite ran)."
                ))
        } else {
            blocks.append(.paragraph("The consistency suite was not run: torn states, which would contradict transactional: true, were not measured."))
        }
        blocks.append(.paragraph("Not checked here: \(DeclarationCheck.unmeasured)."))
        return blocks
    }

    /// Strategies that share a text, named together, in the order each text first appears:
    /// [(a, x), (b, y), (c, x)] is [("a, c", x), ("b", y)].
    static func grouped(_ items: [(String, String)]) -> [(strategies: String, text: String)] {
        var order: [String] = []
        var names: [String: [String]] = [:]
        for (strategy, text) in items {
            if names[text] == nil { order.append(text) }
            names[text, default: []].append(strategy)
        }
        return order.map { (names[$0]!.joined(separator: ", "), $0) }
    }

    /// The operations "Where the cost goes" breaks down, as latency workloads.
    static let profiledOperations = [("read", "read-untracked"), ("write, no view", "write-unobserved"), ("write, one view", "write-observed")]

    /// For each strategy, its read's, write's and observed write's three largest cost groups.
    static func whereTheCostGoes(_ profiles: (summary: ProfileSummary, source: URL)?, strategies: [String], relativeTo runDirectory: URL) -> [Block] {
        var blocks: [Block] = [.heading(level: 2, text: "Where the cost goes")]
        guard let (summary, source) = profiles else {
            blocks.append(
                .paragraph(
                    "No per-function profile: this run did not count instructions. `obsbench --suite latency --measure instructions` writes `profile.csv`; `obsbench report RUN --profile THAT_RUN` puts it here."
                ))
            return blocks
        }
        let sourceName = source.standardizedFileURL.path == runDirectory.standardizedFileURL.path ? "this run's `profile.csv`" : "`\(source.lastPathComponent)/profile.csv`"
        blocks.append(
            .paragraph(
                "Instructions per operation under Callgrind, from \(sourceName): each function's share of the operation's Ir/op (long loop − short loop, the empty loop's share removed), summed by whose code it is. `obsbench profile` lists the functions; `plot-scripts/callgraph.py` draws the call graphs (plots/callgraph-*.svg)."
            ))
        var table: [[String]] = []
        var omitted = false
        var outOfRange = false
        for strategy in strategies {
            for (operation, workload) in profiledOperations {
                guard let row = summary.rows.first(where: { $0.key.suite == "latency" && $0.key.workload == workload && $0.key.strategy == strategy }) else { continue }
                if let error = row.error {
                    table.append([strategy, operation, "—", "no profile: \(error)", ""])
                    continue
                }
                let total = row.total
                guard total >= ProfileSummary.minimumInstructionsForShares else {
                    // Shares of a row this small say nothing (ProfileSummary.minimumInstructionsForShares).
                    omitted = true
                    let top = row.topFunctions.first.map { "\(ProfileSummary.shortName($0.function, width: 60)) (\(NumberFormat.irPerOperation($0.selfPerOperation ?? 0)) Ir/op)" }
                    table.append([
                        strategy, operation, NumberFormat.instructions(total), "no shares: below \(NumberFormat.instructions(ProfileSummary.minimumInstructionsForShares))/op",
                        top ?? "—",
                    ])
                    continue
                }
                let shares = row.groups.prefix(3).map { ProfileSummary.share($0.perOperation, of: total) }
                let groups = zip(row.groups.prefix(3), shares).map { "\($1) \($0.group.rawValue)" }.joined(separator: ", ")
                let topShare = row.topFunctions.first.map { ProfileSummary.share($0.selfPerOperation ?? 0, of: total) }
                let top = row.topFunctions.first.map { "\(ProfileSummary.shortName($0.function, width: 60)) (\(topShare ?? ""))" } ?? "—"
                if (shares + [topShare].compactMap { $0 }).contains(where: { $0.hasSuffix(ProfileSummary.outOfRangeMark) }) { outOfRange = true }
                table.append([strategy, operation, NumberFormat.instructions(total), groups, top])
            }
        }
        blocks.append(.table(header: ["strategy", "operation", "Ir/op", "top three cost groups", "largest function (own share)"], rows: table))
        var notes: [String] = []
        if omitted {
            notes.append(
                "\"no shares\": a row below \(NumberFormat.instructions(ProfileSummary.minimumInstructionsForShares))/op is mostly the call through obsbench's protocol and the loop's own bookkeeping, and the empty loop's harness code subtracted from it (1 to 14 Ir/op in the committed instruction runs) is too large a part of it for shares to mean anything: its largest function is given in Ir/op."
            )
        }
        if outOfRange { notes.append(ProfileSummary.outOfRangeNote + ".") }
        if !notes.isEmpty { blocks.append(.paragraph(notes.joined(separator: " "))) }
        return blocks
    }

    /// The memory rows "Where the bytes go" breaks down.
    static let profiledMemory: [(label: String, workload: String, metric: Metric, subscribers: Int?)] = [
        ("each object", "store-lifecycle", .freshBytesPerObject, 0), ("each object, one view on it", "store-lifecycle", .viewedBytesPerObject, nil),
        ("each write, one view", "write-allocations", .allocationsPerWrite, 1),
    ]

    /// For each strategy, the largest allocation sites of its bytes per object, with a view, and
    /// of its allocations per write (`memprofile.csv`).
    static func whereTheBytesGo(_ summary: MemoryProfileSummary?, strategies: [String]) -> [Block] {
        var blocks: [Block] = [.heading(level: 2, text: "Where the bytes go")]
        guard let summary, !summary.rows.isEmpty else {
            blocks.append(
                .paragraph(
                    "No heap profile: this run's memory suite wrote no `memprofile.csv` (it needs jemalloc and `nm`, and is skipped by `--no-heap-profiles`)."))
            return blocks
        }
        blocks.append(
            .paragraph(
                "Allocation sites from jemalloc's heap profiles (`memprofile.csv`), taken by a second memory worker that records every allocation, at the sweep's smallest store: the first function on each stack that is not the allocator or the Swift runtime's allocation entry points, with the code that asked in brackets where the site is the standard library. A synchronous strategy's sites sum to its figure (checked to 1%); an asynchronous one's are those of the profiled run. `obsbench profile --memory` lists every site."
            ))
        var table: [[String]] = []
        for strategy in strategies {
            for (label, workload, metric, subscribers) in profiledMemory {
                let candidates = summary.rows.filter {
                    $0.key.strategy == strategy && $0.key.workload == workload && $0.key.metric == metric && (subscribers == nil || $0.key.subscribers == subscribers)
                }
                guard let row = candidates.min(by: { $0.key.objects < $1.key.objects }) else { continue }
                if let error = row.error {
                    table.append([strategy, label, "—", "no profile: \(error)"])
                    continue
                }
                let isCount = metric.countsAllocations
                func value(_ number: Double) -> String { isCount ? NumberFormat.count(number) : NumberFormat.bytes(number) }
                let sites = row.sites.filter { abs($0.figure ?? 0) >= (isCount ? 0.005 : 0.05) }.prefix(3).map { site in
                    let caller = site.caller.isEmpty ? "" : " (\(ProfileSummary.shortName(site.caller, width: 40)))"
                    return "\(value(site.figure ?? 0)) \(ProfileSummary.shortName(site.site, width: 50))\(caller)"
                }
                let figure = row.figure.map(value) ?? "—"
                table.append([strategy, label, figure + (row.held ? "" : " (async)"), sites.joined(separator: "; ")])
            }
        }
        blocks.append(.table(header: ["strategy", "per", "figure", "largest sites"], rows: table))
        return blocks
    }

    // MARK: Rendering

    public func markdown() -> String {
        blocks.map { block -> String in
            switch block {
            case .heading(let level, let text): return String(repeating: "#", count: level) + " " + text + "\n"
            case .paragraph(let text): return text + "\n"
            case .list(let items): return items.map { "- " + $0 }.joined(separator: "\n") + "\n"
            case .table(let header, let rows), .shadedTable(let header, let rows, _): return TextTable(header: header, rows: rows).markdown()
            case .chart(let title, let relativePath, _): return "![\(title)](\(relativePath))\n"
            }
        }.joined(separator: "\n")
    }

    public func html() -> String {
        var body = ""
        for block in blocks {
            switch block {
            case .heading(let level, let text): body += "<h\(level)>\(Self.inline(text))</h\(level)>\n"
            case .paragraph(let text): body += "<p>\(Self.inline(text))</p>\n"
            case .list(let items): body += "<ul>" + items.map { "<li>\(Self.inline($0))</li>" }.joined() + "</ul>\n"
            case .table(let header, let rows):
                body += "<table>\n"
                body += "<thead><tr>" + header.map { "<th>\(Self.inline($0))</th>" }.joined() + "</tr></thead>\n"
                body += "<tbody>\n" + rows.map { "<tr>" + $0.map { "<td>\(Self.inline($0))</td>" }.joined() + "</tr>" }.joined(separator: "\n") + "\n</tbody></table>\n"
            case .shadedTable(let header, let rows, let ratios):
                body += "<table class=\"glance\">\n"
                body += "<thead><tr>" + header.map { "<th>\(Self.inline($0))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
                for (row, shades) in zip(rows, ratios) {
                    body += "<tr>" + zip(row, shades).map { text, ratio in "<td\(Self.shade(ratio))>\(Self.inline(text))</td>" }.joined() + "</tr>\n"
                }
                body += "</tbody></table>\n"
            case .chart(let title, _, let svg): body += "<figure>\(Self.inlineSVG(svg))<figcaption>\(Self.escape(title))</figcaption></figure>\n"
            }
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>obsbench report</title>
            <style>
            body { font: 15px/1.45 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em; color: #222; }
            table { border-collapse: collapse; margin: 0.8em 0; font-size: 13px; }
            th, td { border: 1px solid #ccc; padding: 4px 8px; vertical-align: top; }
            th { background: #f3f3f3; } td:not(:first-child) { text-align: right; }
            table.glance td:first-child { white-space: nowrap; }
            code { background: #f3f3f3; padding: 0 3px; } figure { margin: 1em 0; } figure svg { max-width: 100%; height: auto; }
            </style></head><body>
            \(body)</body></html>

            """
    }

    /// A cell's background for a ratio to the best: green at 1, through yellow, to red at 10 or
    /// more (a log scale); none for nil.
    static func shade(_ ratio: Double?) -> String {
        guard let ratio else { return "" }
        let distance = ratio.isFinite ? min(1, max(0, log10(max(ratio, 1)))) : 1
        return " style=\"background: hsl(\(Int((120 * (1 - distance)).rounded())), 70%, 82%)\""
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    /// Escapes text, then turns `code`, **bold** and the `<br>` the claims table uses into HTML.
    static func inline(_ text: String) -> String {
        var html = escape(text).replacingOccurrences(of: "&lt;br&gt;", with: "<br>")
        for (marker, tag) in [("**", "strong"), ("`", "code")] {
            var parts = html.components(separatedBy: marker)
            guard parts.count >= 3 else { continue }
            var result = parts.removeFirst()
            var open = false
            for (index, part) in parts.enumerated() {
                // An odd marker out is left as it was.
                if !open && index == parts.count - 1 {
                    result += marker + part
                } else {
                    result += (open ? "</\(tag)>" : "<\(tag)>") + part
                    open.toggle()
                }
            }
            html = result
        }
        return html
    }

    /// An SVG file's markup without its XML prolog and doctype, to sit inside the page.
    static func inlineSVG(_ svg: String) -> String {
        guard let start = svg.range(of: "<svg") else { return "" }
        return String(svg[start.lowerBound...])
    }
}
