import Foundation
import Testing

@testable import ObsBenchKit

/// What a profile prints adds up: an inclusive cost is the operation's own (never below 0, never
/// above the row's Ir/op) or is not printed, and shares are printed only for rows large enough for
/// them to mean something, with any below 0 or above 100% explained where they are printed.
@Suite("Profile bounds")
struct ProfileBoundsTests {
    static let object = "/x/obsbench"

    static func id(_ name: String) -> FunctionID { FunctionID(object: object, name: name) }

    /// One dump of a hand-made loop of `operations` operations (`empty`: the empty loop's). The
    /// operation's loop runs inside `loop` (a frame the loop runs in), whose resume function and
    /// `swift_task_switch` call one another (an async loop's partial functions), around `work`,
    /// the operation itself: 10 Ir of its own per operation. Both loops call `obsbench_sink`.
    static func dump(operations: Int64, empty: Bool) -> CallgrindProfile {
        typealias Cost = CallgrindProfile.FunctionCost
        let n = operations
        var functions: [FunctionID: Cost] = [:]
        functions[id("obsbench_sink")] = Cost(selfInstructions: n)
        if empty {
            functions[id("empty")] = Cost(selfInstructions: n, calls: [id("obsbench_sink"): n], callCounts: [id("obsbench_sink"): n])
            functions[id("main")] = Cost(selfInstructions: 0, calls: [id("empty"): 2 * n], callCounts: [id("empty"): 1])
        } else {
            functions[id("work")] = Cost(selfInstructions: 10 * n)
            // Each resume calls the switch, which resumes the next: Callgrind's edges each hold
            // every later iteration, so the cycle's inclusive costs count them again and again.
            functions[id("resume")] = Cost(
                selfInstructions: n, calls: [id("work"): 10 * n, id("swift_task_switch"): 50 * n, id("obsbench_sink"): n],
                callCounts: [id("work"): n, id("swift_task_switch"): n, id("obsbench_sink"): n])
            functions[id("swift_task_switch")] = Cost(selfInstructions: n, calls: [id("resume"): 60 * n], callCounts: [id("resume"): n])
            functions[id("loop")] = Cost(selfInstructions: 2 * n, calls: [id("resume"): 13 * n], callCounts: [id("resume"): 1])
            functions[id("main")] = Cost(selfInstructions: 0, calls: [id("loop"): 15 * n], callCounts: [id("loop"): 1])
        }
        let total = functions.values.reduce(0) { $0 + $1.selfInstructions }
        return CallgrindProfile(trigger: "t", totalInstructions: total, functions: functions)
    }

    static let key = RowKey(
        suite: "latency", workload: "view-scope", strategy: "plain", executor: "main-actor", metric: .instructions, unit: "Ir/op", objects: 10, subscribers: 0,
        concurrency: 1)

