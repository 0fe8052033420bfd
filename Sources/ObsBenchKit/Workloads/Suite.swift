/// A named list of workloads: what `--suite NAME` runs, one worker process per strategy.
public struct Suite: Sendable {
    public var name: String
    public var summary: String
    /// Records per store, unless `--objects` says otherwise.
    public var defaultObjects: Int
    /// The workload whose `latency` median heads the summary table, first.
    public var workloads: [any Workload]
    /// Worker rounds per strategy unless `--rounds` says otherwise: a timing suite interleaves
    /// several short rounds of every strategy so each one's samples span the run; a suite of exact
    /// counts needs one.
    public var defaultRounds: Int

    public init(name: String, summary: String, defaultObjects: Int, defaultRounds: Int = 1, workloads: [any Workload]) {
        self.name = name
        self.summary = summary
        self.defaultObjects = defaultObjects
        self.defaultRounds = defaultRounds
        self.workloads = workloads
    }
}

/// Every suite obsbench can run. Adding a workload means one file in `Workloads/` and a line here.
public enum SuiteRegistry {
    public static let all: [Suite] = [
        Suite(
            name: "latency",
            summary: "read/write latency per operation, ns/op",
            defaultObjects: 1_000,
            defaultRounds: 3,
            workloads: [
                ReadUntrackedWorkload(),
                ReadInsideViewWorkload(),
                WriteUnobservedWorkload(),
                WriteObservedWorkload(),
                TwoFieldTransactionWorkload(),
            ]
        ),
    ]

    public static var names: [String] { all.map(\.name) }

    public static func suite(named name: String) -> Suite? {
        all.first { $0.name == name }
    }
}
