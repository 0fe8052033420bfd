import BuiltInStrategies
import Foundation
import ObservationStrategies
import Testing

@testable import ObsBenchKit

/// The instruction mode, checked by counts (never by time): Callgrind's counting as obsbench drives
/// it, the gate's verdicts on instruction rows, and the mode's refusal to run without Valgrind.
///
/// The Callgrind checks run this package's own `obsbench` binary (built beside this test bundle by
/// `swift build --build-tests` and `swift test`) under `valgrind --tool=callgrind`: its main thread
/// runs a run loop, which Valgrind 3.19 needs (it crashes under the test runner's `dispatch_main`).
@Suite("Instruction counts")
struct InstructionCountTests {
    init() { BuiltInStrategiesKnown.declare() }

    static let valgrindFound = CallgrindInvocation.find("valgrind", path: ProcessInfo.processInfo.environment["PATH"]) != nil
    /// Valgrind, its header at build time, and no ThreadSanitizer (whose shadow memory Valgrind cannot run).
    static let canCount =
        valgrindFound && Callgrind.isCompiledIn && !ThreadSanitizerHooks.isActive
        && Command.run(["setarch", "-R", "/bin/true"]) != nil

    /// The `obsbench-tool` executable (every command; `obsbench` is its launcher) built beside this test bundle.
    static var obsbench: String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("obsbench-tool").path
    }

    /// The release `obsbench-tool` of this package, when one has been built (`swift build -c release`;
    /// `.ci/run` builds it before the tests): what obsbench's figures come from.
    static var releaseObsbench: String? {
        let binaries = URL(fileURLWithPath: obsbench).deletingLastPathComponent().deletingLastPathComponent()
        let release = binaries.appendingPathComponent("release").appendingPathComponent("obsbench-tool").path
        return FileManager.default.isExecutableFile(atPath: release) ? release : nil
    }

    /// Runs `obsbench self-check ARGUMENTS` (under Callgrind when `callgrind` is set) and returns its standard output.
    static func selfCheck(
        _ arguments: [String], underCallgrind callgrind: Bool, binary: String = obsbench, layout: Int = 1, threads: CountedThreads = .all
    ) throws -> String {
        try selfCheck(arguments, underCallgrind: callgrind, binary: binary, layout: layout, threads: threads, inspectDumps: { _ in })
    }

    /// The same, and `inspectDumps` sees the folder of Callgrind's dumps before it is removed.
    static func selfCheck(
        _ arguments: [String], underCallgrind callgrind: Bool, binary: String = obsbench, layout: Int = 1, threads: CountedThreads = .all,
        inspectDumps: (URL) throws -> Void
    ) throws -> String {
        let obsbench = binary
        #expect(FileManager.default.isExecutableFile(atPath: obsbench), "build it first: swift build --build-tests")
        let process = Process()
        var invocation: CallgrindInvocation?
        if callgrind {
            let prepared = try CallgrindInvocation.prepare(workerExecutable: obsbench, settings: .standard())
            invocation = prepared
            let dumps = prepared.scratch.appendingPathComponent("dumps")
            try FileManager.default.createDirectory(at: dumps, withIntermediateDirectories: true)
            let command = prepared.command(workerArguments: ["self-check"] + arguments, dumpFolder: dumps, layout: layout, threads: threads)
            process.executableURL = URL(fileURLWithPath: command.executable)
            process.arguments = command.arguments
            process.environment = command.environment
        } else {
            process.executableURL = URL(fileURLWithPath: obsbench)
            process.arguments = ["self-check"] + arguments
        }
        defer { invocation?.cleanUp() }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "obsbench self-check \(arguments) exited \(process.terminationStatus)")
        if let invocation { try inspectDumps(invocation.scratch.appendingPathComponent("dumps")) }
        return output
    }

    @Test("main-actor jobs run on the process's main thread (its run loop drains the main queue)")
    func mainActorOnMainThread() throws {
        #expect(try Self.selfCheck(["main-thread"], underCallgrind: false).contains("main-actor-on-main-thread true"))
    }

    @Test("a known loop's instruction count grows linearly with its length", .enabled(if: canCount, "needs valgrind"))
    func linearLoop() throws {
        // The first window pays one-time set-up (a global's lazy initialisation): thrown away.
        let output = try Self.selfCheck(["count-loop", "--lengths", "1000", "1000", "2000", "3000", "4000", "8000"], underCallgrind: true)
        let counts = output.split(separator: "\n").compactMap { line -> (Double, Double)? in
            let parts = line.split(separator: " ")
            guard parts.count == 2, let length = Double(parts[0]), let count = Double(parts[1]) else { return nil }
            return (length, count)
        }.dropFirst()
        try #require(counts.count == 5, "\(output)")
        let points = Array(counts)
        let slope = (points[4].1 - points[1].1) / (points[4].0 - points[1].0)
        #expect(slope >= 1, "a loop step is at least one instruction: \(points)")
        for (length, count) in points {
            let fixed = count - slope * length
            // What stays is the fixed part of the window (the client requests themselves): the same
            // for every length, to within a few instructions of other threads.
            #expect(abs(fixed - (points[4].1 - slope * points[4].0)) <= 50, "length \(length): \(count) Ir is off the line by \(fixed)")
            #expect(fixed >= 0 && fixed < count / 2, "length \(length): fixed part \(fixed) of \(count)")
        }
    }

    @Test(
        "a worker of a synchronous strategy counts its main thread alone; any other worker counts every thread",
        .enabled(if: canCount, "needs valgrind"))
    func countedThreads() throws {
        // One window: the main thread spins 1,000 times, another thread 1,000,000 times.
        func count(_ threads: CountedThreads) throws -> Double {
            let output = try Self.selfCheck(["count-threads", "--lengths", "1000", "1000000"], underCallgrind: true, threads: threads)
            let fields = output.split(separator: "\n").first { $0.hasPrefix("1000 1000000 ") }?.split(separator: " ")
            return try #require(fields.flatMap { Double($0[2]) }, "\(output)")
        }
        let every = try count(.all), main = try count(.mainThread)
        #expect(every >= 1_000_000, "every thread: the other thread's million spins are counted (\(every) Ir)")
        #expect(main < 100_000, "the main thread alone: its thousand spins and its wait, not the other thread's (\(main) Ir)")
        #expect(main > 1_000, "the main thread counts (\(main) Ir)")
        let plain = try #require(StrategyRegistry.entry(named: "plain")), grdb = try #require(StrategyRegistry.entry(named: "grdb-queue"))
        #expect(CountedThreads.counted(for: plain) == .mainThread)
        #expect(CountedThreads.counted(for: grdb) == .all)
        #expect(CountedThreads.counted(for: nil) == .all, "a suite that measures no strategy (hops) counts every thread")
    }

    @Test("an extra call injected into a strategy's write is flagged by the gate; the same build counted twice is not", .enabled(if: canCount, "needs valgrind"))
    func injectedCallIsFlagged() throws {
        func perWrite(extraSpins: Int) throws -> [Double] {
            // The first line holds the repeats' counts (the second, the loop overhead).
            try Self.selfCheck(["count-writes", "--strategy", "observable", "--extra-spins", String(extraSpins)], underCallgrind: true)
                .split(separator: "\n").first.map { $0.split(separator: " ").compactMap { Double($0) } } ?? []
        }
        let first = try perWrite(extraSpins: 0)
        let second = try perWrite(extraSpins: 0)
        let injected = try perWrite(extraSpins: 1)
        try #require(first.count == 3 && second.count == 3 && injected.count == 3)
        func run(_ values: [Double]) -> RunResults {
            // One layout: its repeats are the row's samples, its value their median.
            let row = GateTests.row("observable", "instructions", Statistics(values)!.median, unit: "Ir/op")
            return GateTests.run([row], values.enumerated().map { SampleRow(runID: "r", key: RowKey(row), index: $0.offset, value: $0.element, round: 1) })
        }
        // One binary counted three times: the tight tolerance that suits runs of one build.
        let policy = GatePolicy(instructionTolerance: 0.005)
        let clean = RunComparison(baseline: run(first), current: run(second), policy: policy)
        #expect(clean.exitStatus == .success, "\(clean.comparisons.map(\.reason)) \(first) \(second)")
        let flagged = RunComparison(baseline: run(first), current: run(injected), policy: policy)
        #expect(flagged.exitStatus == .regression, "one spin more per write: \(first) → \(injected)")
        #expect(flagged.comparisons.first?.reason.contains("instructions") == true)
    }

    @Test(
        "a function injected into a strategy's write is the top mover of its profile, carrying the Ir/op the injection added to within 5%; each profile sums to its row (release build)",
        .enabled(if: canCount, "needs valgrind"),
        .enabled(if: releaseObsbench != nil, "needs the release build: swift build -c release (.ci/run builds it first)"))
    func injectedFunctionIsTopMover() throws {
        let binary = try #require(Self.releaseObsbench)
        let spins = 300
        func profiled(extraSpins: Int) throws -> (perWrite: Double, profile: OperationProfile) {
            var made: (profiles: [OperationProfile], errors: [ProfileRow]) = ([], [])
            let output = try Self.selfCheck(["count-writes", "--strategy", "plain", "--extra-spins", String(extraSpins)], underCallgrind: true, binary: binary) { dumps in
                made = ProfileManifest.profiles(dumpFolder: dumps, rows: [])
            }
            let lines = output.split(separator: "\n")
            let values = lines.first.map { $0.split(separator: " ").compactMap { Double($0) } } ?? []
            let median = try #require(Statistics(values)?.median)
            #expect(made.errors.isEmpty, "\(made.errors)")
            return (median, try #require(made.profiles.first))
        }
        let plain = try profiled(extraSpins: 0)
        let injected = try profiled(extraSpins: spins)
        // Each profile is its row: the functions' own costs sum to the Ir/op printed.
        for measured in [plain, injected] {
            #expect(abs(measured.profile.total - measured.perWrite) <= abs(measured.perWrite) * 0.01, "\(measured.profile.total) against \(measured.perWrite)")
        }
        // What the injected call adds to each write, from the two rows' counts (not their profiles).
        let added = injected.perWrite - plain.perWrite
        #expect(added > 100, "\(plain.perWrite) → \(injected.perWrite)")
        let key = plain.profile.key
        let movers = ProfileSummary.movers(base: ProfileSummary(rows: plain.profile.rows), current: ProfileSummary(rows: injected.profile.rows), key: key)
        let top = try #require(movers.first)
        #expect(top.function.contains("Canary.spin"), "\(movers.prefix(5))")
        #expect(abs(top.delta - added) <= added * 0.05, "the top mover grew \(top.delta) Ir/op; the injection added \(added); \(movers.prefix(5))")
    }

    @Test("a costly operation's loops are divided by the largest power of two whose pair still holds the budget, at most 8; a cheap one's are not")
    func lengthDivisor() {
        let quick = InstructionSettings.quick()  // 200/600: a pair holds 400 operations, budget 20 M Ir
        #expect(quick.lengthDivisor(instructionsPerOperation: 600) == 1)
        #expect(quick.lengthDivisor(instructionsPerOperation: 58_000) == 1)  // 23.2 M: below 2 budgets
        #expect(quick.lengthDivisor(instructionsPerOperation: 120_000) == 2)  // 48 M
        #expect(quick.lengthDivisor(instructionsPerOperation: 282_000) == 4)  // 112.8 M
        #expect(quick.lengthDivisor(instructionsPerOperation: 440_000) == 8)  // 176 M
        #expect(quick.lengthDivisor(instructionsPerOperation: 1e9) == InstructionSettings.maximumLengthDivisor)
        #expect(quick.lengthDivisor(instructionsPerOperation: 80_000, operations: 80 * 60) == 8)  // a drawn row: 384 M
        #expect(quick.dividingLengths(by: 4).shortLength == 50 && quick.dividingLengths(by: 4).longLength == 150)
        // A scan's maximum (128) is reached; past the short loop's 200 operations it is not.
        #expect(quick.lengthDivisor(instructionsPerOperation: 5e8, maximum: ScanAllWorkload.maximumDivisor) == 128)
        #expect(quick.lengthDivisor(instructionsPerOperation: 5e8, maximum: 1_024) == 128)
        var old = quick
        old.pairInstructions = 0  // a run made before the budget: full lengths always
        #expect(old.lengthDivisor(instructionsPerOperation: 1e9) == 1)
    }

    @Test("without valgrind the instruction mode says it is unavailable instead of printing numbers")
    func unavailableWithoutValgrind() throws {
        #expect {
            try CallgrindInvocation.prepare(workerExecutable: "/bin/true", settings: .standard(), path: "/nonexistent")
        } throws: { error in
            let text = "\(error)"
            return text.contains("unavailable") && text.contains("No instruction counts were made")
                && (text.contains("valgrind is not on PATH") || text.contains("<valgrind/callgrind.h>"))
        }
        #expect(ExitStatus.unavailable.rawValue == 69)
    }

    @Test("a Callgrind profile's totals are read, its L1 and last-level misses summed, and cycles estimated from its cache events")
    func profileParsing() throws {
        let profile = """
            version: 1
            creator: callgrind-3.19.0
            desc: Trigger: Client Request: latency write-unobserved plain #0 n=600
            events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
            fn=(1) main
            3 1000 200 100 10 20 5 1 2
            totals: 1000 200 100 10 20 5 1 2
            """
        let counts = try CallgrindCounts(profile: profile, file: "callgrind.out.3")
        #expect(counts.instructions == 1_000)
        #expect(counts.trigger.hasSuffix("n=600"))
        // L1 hits 1300 − 35 = 1265; LL hits 35 − 3 = 32; RAM 3.
        let expected: Double = 1_265 + 5 * 32 + 35 * 3
        let estimated = try #require(counts.estimatedCycles)
        #expect(estimated == expected)
        // The misses are the L1 and last-level miss events summed, and difference per operation.
        let cache = try #require(counts.cacheCost)
        #expect(cache == CacheCost(estimatedCycles: expected, l1Misses: 35, lastLevelMisses: 3))
        let perOperation = (cache - CacheCost(estimatedCycles: 30, l1Misses: 5, lastLevelMisses: 1)) / 2
        #expect(perOperation == CacheCost(estimatedCycles: (expected - 30) / 2, l1Misses: 15, lastLevelMisses: 1))
        let withoutCaches = try CallgrindCounts(profile: "events: Ir\nsummary: 42\n", file: "f")
        #expect(withoutCaches.instructions == 42 && withoutCaches.estimatedCycles == nil && withoutCaches.cacheCost == nil)
        #expect(throws: CallgrindError.self) { try CallgrindCounts(profile: "events: Ir\n", file: "f") }
    }
}

