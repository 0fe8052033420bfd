import CCallgrind
import Foundation
import Synchronization

/// Callgrind, seen from inside the measured process: its client requests (zero the counters,
/// dump them) and the profile files a dump writes.
///
/// A worker in the instruction mode runs under
/// `valgrind --tool=callgrind --callgrind-out-file=DIR/callgrind.out`, with
/// `OBSBENCH_CALLGRIND_DIR=DIR`. Around the measured code it calls `zero()`, runs the code, and
/// `dump(label:)` reads back the totals of what Callgrind counted in between, on every thread of
/// the process that counts (``CountedThreads``: in a synchronous strategy's worker, the main
/// thread alone):
///
/// ```swift
/// Callgrind.zero()
/// for _ in 0..<1_000 { try store.write(.priority(next), to: 1) }
/// let counts = try Callgrind.dump(label: "write n=1000")
/// print(counts.instructions)  // exact, whatever else the machine does
/// ```
public enum Callgrind {
    /// The variable naming the folder Callgrind writes its dumps into.
    public static let directoryVariable = "OBSBENCH_CALLGRIND_DIR"

    /// The variable that tells a worker Callgrind started not counting (`--collect-atstart=no`)
    /// to switch counting on for its main thread alone (``CountedThreads/mainThread``).
    public static let threadsVariable = "OBSBENCH_CALLGRIND_THREADS"

    /// Switches counting on for the calling thread, the worker's main thread, when the worker was
    /// started to count that thread alone (``threadsVariable``); does nothing otherwise, or when it
    /// is on already. Called on the main thread before anything is counted: from then on the main
    /// thread counts as every thread does in a worker that counts them all, and no other thread
    /// counts instructions.
    @MainActor
    public static func countMainThreadAloneIfAsked() {
        if !mainThreadCollects { toggleCollect() }
    }

    /// Whether the main thread is counting now, as this process's own calls of ``toggleCollect()``
    /// left it: off from the start in a worker that counts the main thread alone, until
    /// ``countMainThreadAloneIfAsked()``. Only the main thread switches its counting here.
    @MainActor
    public static var mainThreadCollects: Bool {
        collecting.load(ordering: .relaxed)
    }

    /// ``mainThreadCollects``, kept beside the client request: off at the start only where
    /// ``threadsVariable`` asks for the main thread alone (Callgrind was started with
    /// `--collect-atstart=no`). Read with `getenv`, not `ProcessInfo.environment`: a dictionary of
    /// the environment, whose values hold each run's own paths, would shape the heap a little
    /// differently in each run before anything is counted (see `Console.commandName`).
    private static let collecting = Atomic<Bool>(getenv(threadsVariable).map { strcmp($0, CountedThreads.mainThread.rawValue) != 0 } ?? true)

    /// Whether `<valgrind/callgrind.h>` was found when obsbench was built; without it the client
    /// requests compile to nothing and the instruction mode is unavailable.
    public static var isCompiledIn: Bool { obsbench_callgrind_compiled_in() != 0 }

    /// Whether this process runs under Valgrind now.
    public static var isRunningUnderValgrind: Bool { obsbench_running_on_valgrind() > 0 }

    /// Resets every thread's counters.
    @inline(never)
    public static func zero() {
        obsbench_callgrind_zero_stats()
    }

    /// Switches counting off for the calling thread, or back on: what runs in between is not
    /// counted, so one dump can hold the sum of several counted windows (``InstructionCounter``'s
    /// draws). Each thread has its own switch. It starts on in every thread, except in a worker
    /// that counts its main thread alone (``countMainThreadAloneIfAsked()``), where it starts off.
    @inline(never)
    public static func toggleCollect() {
        obsbench_callgrind_toggle_collect()
        collecting.store(!collecting.load(ordering: .relaxed), ordering: .relaxed)
    }

    /// Dumps the counts since the last `zero()` or dump (every thread) to a new profile file and
    /// reads back its totals (the file stays, for the parent's profile; see `CallgrindCounts.file`).
    public static func dump(label: String) throws -> CallgrindCounts {
        try Dump(label: label).take()
    }

    /// A dump prepared ahead (its label already a C string), so that taking it runs nothing but
    /// the client request inside the counted window.
    public struct Dump: ~Copyable {
        let label: String
        let cLabel: UnsafeMutablePointer<CChar>

        public init(label: String) {
            self.label = label
            cLabel = strdup(label)
        }

        deinit { free(cLabel) }

        /// Dumps now, then reads the new profile's header.
        public consuming func take() throws -> CallgrindCounts {
            obsbench_callgrind_dump_stats_at(cLabel)
            return try Callgrind.read(label: label)
        }
    }

    /// The number Callgrind gives the next dump's file (`callgrind.out.N`): it counts dumps from 1.
    private static let nextDumpNumber = Atomic<Int>(1)