    @Test("an inclusive cost is never below 0 nor above the row's Ir/op: a function on a cycle of calls, or a frame of a loop, has none")
    func inclusiveCostsAreTheOperationsOwn() throws {
        let profile = try OperationProfile(
            key: Self.key, operation: (Self.dump(operations: 200, empty: false), Self.dump(operations: 600, empty: false)),
            empty: (Self.dump(operations: 200, empty: true), Self.dump(operations: 600, empty: true)), operations: 400)
        // 10 (work) + 2 (loop) + 1 (resume) + 1 (switch) + 1 − 1 (sink) − 1 (the empty loop) Ir.
        #expect(abs(profile.total - 13) < 1e-9)
        func inclusive(_ name: String) -> Double?? { profile.functions.first { $0.id.name == name }.map(\.inclusivePerOperation) }
        #expect(inclusive("work") == .some(10), "a function called once per operation, on no cycle, keeps its inclusive cost")
        #expect(inclusive("resume") == .some(nil) && inclusive("swift_task_switch") == .some(nil), "on a cycle: their edges count nested calls again")
        #expect(inclusive("loop") == .some(nil), "a frame of the operation's loop carries the loop's cost, above the row's")
        #expect(inclusive("empty") == .some(nil), "a frame of the empty loop only: its cost is subtracted, below 0")
        for function in profile.functions {
            if let value = function.inclusivePerOperation { #expect((0...profile.total).contains(value), "\(function.name): \(value)") }
        }
        // What `obsbench profile` prints from the profile.csv it writes.
        let text = ProfileSummary.text(try #require(ProfileSummary(rows: profile.rows).rows.first), top: 10)
        #expect(text.contains(InclusiveCost.unknownNote))
        for line in Self.functionLines(text) {
            let incl = line.split(separator: " ", omittingEmptySubsequences: true)[1]
            if incl == Substring(InclusiveCost.unknownMark) { continue }
            let value = try #require(Double(incl), "\(line)")
            #expect(value >= 0 && value <= profile.total, "\(line)")
        }
    }

    /// The lines of a profile text's function table.
    static func functionLines(_ text: String) -> [Substring] {
        let lines = text.split(separator: "\n")
        guard let header = lines.firstIndex(where: { $0.contains("incl. Ir/op") }) else { return [] }
        return lines[(header + 2)...].filter { !$0.hasPrefix("  (") }
    }

    @Test("a profile.csv written before the rule, with view-scope/plain's −204,572 and +241,600 Ir/op, prints neither")
    func oldInclusiveCostsNotPrinted() throws {
        func row(_ function: String, _ own: Double, _ inclusive: Double, _ group: CostGroup = .harness) -> ProfileRow {
            ProfileRow(key: Self.key, group: group, function: function, selfPerOperation: own, inclusivePerOperation: inclusive, object: "obsbench")
        }
        let rows = [
            row("(3) suspend resume partial function for closure #1", 86, 241_600), row("PlainStrategy.readInsideView", 42, 42, .strategy),
            row("(3) suspend resume partial function for closure #2", -55, -204_433.5), row("obsbench_sink", 4, 4), row("outlined consume", 16, 16.2, .strategy),
        ]
        let summary = ProfileSummary(rows: rows)
        let profile = try #require(summary.rows.first)
        #expect(profile.total == 93)
        #expect(profile.inclusive(of: rows[0]) == nil && profile.inclusive(of: rows[2]) == nil)
        #expect(profile.inclusive(of: rows[1]) == 42)
        let text = ProfileSummary.text(profile, top: 10)
        #expect(!text.contains("241600") && !text.contains("-204434") && !text.contains("-204433"), "\(text)")
        #expect(text.contains(InclusiveCost.unknownNote))
        for line in Self.functionLines(text) {
            let incl = line.split(separator: " ", omittingEmptySubsequences: true)[1]
            #expect(incl == Substring(InclusiveCost.unknownMark) || (Double(incl).map { $0 >= 0 && $0 <= 93 } ?? false), "\(line)")
        }
    }

    @Test("the functions on a cycle of calls through another function are found; a call to itself is no cycle")
    func callCycles() {
        let graph: [String: Set<String>] = ["a": ["b"], "b": ["c"], "c": ["a", "d"], "d": ["d", "e"], "e": [], "f": ["a"]]
        #expect(InclusiveCost.inCallCycles(graph) == ["a", "b", "c"])
        #expect(InclusiveCost.inCallCycles(["x": ["x"]]).isEmpty)
        #expect(InclusiveCost.operationsOwn(-0.061, total: 93) == 0, "rounding below 0 is read as 0")
        #expect(InclusiveCost.operationsOwn(93.4, total: 93) == 93)
        #expect(InclusiveCost.operationsOwn(604, total: 93) == nil)
    }

    @Test("the committed dumps' profile prints no inclusive cost outside 0…its Ir/op")
    func realDumpsBounded() throws {
        let rows = try ProfileTests.fixtureRows()
        let profile = try #require(ProfileManifest.profiles(dumpFolder: ProfileTests.fixtures, rows: rows).profiles.first)
        for function in profile.functions {
            if let value = function.inclusivePerOperation { #expect(value >= 0 && value <= profile.total, "\(function.name): \(value)") }
        }
        #expect(profile.functions.contains { $0.inclusivePerOperation == nil }, "an async loop's resume functions are on a cycle")
        #expect(profile.functions.first { $0.name == "swift_retain" }?.inclusivePerOperation == 110)
    }

    static func groupRows(_ parts: [(CostGroup, Double)]) -> ProfileSummary.Row {
        let rows = parts.map { ProfileRow(key: Self.key, group: $0.0, function: "f \($0.0.rawValue)", selfPerOperation: $0.1, inclusivePerOperation: nil, object: "o") }
        return ProfileSummary(rows: rows).rows[0]
    }

    @Test("a 3 Ir/op row prints no shares and says why, with the floor; a share below 0 is marked and explained where it is printed")
    func sharesNeedALargeEnoughRow() {
        let small = ProfileSummary.text(Self.groupRows([(.strategy, 14), (.harness, -11)]), top: 5)
        #expect(!small.contains("%") && !small.contains("467") && !small.contains("-367"), "\(small)")
        #expect(small.contains(ProfileSummary.sharesOmittedNote(total: 3)))
        #expect(small.contains("below the 100 Ir/op a share needs"))
        #expect(ProfileSummary.share(14, of: 3) == ProfileSummary.sharesOmittedMark)

        let large = ProfileSummary.text(Self.groupRows([(.swiftRuntime, 204), (.observation, 166), (.strategy, 245), (.harness, -1)]), top: 5)
        #expect(large.contains("-0.2%\(ProfileSummary.outOfRangeMark)"), "\(large)")
        #expect(large.contains(ProfileSummary.outOfRangeNote))
        #expect(large.components(separatedBy: ProfileSummary.outOfRangeNote).count == 2, "explained once, under the groups")
        #expect(ProfileSummary.share(36, of: 35) == ProfileSummary.sharesOmittedMark)
        #expect(ProfileSummary.share(618, of: 614) == "101%\(ProfileSummary.outOfRangeMark)")
        #expect(ProfileSummary.share(204, of: 614) == "33%")
    }

    @Test("the report's \"Where the cost goes\" prints no share of a 35 Ir/op row, and explains a negative share where it prints one")
    func reportSharesExplained() throws {
        func key(_ strategy: String) -> RowKey {
            RowKey(
                suite: "latency", workload: "write-unobserved", strategy: strategy, executor: "main-actor", metric: .instructions, unit: "Ir/op", objects: 1_000,
                subscribers: 0, concurrency: 1)
        }
        func row(_ strategy: String, _ group: CostGroup, _ function: String, _ value: Double) -> ProfileRow {
            ProfileRow(key: key(strategy), group: group, function: function, selfPerOperation: value, inclusivePerOperation: nil, object: "o")
        }
        let summary = ProfileSummary(rows: [
            row("plain", .strategy, "ObservationStrategies.PlainStrategy.write()", 36), row("plain", .harness, "closure #2", -1),
            row("observable", .swiftRuntime, "swift_release", 300), row("observable", .observation, "withMutation", 315), row("observable", .harness, "closure #2", -1),
        ])
        let folder = URL(fileURLWithPath: "/tmp/run")
        let blocks = RunReport.whereTheCostGoes((summary, folder), strategies: ["plain", "observable"], relativeTo: folder)
        var cells: [[String]] = []
        var paragraphs: [String] = []
        for block in blocks {
            if case .table(_, let rows) = block { cells = rows }
            if case .paragraph(let text) = block { paragraphs.append(text) }
        }
        let plain = try #require(cells.first { $0[0] == "plain" })
        #expect(plain[3] == "no shares: below 100 Ir/op", "\(plain)")
        #expect(!plain.joined().contains("103%") && !plain.joined().contains("-2.9%"))
        let observable = try #require(cells.first { $0[0] == "observable" })
        #expect(observable[3].contains("-0.2%\(ProfileSummary.outOfRangeMark) obsbench harness"), "\(observable)")
        #expect(paragraphs.last?.contains("\"no shares\": a row below 100 Ir/op") == true)
        #expect(paragraphs.last?.contains(ProfileSummary.outOfRangeNote) == true)
    }
}
