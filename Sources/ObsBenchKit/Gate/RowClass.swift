import ObservationStrategies

/// Whether a row's count may move with another thread's timing, decided by the workload that
/// wrote it (``MeasuredThreads``) and by what the *baseline* declares of its strategy, never by the
/// run under test. A run that declares its strategy asynchronous cannot buy its rows a wider
/// tolerance, and a row with no asynchronous part is judged exactly whatever is declared:
///
/// ```swift
/// let classes = RowClass.Resolver(baseline: base, current: now)
/// classes.resolve(writeUnobservedKey)   // .judged(otherThreads: false): the calling thread's alone
///                                       // (.callingThreadOfAsynchronousStore for a store declared
///                                       // asynchronous: its baseline's processes decide)
/// classes.resolve(writeObservedKey)     // .judged(otherThreads: true) where the baseline says
///                                       // the strategy delivers asynchronously
/// classes.resolve(keyOfARedeclaredStore)  // .noVerdict("the runs declare … differently: …")
/// ```
public enum RowClass: Sendable, Equatable {
    /// The row can be judged; `otherThreads` says whether its counts include threads whose timing
    /// varies (the asynchronous tolerances apply).
    case judged(otherThreads: Bool)
    /// A row of the calling thread's own work (no view is notified) for a strategy the baseline
    /// declares asynchronous, whose other threads can still move it: a store whose actor holds the
    /// last state it sent makes the next write copy the array, or not, as that actor's timing
    /// falls. Judged by what the baseline's own processes show (``Comparison``): where they agree,
    /// as the calling thread's alone (exact counts, the synchronous tolerance); where they
    /// disagree, as a row its other threads move (the asynchronous allowance, or the baseline's
    /// spread where that is wider), its instruction count judged even under `--async-counts report`.
    case callingThreadOfAsynchronousStore
    /// The row's class cannot be known: no verdict for it, and the reason.
    case noVerdict(String)

    /// Resolves rows' classes for one comparison.
    public struct Resolver: Sendable {
        var baseline: RunMetadata?
        var current: RunMetadata?

        public init(baseline: RunResults, current: RunResults) {
            self.baseline = baseline.metadata
            self.current = current.metadata
        }

        /// The class of the row keyed `key`.
        public func resolve(_ key: RowKey) -> RowClass {
            let strategy = key.strategy
            // A row of no strategy (hops, the pool, the stores of the migration plan) counts
            // threads of the runtime's pools or dispatch's.
            if strategy == RowKey.noStrategy { return .judged(otherThreads: true) }
            // The baseline's run.json, else this binary's built-in strategies (runs made before
            // run.json described them): what was known before the change. A run that declares its
            // strategy otherwise measured something the baseline does not describe.
            guard let declared = RunMetadata.descriptor(of: strategy, in: [baseline]) else {
                return .noVerdict("neither the baseline's run.json nor this obsbench declares \(strategy)'s capabilities, so how to judge its rows is not known")
            }
            if let now = RunMetadata.descriptor(of: strategy, in: [current]), !now.capabilities.agrees(with: declared.capabilities) {
                return .noVerdict(
                    "the runs declare \(strategy) differently (the baseline: \(Self.describe(declared.capabilities)); the current run: \(Self.describe(now.capabilities))): remake the baseline with the new declaration"
                )
            }
            // A row no workload of this binary writes (another version's) is classed as a
            // workload that declares nothing is: by its strategy's delivery.
            switch SuiteRegistry.workload(suite: key.suite, rowWorkload: key.workload)?.measuredThreads ?? .strategyDelivery {
            case .callingThread: return declared.capabilities.delivery == .asynchronous ? .callingThreadOfAsynchronousStore : .judged(otherThreads: false)
            case .poolThreads: return .judged(otherThreads: true)
            case .strategyDelivery: return .judged(otherThreads: declared.capabilities.delivery == .asynchronous)
            }
        }

        static func describe(_ capabilities: Capabilities) -> String {
            "\(capabilities.delivery.rawValue) delivery, granularity \(capabilities.granularity.rawValue)"
                + (capabilities.deduplicates ? ", deduplicates" : "") + (capabilities.transactional ? ", transactional" : "")
                + (capabilities.coalesces ? ", coalesces" : "")
        }
    }
}