    /// Reads the header of the newest profile, which must be the dump labelled `label`: its
    /// trigger and its `summary:` line, a few hundred bytes. The worker runs under Valgrind, where
    /// every instruction costs about 50 times as much: the whole profile (every function, a few
    /// hundred KB) is read by the parent process after the worker has exited (`OperationProfile`).
    static func read(label: String) throws -> CallgrindCounts {
        guard let folder = ProcessInfo.processInfo.environment[directoryVariable] else {
            throw CallgrindError.noDumpFolder
        }
        let expected = nextDumpNumber.load(ordering: .relaxed)
        if let counts = try header(folder: folder, number: expected), counts.trigger.hasSuffix(label) {
            nextDumpNumber.store(expected + 1, ordering: .relaxed)
            return counts
        }
        // Not where it was expected (a dump this process did not make through `Dump`): look.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for number in names.filter({ $0.hasPrefix("callgrind.out.") }).map(dumpNumber).sorted(by: >) {
            guard let counts = try header(folder: folder, number: number), counts.trigger.hasSuffix(label) else { continue }
            nextDumpNumber.store(number + 1, ordering: .relaxed)
            return counts
        }
        throw CallgrindError.dumpNotFound(label: label, folder: folder)
    }

    /// The counts of `callgrind.out.NUMBER` in `folder`, from its header (trigger, events) and its
    /// last line (`totals:`, which can exceed the header's `summary:` by a few hundred); nil when
    /// there is no such file.
    static func header(folder: String, number: Int) throws -> CallgrindCounts? {
        let path = "\(folder)/callgrind.out.\(number)"
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        func bytes(at offset: Int, count: Int) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: count)
            let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
            return Array(bytes.prefix(max(0, read)))
        }
        // The header (cmd:, desc:, events:, summary:) comes before every function's costs. Both
        // ends are searched as bytes: this runs in the worker after every dump, under Valgrind,
        // where Foundation's string search over 16 KB took 14 ms a dump (1.5 s of plain's 8 s
        // counted latency worker).
        let head = bytes(at: 0, count: 16_384)
        guard let summary = line(startingWith: "summary:", in: head) else {
            throw CallgrindError.unreadableDump(file: path)
        }
        let size = Int(lseek(descriptor, 0, SEEK_END))
        let tailStart = max(0, size - 1_024)
        let tail = bytes(at: tailStart, count: 1_024)
        // A line that starts the tail is whole only when the tail is the whole file.
        let totals = line(startingWith: "totals:", in: tail, skippingFirst: tailStart > 0).map { tail[$0] } ?? []
        var counts = try CallgrindCounts(
            profile: String(decoding: head[..<summary.upperBound], as: UTF8.self) + "\n" + String(decoding: totals, as: UTF8.self), file: path)
        counts.file = path
        return counts
    }

    /// The range of the first line of `bytes` that starts with `prefix`, without its newline;
    /// `skippingFirst`: not the first line (a partial one).
    static func line(startingWith prefix: String, in bytes: [UInt8], skippingFirst: Bool = false) -> Range<Int>? {
        let wanted = Array(prefix.utf8)
        var start = 0
        var first = true
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            if !(first && skippingFirst), bytes[start..<end].starts(with: wanted) { return start..<end }
            first = false
            start = end + 1
        }
        return nil
    }

    /// Deletes a dump that no profile needs.
    static func remove(_ counts: CallgrindCounts) {
        if !counts.file.isEmpty { unlink(counts.file) }
    }

    /// The dump number a profile file's name ends with (`callgrind.out.12` → 12; none → 0).
    static func dumpNumber(_ name: String) -> Int {
        name.split(separator: ".").last.flatMap { Int($0) } ?? 0
    }
}

/// What Callgrind counted between a zero and a dump: its events (`Ir`, and with cache
/// simulation `Dr`, `Dw`, `I1mr`, `D1mr`, `D1mw`, `ILmr`, `DLmr`, `DLmw`) summed over every thread.
public struct CallgrindCounts: Sendable, Equatable {
    /// The dump's `desc: Trigger:` text, which ends with the label given to the dump.
    public var trigger: String
    public var events: [String: UInt64]
    /// The profile file the counts were read from ("" when not from a file).
    public var file = ""

    /// Instructions executed (`Ir`).
    public var instructions: UInt64 { events["Ir", default: 0] }