/// The harness's share (what of a figure is the harness's, not the strategy's): how it is computed
/// from a run's rows, and the pipeline that counts and prints it.
@Suite("Harness share")
struct HarnessShareTests {
    init() { BuiltInStrategiesKnown.declare() }

    /// The attribution pipeline end to end, in the release build the figures come from: under
    /// Callgrind, `self-check attribution` counts `plain`'s, `@Observable`'s and `@Published`'s read
    /// and write through the protocol and on the concrete type, and prints each share with the two
    /// figures it was computed from. What the share comes out as is a finding of the run, not this
    /// test's to require: the claim `harness-share-3-percent` judges it on a run's rows.
    @Test(
        "self-check attribution counts @Observable's and @Published's read and write both ways under Callgrind and prints each share computed from its two figures (release build)",
        .enabled(if: InstructionCountTests.canCount, "needs valgrind"),
        .enabled(if: InstructionCountTests.releaseObsbench != nil, "needs the release build: swift build -c release (.ci/run builds it first)"))
    func attributionPipeline() throws {
        let binary = try #require(InstructionCountTests.releaseObsbench)
        let output = try InstructionCountTests.selfCheck(["attribution"], underCallgrind: true, binary: binary)
        let lines = output.split(separator: "\n").filter { $0.hasPrefix("share ") }.map { $0.split(separator: " ").map(String.init) }
        #expect(lines.allSatisfy { $0.count == 6 }, "share STRATEGY OPERATION FRACTION PROTOCOL CONCRETE: \(output)")
        let shares = lines.filter { $0.count == 6 }
        #expect(shares.map { "\($0[1]) \($0[2])" }.sorted() == ["observable read", "observable write", "published read", "published write"], "\(output)")
        for share in shares {
            let (fraction, viaProtocol, concrete) = (try #require(Double(share[3])), try #require(Double(share[4])), try #require(Double(share[5])))
            #expect(viaProtocol.isFinite && concrete.isFinite, "both paths were counted: \(share)")
            if viaProtocol > 0 {
                #expect(abs(fraction - (viaProtocol - concrete) / viaProtocol) < 1e-9, "\(share)")
            } else {
                #expect(fraction.isNaN, "no share where the protocol path is not above plain: \(share)")
            }
        }
    }

    @Test("the share is computed from the four medians, and only where all four exist")
    func arithmetic() {
        func row(_ strategy: String, _ workload: String, _ value: Double) -> ResultRow {
            ResultRow(
                runID: "r", suite: "latency", workload: workload, strategy: strategy, executor: "main-actor", objects: 1000, subscribers: 0, concurrency: 1,
                metric: .instructions, unit: "Ir/op", statistics: Statistics(exact: value))
        }
        let rows = [
            row("plain", "read-untracked", 66), row("plain", "read-untracked-concrete", 3),
            row("observable", "read-untracked", 280), row("observable", "read-untracked-concrete", 216),
            row("observable", "write-unobserved-concrete", 569),
        ]
        let shares = HarnessShare.all(in: rows)
        #expect(shares.count == 1, "write has no protocol-path rows, so no share")
        #expect(shares.first?.protocolNet == 214 && shares.first?.concreteNet == 213)
        #expect(abs((shares.first?.share ?? 1) - 1.0 / 214) < 1e-12)
    }
}

/// The sampler's calibration loop must survive the optimiser: its cost is what gets subtracted.
@Suite("Black hole")
struct BlackHoleTests {
    init() { BuiltInStrategiesKnown.declare() }

    @Test("the empty loop the harness subtracts costs instructions (the optimiser did not delete it)", .enabled(if: InstructionCountTests.canCount, "needs valgrind"))
    func emptyLoopIsNotDeleted() throws {
        let output = try InstructionCountTests.selfCheck(["count-writes", "--strategy", "plain"], underCallgrind: true)
        let overhead = output.split(separator: "\n").first { $0.hasPrefix("loop-overhead ") }.flatMap { Double($0.split(separator: " ")[1]) }
        #expect((overhead ?? 0) >= 2, "an iteration stores its value and calls the sink: \(output)")
    }
}
