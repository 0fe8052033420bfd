import CCallgrind
import Foundation

/// Callgrind, seen from inside the measured process: its client requests (zero the counters,
/// dump them) and the profile files a dump writes.
///
/// A worker in the instruction mode runs under
/// `valgrind --tool=callgrind --callgrind-out-file=DIR/callgrind.out`, with
/// `OBSBENCH_CALLGRIND_DIR=DIR`. Around the measured code it calls `zero()`, runs the code, and
/// `dump(label:)` reads back what Callgrind counted in between, on every thread of the process:
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

    /// Dumps the counts since the last `zero()` or dump (every thread) to a new profile file,
    /// reads it back and deletes it.
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

        /// Dumps now, then reads the profile back.
        public consuming func take() throws -> CallgrindCounts {
            obsbench_callgrind_dump_stats_at(cLabel)
            return try Callgrind.read(label: label)
        }
    }

    /// Reads back and deletes the newest profile, which must be the dump labelled `label`.
    static func read(label: String) throws -> CallgrindCounts {
        guard let folder = ProcessInfo.processInfo.environment[directoryVariable] else {
            throw CallgrindError.noDumpFolder
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        // Every dump is a new file `callgrind.out.N`; the newest one, whose trigger names `label`, is ours.
        for name in names.sorted(by: { dumpNumber($0) > dumpNumber($1) }) where name.hasPrefix("callgrind.out") {
            let path = URL(fileURLWithPath: folder).appendingPathComponent(name).path
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            let counts = try CallgrindCounts(profile: text, file: path)
            guard counts.trigger.hasSuffix(label) else { continue }
            try? FileManager.default.removeItem(atPath: path)
            return counts
        }
        throw CallgrindError.dumpNotFound(label: label, folder: folder)
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

    /// Instructions executed (`Ir`).
    public var instructions: UInt64 { events["Ir", default: 0] }

    /// iai-callgrind's estimate of cycles from the simulated caches, nil without cache simulation:
    /// L1 hits + 5 × last-level hits + 35 × accesses that went to memory. An estimate of what the
    /// simulated machine would spend, not a measurement of this one.
    public var estimatedCycles: Double? {
        guard let ir = events["Ir"], let dr = events["Dr"], let dw = events["Dw"],
              let i1 = events["I1mr"], let d1r = events["D1mr"], let d1w = events["D1mw"],
              let il = events["ILmr"], let dlr = events["DLmr"], let dlw = events["DLmw"] else { return nil }
        let ram = Double(il + dlr + dlw)
        let l1Misses = Double(i1 + d1r + d1w)
        let l1Hits = Double(ir + dr + dw) - l1Misses
        let llHits = l1Misses - ram
        return l1Hits + 5 * llHits + 35 * ram
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
