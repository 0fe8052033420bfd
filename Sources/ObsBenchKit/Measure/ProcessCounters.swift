import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What the kernel counts for this process: context switches of every thread it has had
/// (`getrusage(RUSAGE_SELF)`, which keeps the counts of threads that have exited), and the
/// threads that exist now (`/proc/self/task`, Linux only).
public struct ProcessCounters: Sendable, Equatable {
    public var voluntarySwitches: Int
    public var involuntarySwitches: Int
    /// Threads alive now; nil where `/proc` is not available.
    public var threads: Int?

    /// Reads the counters now; nil if `getrusage` fails.
    public static func read() -> ProcessCounters? {
        var usage = rusage()
        #if os(Linux)
            let who = __rusage_who_t(RUSAGE_SELF.rawValue)
        #else
            let who = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return nil }
        #if os(Linux)
            let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task"))?.count
        #else
            let threads: Int? = nil
        #endif
        return ProcessCounters(voluntarySwitches: Int(usage.ru_nvcsw), involuntarySwitches: Int(usage.ru_nivcsw), threads: threads)
    }

    /// An id of the calling thread, distinct among the threads alive at once (`pthread_self`).
    public static func currentThreadID() -> Int {
        #if os(Linux)
            return Int(bitPattern: pthread_self())
        #else
            return Int(bitPattern: UnsafeRawPointer(pthread_self()))
        #endif
    }

    /// Whether the calling thread is the process's main thread (the one `main` started on).
    public static var isMainThread: Bool { Thread.isMainThread }
}
