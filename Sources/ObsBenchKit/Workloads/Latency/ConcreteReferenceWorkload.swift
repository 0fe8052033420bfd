import ObservationStrategies

/// The reference for `read-untracked` and `write-unobserved`: the same read and write on the
/// strategy's own record type in a tight loop (`ConcreteLoops`), for the strategies that give one
/// (`plain`, `observable`, `published`). Net of `plain`'s, a protocol-path figure and its concrete
/// loop should agree; the summary prints the harness's share where they do not.
public struct ConcreteReferenceWorkload: Workload {
    public let name = "concrete-reference"
    public let summary = "read-untracked and write-unobserved on the strategy's own record type in a tight loop (plain, observable, published): the harness's share"
    public let countsInstructions = true

    /// Nothing is delivered: the operation's counts are the calling thread's alone.
    public let measuredThreads = MeasuredThreads.callingThread

    /// Its rows are named after the operations they are the concrete loops of.
    public func writesRows(named rowWorkload: String) -> Bool { [Self.readName, Self.writeName].contains(rowWorkload) }
    /// The rows' workload names: the measured workload's, marked concrete.
    public static let readName = "read-untracked-concrete"
    public static let writeName = "write-unobserved-concrete"

    public init() {}

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        guard let loops = try context.measuredStrategy().makeConcreteLoops(TaskRecord.sample(count: context.objects)) else { return WorkloadOutput() }
        return try await context.measureConcreteLoops(
            loops, readName: Self.readName, writeName: Self.writeName,
            readNote: "priority of records 1...N in turn on the concrete record type, summed; no protocol, store or field enum",
            writeNote: "priority of records 1...N in turn on the concrete record type, each a new value; no protocol, store or field enum")
    }
}

extension WorkloadContext {
    /// Times (or counts) `loops`' read and write of records 1...N in turn, each against an empty
    /// loop of the same shape, as rows named `readName` and `writeName`.
    @MainActor
    func measureConcreteLoops(_ loops: ConcreteLoops, readName: String, writeName: String, readNote: String, writeNote: String) async throws -> WorkloadOutput {
        let count = objects
        let read = try await measureCost(
            { iterations in
                blackHole(loops.read(iterations))
            },
            emptyBatch: { iterations in
                var sum = 0
                for index in 0..<iterations { sum &+= index % count }
                blackHole(sum)
            }, label: readName)
        var next = 1_000
        let write = try await measureCost(
            { iterations in
                loops.write(iterations, next)
                next &+= iterations
            },
            emptyBatch: { iterations in
                var sum = 0
                for index in 0..<iterations { sum &+= (next &+ index) ^ (index % count) }
                blackHole(sum)
                next &+= iterations
            }, label: writeName)
        var output = latencyOutput(workload: readName, subscribers: 0, measured: read, note: readNote)
        output.append(latencyOutput(workload: writeName, subscribers: 0, measured: write, note: writeNote))
        return output
    }
}
