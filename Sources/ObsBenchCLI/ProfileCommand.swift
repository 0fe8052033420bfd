import ArgumentParser
import Foundation
import ObsBenchKit

/// `obsbench profile RUN`: where each counted row's instructions go, by group and by function;
/// `obsbench profile --diff BASE CURRENT`: which functions moved between two runs;
/// `obsbench profile --memory RUN`: where each memory row's bytes go, by allocation site.
struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Show where each counted operation's instructions go, or with --memory each memory row's bytes.",
        discussion: """
            Every --measure instructions run writes profile.csv: for each counted row, each function's \
            own and inclusive Ir per operation (the long loop minus the short loop, the empty loop's \
            share removed, exactly as the row's Ir/op), grouped by whose code it is: \
            \(CostGroup.allCases.filter { $0 != .error }.map(\.rawValue).joined(separator: ", ")). \
            Each row's own costs sum to its Ir/op. An inclusive cost is shown only where it is the \
            operation's own, within 0 and the row's Ir/op (not for a function on a cycle of calls, \
            nor a frame the loop runs in: "—"); shares only for rows of \
            \(NumberFormat.instructions(ProfileSummary.minimumInstructionsForShares))/op or more, one below 0 \
            or above 100% marked \(ProfileSummary.outOfRangeMark) and explained. profiles/ beside it holds \
            the same in Callgrind's format (Ir per 1,000 operations) for gprof2dot or callgrind_annotate.

            With --memory: the memory suite's memprofile.csv, each memory row's bytes (or allocations) \
            per unit by allocating function, from jemalloc's heap profiles of a second memory worker \
            (every allocation sampled) at the sweep's smallest store. --check exits 1 when a row whose \
            figure repeats between processes (a synchronous strategy's) has sites that do not sum to \
            it within 1%.

            Examples:
              obsbench profile results/latest --strategy observable --workload write-unobserved
              obsbench profile --diff base/latest head/latest --top 5
              obsbench profile --memory results/latest --strategy observable --workload store-lifecycle
              obsbench profile --memory --check results/latest
              obsbench profile results/latest --per-view --strategy published --workload scaling-unrelated

            Exit status: \(ExitStatus.helpText([.success, .failure, .usage])).
            """
    )

    @Argument(help: ArgumentHelp("A run folder (or its profile.csv); with --diff, the baseline run and then the current one.", valueName: "run"))
    var runs: [String]

    @Flag(help: "Compare two runs: for each row whose Ir/op (or with --memory, bytes) moved, the functions that moved most.")
    var diff = false

    @Flag(help: "The memory suite's heap profiles (memprofile.csv): each memory row's bytes by allocation site.")
    var memory = false

    @Flag(help: "With --memory: check that each row's sites sum to its figure (exit 1 when a row held to it does not).")
    var check = false
    @Flag(
        name: .customLong("per-view"),
        help: """
            A counted scaling sweep's profile of b: each function's Ir per further view, (its Ir/write at the larger S − at the \
            smaller) / the views between (the two largest S unless --from and --to).
            """)
    var perView = false

    @Option(help: ArgumentHelp("With --per-view: the smaller S.", valueName: "S"))
    var from: Int?

    @Option(help: ArgumentHelp("With --per-view: the larger S.", valueName: "S"))
    var to: Int?

    @Option(help: ArgumentHelp("Only rows of this strategy (`-` for the suites that measure none).", valueName: "name"))
    var strategy: String?

    @Option(help: ArgumentHelp("Only rows of this workload, e.g. write-unobserved or hop-main-actor.", valueName: "name"))
    var workload: String?

    @Option(help: ArgumentHelp("Only rows of this suite.", valueName: "name"))
    var suite: String?

    @Option(help: ArgumentHelp("How many functions to list per row.", valueName: "n"))
    var top = 10

    @Option(
        name: .customLong("min-change"), parsing: .unconditional,
        help: ArgumentHelp(
            "With --diff: list a row when its Ir/op moved by at least this fraction.", valueName: "fraction"))
    var minimumChange = 0.001

    func validate() throws {
        guard runs.count == (diff ? 2 : 1) else {
            throw ValidationError(diff ? "--diff takes two runs: BASE CURRENT" : "give one run folder (or two with --diff)")
        }
        guard !perView || !diff else { throw ValidationError("--per-view reads one run; --diff compares two") }
        guard (from == nil) == (to == nil), (from == nil && to == nil) || perView, (from ?? 0) < (to ?? 1) else {
            throw ValidationError("--from and --to go together, with --per-view, and --from must be below --to")
        }
        guard top > 0 else { throw ValidationError("--top must be at least 1, got \(top)") }
        guard minimumChange.isFinite, minimumChange >= 0 else { throw ValidationError("--min-change must be a fraction ≥ 0, got \(minimumChange)") }
        if check && !memory { throw ValidationError("--check goes with --memory") }
        if check && diff { throw ValidationError("--check reads one run, not two (--diff)") }
        if memory && perView { throw ValidationError("--per-view reads a counted scaling sweep, not --memory") }
    }

    func run() throws {
        if memory { return try runMemory() }
        let loaded: [ProfileSummary]
        do {
            loaded = try runs.map(ProfileSummary.load)
        } catch {
            Console.error("\(error)")
            throw ExitStatus.failure.exitCode
        }
        if diff {
            let changed = ProfileSummary.diff(base: loaded[0], current: loaded[1], minimumChange: minimumChange).filter { selected($0.key) }
            print("baseline: \(runs[0])\ncurrent:  \(runs[1])\n\(changed.count) rows moved by \(NumberFormat.percent(minimumChange)) or more\n")
            for row in changed {
                let change = NumberFormat.change((row.after - row.before) / row.before)
                print("\(row.key.benchmark): \(NumberFormat.instructions(row.before))/op → \(NumberFormat.instructions(row.after))/op (\(change))")
                print(ProfileSummary.moversTable(row.movers.prefix(top)).text())
            }
            return
        }
        if perView {
            let sweeps = GrowthProfile.all(in: loaded[0], from: from, to: to).filter { selected($0.high) }
            guard !sweeps.isEmpty else {
                Console.error("no counted sweep with two profiled S matches (a run of --suite scaling --measure instructions has them)")
                throw ExitStatus.failure.exitCode
            }
            print(sweeps.map { $0.text(top: top) }.joined(separator: "\n"), terminator: "")
            return
        }
        let rows = loaded[0].rows.filter { selected($0.key) }
        guard !rows.isEmpty else {
            Console.error(
                "no profiled row matches\(selection)")
            throw ExitStatus.failure.exitCode
        }
        let results = (try? RunResults.load(runs[0]))?.rows ?? []
        let byKey = Dictionary(results.map { (RowKey($0), $0) }, uniquingKeysWith: { a, _ in a })
        /// The row of `metric` beside the counted row `key` in results.csv.
        func result(_ metric: Metric, of key: RowKey) -> ResultRow? {
            var wanted = key
            wanted.metric = metric
            wanted.unit = metric.unit
            return byKey[wanted]
        }
        // Each counted row's retains and releases as results.csv has them: the layouts' range.
        func range(_ metric: Metric, of key: RowKey) -> ClosedRange<Double>? {
            guard let row = result(metric, of: key), row.rounds > 1, let statistics = row.statistics else { return nil }
            return statistics.min...statistics.max
        }
        print(
            rows.map {
                ProfileSummary.text(
                    $0, top: top, resultIrPerOperation: result(.instructions, of: $0.key)?.value,
                    retainRanges: (range(.retains, of: $0.key), range(.releases, of: $0.key)))
            }.joined(separator: "\n"), terminator: "")
    }

    /// The filters given, as they were typed, for the message when no row matches them.
    private var selection: String {
        (strategy.map { " --strategy \($0)" } ?? "") + (workload.map { " --workload \($0)" } ?? "") + (suite.map { " --suite \($0)" } ?? "")
    }

    private func selected(_ key: RowKey) -> Bool {
        (strategy == nil || key.strategy == strategy) && (workload == nil || key.workload == workload) && (suite == nil || key.suite == suite)
    }

    /// `--memory`: the heap profiles, their diff between two runs, or `--check`.
    private func runMemory() throws {
        let loaded: [MemoryProfileSummary]
        do {
            loaded = try runs.map(MemoryProfileSummary.load)
        } catch {
            Console.error("\(error)")
            throw ExitStatus.failure.exitCode
        }
        if diff {
            let changed = MemoryProfileSummary.diff(base: loaded[0], current: loaded[1], minimumChange: minimumChange).filter { selected($0.key) }
            print("baseline: \(runs[0])\ncurrent:  \(runs[1])\n\(changed.count) memory rows moved by \(NumberFormat.percent(minimumChange)) or more\n")
            for row in changed {
                print("\(row.key.description): \(NumberFormat.count(row.before)) → \(NumberFormat.count(row.after)) \(row.key.unit)")
                let table = TextTable(
                    header: ["before", "after", "group", "site"],
                    rows: row.movers.prefix(top).map { [NumberFormat.count($0.before), NumberFormat.count($0.after), $0.group.rawValue, ProfileSummary.shortName($0.site)] },
                    alignment: .right([0, 1]), indent: "  ")
                print(table.text())
            }
            return
        }
        let rows = loaded[0].rows.filter { selected($0.key) }
        guard !rows.isEmpty else {
            Console.error(
                "no heap-profiled row matches\(selection)")
            throw ExitStatus.failure.exitCode
        }
        if check {
            let checked = rows.filter { $0.figure != nil }
            let held = checked.filter(\.held)
            let apart = held.filter { !$0.agrees }
            for row in apart {
                Console.error("\(row.key.description): figure \(NumberFormat.count(row.figure ?? 0)), sites \(row.error ?? NumberFormat.count(row.total))")
            }
            print(
                "\(held.count - apart.count) of \(held.count) rows held to their figure sum to it within \(NumberFormat.percent(MemoryProfileSummary.tolerance)); "
                    + "\(checked.count - held.count) rows of asynchronous strategies not held (their sites are the profiled run's own)")
            if !apart.isEmpty { throw ExitStatus.failure.exitCode }
            return
        }
        print(rows.map { MemoryProfileSummary.text($0, top: top) }.joined(separator: "\n"))
    }
}
