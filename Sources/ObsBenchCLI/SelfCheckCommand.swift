import ArgumentParser
import Foundation
import ObsBenchKit
import ObservationStrategies

/// The hidden `self-check` command: facts about this binary's own process that the tests check,
/// run in this binary because only it has the run-loop main (`MainRunLoop`). It prints facts and
/// raw counts for a test to judge, never a benchmark figure, so a debug build may run it.
struct SelfCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "self-check",
        abstract: "Print facts about this process for the tests (main thread, Callgrind counting).",
        shouldDisplay: false
    )

    enum Check: String, ExpressibleByArgument, CaseIterable {
        /// Whether a job sent to the main actor from the pool runs on the main thread.
        case mainThread = "main-thread"
        /// Under Callgrind: the instructions of a fixed loop at each of `--lengths`.
        case countLoop = "count-loop"
        /// Under Callgrind: a strategy's write, per operation, with `--extra-spins` of injected work;
        /// the profile's dumps and their manifest stay in the dump folder.
        case countWrites = "count-writes"
        /// Under Callgrind: the harness's share of `observable`'s and `published`'s read and write,
        /// from the latency workloads and the concrete reference (`HarnessShare`).
        case attribution
        /// Under Callgrind: one window in which the main thread spins the first of `--lengths` and
        /// another thread the second; prints the window's instructions (``CountedThreads``).
        case countThreads = "count-threads"
        /// The memory layout (OBSBENCH_LAYOUT): the seed, its paddings, where a record made now
        /// and a stack variable lie, and how hash tables are seeded (by address or by size).
        case layout
    }

    @Argument(help: "main-thread, count-loop, count-threads, count-writes, attribution or layout.") var check: Check
    @Option(parsing: .upToNextOption, help: "Loop lengths for count-loop; the two threads' spins for count-threads.") var lengths: [Int] = [1_000, 2_000, 4_000]
    @Option(help: "The strategy for count-writes.") var strategy = "plain"
    @Option(name: .customLong("extra-spins"), help: "Canary spins added to each write (count-writes).") var extraSpins = 0

    /// The address of a local of a synchronous function: on the thread's stack (an async
    /// function's locals live in its task's heap-allocated frame).
    @inline(never)
    static func stackAddress() -> UInt {
        var local = 0
        return withUnsafeMutablePointer(to: &local) { UInt(bitPattern: $0) }
    }

    /// Whether two hash tables of one size get different seeds (each its storage's address, as in
    /// a normal run, or under `OBSBENCH_TABLE_SEEDS=address`) rather than one (its size, under
    /// `SWIFT_DETERMINISTIC_HASHING=1` alone): the same 64 numbers, inserted in the same order
    /// into two tables, come out in the same order only when the seeds are equal.
    static func hashTablesSeededByAddress() -> Bool {
        let first = Set(0..<64), second = Set(0..<64)
        return Array(first) != Array(second)
    }

    @MainActor
    func run() async throws {
        // Started to count the main thread alone (`CountedThreads.mainThread`), every check counts it.
        Callgrind.countMainThreadAloneIfAsked()
        switch check {
        case .layout:
            let record = TaskRecord.sample(count: 1)
            let object = StoredObject(record[0])
            let stackAddress = Self.stackAddress()
            print(
                "seed \(LayoutSeed.seed ?? 0) heap-padding \(LayoutSeed.heapPadding) stack-padding \(LayoutSeed.stackPadding)"
                    + " object 0x\(String(UInt(bitPattern: ObjectIdentifier(object)), radix: 16)) stack 0x\(String(stackAddress, radix: 16))"
                    + " image 0x\(String(UInt(bitPattern: #dsohandle), radix: 16))"
                    + " hash-tables \(Self.hashTablesSeededByAddress() ? "address" : "size")")
        case .mainThread:
            let fromPool = await Task.detached { await MainActor.run { ProcessCounters.isMainThread } }.value
            print("main-actor-on-main-thread \(fromPool && ProcessCounters.isMainThread)")
        case .countLoop:
            guard Callgrind.isRunningUnderValgrind else { throw CallgrindError.notUnderValgrind }
            for length in lengths {
                let dump = Callgrind.Dump(label: "loop \(length)")
                Callgrind.zero()
                Canary.spin(length)
                print("\(length) \(try dump.take().instructions)")
            }
        case .countThreads:
            guard Callgrind.isRunningUnderValgrind else { throw CallgrindError.notUnderValgrind }
            guard lengths.count == 2 else { throw ValidationError("count-threads takes two lengths: the main thread's and the other thread's") }
            let (mine, other) = (lengths[0], lengths[1])
            let dump = Callgrind.Dump(label: "threads \(mine) \(other)")
            Callgrind.zero()
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                Canary.spin(other)
                done.signal()
            }
            thread.start()
            Canary.spin(mine)
            // The window ends only once the other thread's spin is done: a blocking wait (Foundation's
            // `Thread` has no join), so the main thread's own count does not grow with how long
            // the other thread takes, as a polling loop's did.
            done.wait()
            print("\(mine) \(other) \(try dump.take().instructions)")
        case .countWrites:
            guard let entry = Registered.entry(named: strategy) else { throw ValidationError("unknown strategy '\(strategy)'") }
            let store = try entry.makeStore(TaskRecord.sample(count: 100))
            var next = 0
            let spins = extraSpins
            let counted = try await InstructionCounter(settings: .standard()).count(
                { iterations in
                    for index in 0..<iterations {
                        next &+= 1
                        try store.write(.priority(next), to: 1 &+ index % 100)
                        if spins > 0 { Canary.spin(spins) }
                    }
                    await store.settle()
                },
                emptyBatch: { iterations in
                    for index in 0..<iterations {
                        next &+= 1
                        blackHole((FieldValue.priority(next), 1 &+ index % 100))
                    }
                }, label: "self-check writes")
            await store.tearDown()
            // The profile's dumps, for the test to read once this process has exited.
            if let folder = ProcessInfo.processInfo.environment[Callgrind.directoryVariable] {
                var row = ResultRow(
                    runID: "self-check", suite: "self-check", workload: "count-writes", strategy: strategy, executor: RowKey.mainActor,
                    objects: 100, subscribers: 0, concurrency: 1, metric: .instructions, unit: Metric.instructions.unit,
                    statistics: Statistics(counted.instructionsPerOperation))
                row.profileDumps = counted.profileDumps
                try ProfileManifest(rows: [row]).write(toDumpFolder: folder)
            }
            print(counted.instructionsPerOperation.map { String($0) }.joined(separator: " "))
            print("loop-overhead \(counted.loopOverheadInstructions)")
        case .attribution:
            var rows: [ResultRow] = []
            for name in ["plain", "observable", "published"] {
                guard let entry = Registered.entry(named: name) else { continue }
                let context = WorkloadContext(
                    runID: "self-check", suite: "latency", strategy: entry, sampler: .quick, objects: 1_000,
                    measure: .instructions, instructionSettings: .quick())
                for workload in [ReadUntrackedWorkload(), WriteUnobservedWorkload(), ConcreteReferenceWorkload()] as [any Workload] {
                    rows += try await workload.run(context).rows
                }
            }
            for share in HarnessShare.all(in: rows) {
                print("share \(share.strategy) \(share.operation) \(share.share) \(share.protocolNet) \(share.concreteNet)")
            }
        }
    }
}

/// A heap object for `self-check layout` to report the address of.
private final class StoredObject {
    let record: TaskRecord
    init(_ record: TaskRecord) { self.record = record }
}