    /// iai-callgrind's estimate of cycles from the simulated caches, nil without cache simulation:
    /// L1 hits + 5 × last-level hits + 35 × accesses that went to memory. An estimate of what the
    /// simulated machine would spend, not a measurement of this one.
    public var estimatedCycles: Double? {
        guard let ir = events["Ir"], let dr = events["Dr"], let dw = events["Dw"],
            let i1 = events["I1mr"], let d1r = events["D1mr"], let d1w = events["D1mw"],
            let il = events["ILmr"], let dlr = events["DLmr"], let dlw = events["DLmw"]
        else { return nil }
        let ram = Double(il + dlr + dlw)
        let l1Misses = Double(i1 + d1r + d1w)
        let l1Hits = Double(ir + dr + dw) - l1Misses
        let llHits = l1Misses - ram
        return l1Hits + 5 * llHits + 35 * ram
    }

    /// What the simulated caches did, nil without cache simulation.
    public var cacheCost: CacheCost? {
        guard let cycles = estimatedCycles, let i1 = events["I1mr"], let d1r = events["D1mr"], let d1w = events["D1mw"],
            let il = events["ILmr"], let dlr = events["DLmr"], let dlw = events["DLmw"]
        else { return nil }
        return CacheCost(estimatedCycles: cycles, l1Misses: Double(i1 + d1r + d1w), lastLevelMisses: Double(il + dlr + dlw))
    }

    public init(trigger: String, events: [String: UInt64]) {
        self.trigger = trigger
        self.events = events
    }

    /// Reads a Callgrind profile's `desc: Trigger:`, `events:` and `totals:` (or `summary:`) lines.
    public init(profile text: String, file: String) throws {
        var names: [String] = []
        var totals: [UInt64]?
        var summary: [UInt64]?
        var trigger = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("events:") {
                names = line.dropFirst("events:".count).split(separator: " ").map(String.init)
            } else if line.hasPrefix("totals:") {
                totals = line.dropFirst("totals:".count).split(separator: " ").compactMap { UInt64($0) }
            } else if line.hasPrefix("summary:") {
                summary = line.dropFirst("summary:".count).split(separator: " ").compactMap { UInt64($0) }
            } else if line.hasPrefix("desc: Trigger:") {
                trigger = line.dropFirst("desc: Trigger:".count).trimmingCharacters(in: .whitespaces)
            }
        }
        guard let values = totals ?? summary, !names.isEmpty else {
            throw CallgrindError.unreadableDump(file: file)
        }
        self.trigger = trigger
        // A trailing event with no count is zero (Callgrind drops trailing zeros).
        events = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0 < values.count ? values[$0] : 0) })
    }
}

/// Why Callgrind's counts could not be read.
public enum CallgrindError: Error, CustomStringConvertible, Equatable {
    case noDumpFolder
    case dumpNotFound(label: String, folder: String)
    case unreadableDump(file: String)
    case notUnderValgrind

    public var description: String {
        switch self {
        case .noDumpFolder: "\(Callgrind.directoryVariable) is not set: the worker was not started by `obsbench run --measure instructions`"
        case .dumpNotFound(let label, let folder): "Callgrind wrote no profile for '\(label)' in \(folder)"
        case .unreadableDump(let file): "\(file) has no events: or totals: line"
        case .notUnderValgrind: "the worker is not running under valgrind --tool=callgrind"
        }
    }
}

/// What Callgrind's simulated caches (fixed geometry, `CallgrindInvocation.cacheDescription`) did
/// over a count, or per operation once differenced: L1 misses (instruction and data, reads and
/// writes: `I1mr + D1mr + D1mw`), last-level misses (`ILmr + DLmr + DLmw`, the accesses that went
/// to memory), and the cycle estimate made from them. The misses are exact counts of the
/// simulation for one memory layout; the cycles are an estimate.
public struct CacheCost: Sendable, Equatable {
    public var estimatedCycles: Double
    public var l1Misses: Double
    public var lastLevelMisses: Double

    public init(estimatedCycles: Double, l1Misses: Double, lastLevelMisses: Double) {
        self.estimatedCycles = estimatedCycles
        self.l1Misses = l1Misses
        self.lastLevelMisses = lastLevelMisses
    }

    public static func - (a: CacheCost, b: CacheCost) -> CacheCost {
        CacheCost(estimatedCycles: a.estimatedCycles - b.estimatedCycles, l1Misses: a.l1Misses - b.l1Misses, lastLevelMisses: a.lastLevelMisses - b.lastLevelMisses)
    }

    public static func / (a: CacheCost, count: Double) -> CacheCost {
        CacheCost(estimatedCycles: a.estimatedCycles / count, l1Misses: a.l1Misses / count, lastLevelMisses: a.lastLevelMisses / count)
    }

    /// Each figure's median over `costs` (figure by figure).
    static func median(_ costs: [CacheCost]) -> CacheCost {
        func middle(_ values: [Double]) -> Double { Statistics.percentile(values.sorted(), 0.5) }
        return CacheCost(
            estimatedCycles: middle(costs.map(\.estimatedCycles)), l1Misses: middle(costs.map(\.l1Misses)), lastLevelMisses: middle(costs.map(\.lastLevelMisses)))
    }
}
