import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What the kernel counts for this process: context switches summed over every thread, and the
/// threads that exist. Linux only (`/proc/self/task/*/status`); nil elsewhere.
public struct ProcessCounters: Sendable, Equatable {
    public var voluntarySwitches: Int
    public var involuntarySwitches: Int
    public var threads: Int

    /// Reads the counters now; nil where `/proc` is not available.
    public static func read() -> ProcessCounters? {
        #if os(Linux)
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return nil }
        var counters = ProcessCounters(voluntarySwitches: 0, involuntarySwitches: 0, threads: tasks.count)
        for task in tasks {
            // A thread can exit between listing and reading: its counts are then lost, as the kernel's are.
            guard let status = try? String(contentsOfFile: "/proc/self/task/\(task)/status", encoding: .utf8) else { continue }
            for line in status.split(separator: "\n") {
                if line.hasPrefix("voluntary_ctxt_switches:") {
                    counters.voluntarySwitches += Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0
                } else if line.hasPrefix("nonvoluntary_ctxt_switches:") {
                    counters.involuntarySwitches += Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
        }
        return counters
        #else
        return nil
        #endif
    }

    /// An id of the calling thread, distinct among the threads alive at once (`pthread_self`).
    public static func currentThreadID() -> Int {
        #if os(Linux)
        return Int(bitPattern: pthread_self())
        #else
        return Int(bitPattern: UnsafeRawPointer(pthread_self()))
        #endif
    }
}
