import CMallocInfo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads the process allocator's own count of live heap bytes and of allocations made, so a
/// memory workload can take exact differences.
///
/// With jemalloc as the process allocator (a memory worker is started with `LD_PRELOAD` of
/// `libjemalloc.so.2` and `MALLOC_CONF=tcache:false`, see `JemallocLibrary`), it reads
/// `stats.allocated`, the cumulative small + large `nmalloc` of all arenas, and each size class's
/// `nmalloc` times its size, after refreshing `epoch`: every thread's allocations, each counted at
/// its size class. With the thread cache off, nothing sits in a cache between the program and
/// those counters. Without jemalloc it falls back
/// to glibc's `mallinfo2()` (bytes in use, chunk headers included; no allocation count) and says so.
public struct MemoryProbe: Sendable {
    /// Which allocator's counters a probe reads.
    public enum Allocator: Sendable, Equatable {
        /// jemalloc, with its version string.
        case jemalloc(version: String)
        /// glibc malloc through `mallinfo2()`.
        case glibc
        /// No counter this platform offers obsbench (not Linux).
        case unavailable

        /// How results name the allocator.
        public var description: String {
            switch self {
            case .jemalloc(let version): "jemalloc \(version)"
            case .glibc: "glibc malloc (mallinfo2)"
            case .unavailable: "none (no allocator statistics on this platform)"
            }
        }
    }

    public let allocator: Allocator
    private let jemalloc: Jemalloc?

    /// One reading of every counter, taken together.
    public struct Reading: Sendable, Equatable {
        /// Bytes allocated and not freed, all threads, as the allocator counts them (jemalloc: size
        /// classes; glibc: chunks including their headers).
        public var liveBytes: Int
        /// Allocations made so far, all threads (cumulative; jemalloc only).
        public var allocations: Int?
        /// Bytes allocated so far, all threads, frees not subtracted (jemalloc only).
        public var allocatedBytes: Int?
        /// Frees made so far, all threads (cumulative; jemalloc only).
        public var frees: Int?
        /// Bytes the calling thread has allocated minus those it has freed, cumulative (jemalloc's
        /// `thread.allocated` − `thread.deallocated`): immune to what other threads do.
        public var threadNetBytes: Int?
        /// The heap profile taken with this reading, in a heap-profiling worker (``HeapProfiles``);
        /// for a difference (`since`), the later one's.
        public var dump: Int? = nil
        /// For a difference, the earlier reading's heap profile: the two profiles whose difference
        /// says where this difference's bytes went.
        public var baseDump: Int? = nil

        /// Allocations made and not yet freed (jemalloc only).
        public var liveAllocations: Int? { allocations.flatMap { made in frees.map { made - $0 } } }

        /// What happened between `earlier` and this reading.
        public func since(_ earlier: Reading) -> Reading {
            Reading(
                liveBytes: liveBytes - earlier.liveBytes,
                allocations: allocations.flatMap { now in earlier.allocations.map { now - $0 } },
                allocatedBytes: allocatedBytes.flatMap { now in earlier.allocatedBytes.map { now - $0 } },
                frees: frees.flatMap { now in earlier.frees.map { now - $0 } },
                threadNetBytes: threadNetBytes.flatMap { now in earlier.threadNetBytes.map { now - $0 } }, dump: dump, baseDump: earlier.dump)
        }
    }

    /// Whether each reading also dumps a heap profile (a heap-profiling worker, ``HeapProfiles``).
    public let dumpsHeapProfiles: Bool

    /// Finds the allocator the process runs on.
    public init() {
        dumpsHeapProfiles = obsbench_heap_profile_prepare() != 0
        if let jemalloc = Jemalloc() {
            self.jemalloc = jemalloc
            allocator = .jemalloc(version: jemalloc.version)
        } else {
            jemalloc = nil
            allocator = obsbench_glibc_mallinfo2_available() != 0 ? .glibc : .unavailable
        }
    }

    /// Whether allocation counts (not only live bytes) are available: jemalloc only.
    public var countsAllocations: Bool { jemalloc != nil }

    /// Reads every counter. With jemalloc the reading itself allocates nothing (names are resolved
    /// to MIBs once, at `init`). Nil where this platform has no counters.
    public func read() -> Reading? {
        if var reading = jemalloc?.read() {
            // After the counters, so the dump (which allocates only jemalloc's own metadata) is
            // never in them.
            if dumpsHeapProfiles {
                let number = obsbench_heap_profile_dump()
                reading.dump = number >= 0 ? number : nil
            }
            return reading
        }
        if allocator == .glibc { return Reading(liveBytes: Int(obsbench_glibc_bytes_in_use()), allocations: nil, allocatedBytes: nil, frees: nil, threadNetBytes: nil) }
        return nil
    }

    /// What one allocation of `size` bytes costs in `liveBytes`: jemalloc's size class (from
    /// `nallocx`, the allocator's own answer), or glibc's chunk size (the request plus an 8-byte
    /// header, rounded up to 16, at least 32).
    public func chargedBytes(forRequest size: Int) -> Int? {
        switch allocator {
        case .jemalloc: jemalloc?.sizeClass(size)
        case .glibc: Swift.max(32, (size + 8 + 15) & ~15)
        case .unavailable: nil
        }
    }

    /// jemalloc's control interface, found with `dlsym` in the running process (it is there when
    /// the process was started with jemalloc preloaded or linked).
    struct Jemalloc: Sendable {
        typealias Mallctl = @convention(c) (UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?, Int) -> Int32
        typealias MallctlByMIB = @convention(c) (UnsafePointer<Int>?, Int, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?, Int) -> Int32
        typealias MallctlNameToMIB = @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<Int>?) -> Int32
        typealias Nallocx = @convention(c) (Int, Int32) -> Int

        let byMIB: MallctlByMIB
        let nallocx: Nallocx
        let version: String
        let epoch: [Int]
        let allocated: [Int]
        let smallCount: [Int]
        let largeCount: [Int]
        let smallFrees: [Int]
        let largeFrees: [Int]
        let threadAllocated: [Int]
        let threadDeallocated: [Int]
        /// (size, MIB of that size class's cumulative allocation count), small bins and large extents.
        let sizeClassCounts: [(size: Int, count: [Int])]

        init?() {
            #if os(Linux)
                let process = dlopen(nil, RTLD_NOW)
                guard let mallctlSymbol = dlsym(process, "mallctl"), let byMIBSymbol = dlsym(process, "mallctlbymib"),
                    let toMIBSymbol = dlsym(process, "mallctlnametomib"), let nallocxSymbol = dlsym(process, "nallocx")
                else { return nil }
                let mallctl = unsafeBitCast(mallctlSymbol, to: Mallctl.self)
                let toMIB = unsafeBitCast(toMIBSymbol, to: MallctlNameToMIB.self)
                byMIB = unsafeBitCast(byMIBSymbol, to: MallctlByMIB.self)
                nallocx = unsafeBitCast(nallocxSymbol, to: Nallocx.self)
                func mib(_ name: String) -> [Int]? {
                    var buffer = [Int](repeating: 0, count: 8)
                    var length = buffer.count
                    return toMIB(name, &buffer, &length) == 0 ? Array(buffer[..<length]) : nil
                }
                func number<T: FixedWidthInteger>(_ name: String, as: T.Type) -> T? {
                    var value: T = 0
                    var length = MemoryLayout<T>.size
                    return mallctl(name, &value, &length, nil, 0) == 0 ? value : nil
                }
                var versionPointer: UnsafePointer<CChar>?
                var versionLength = MemoryLayout<UnsafePointer<CChar>>.size
                version = mallctl("version", &versionPointer, &versionLength, nil, 0) == 0 ? versionPointer.map { String(cString: $0) } ?? "unknown version" : "unknown version"
                // 4096 is MALLCTL_ARENAS_ALL: the sum over every arena.
                guard let epoch = mib("epoch"), let allocated = mib("stats.allocated"),
                    let smallCount = mib("stats.arenas.4096.small.nmalloc"), let largeCount = mib("stats.arenas.4096.large.nmalloc"),
                    let smallFrees = mib("stats.arenas.4096.small.ndalloc"), let largeFrees = mib("stats.arenas.4096.large.ndalloc"),
                    let threadAllocated = mib("thread.allocated"), let threadDeallocated = mib("thread.deallocated"),
                    let bins = number("arenas.nbins", as: UInt32.self), let extents = number("arenas.nlextents", as: UInt32.self)
                else { return nil }
                var classes: [(size: Int, count: [Int])] = []
                for bin in 0..<bins {
                    guard let size = number("arenas.bin.\(bin).size", as: Int.self), let count = mib("stats.arenas.4096.bins.\(bin).nmalloc") else { return nil }
                    classes.append((size, count))
                }
                for extent in 0..<extents {
                    guard let size = number("arenas.lextent.\(extent).size", as: Int.self), let count = mib("stats.arenas.4096.lextents.\(extent).nmalloc") else { return nil }
                    classes.append((size, count))
                }
                self.epoch = epoch
                self.allocated = allocated
                self.smallCount = smallCount
                self.largeCount = largeCount
                self.smallFrees = smallFrees
                self.largeFrees = largeFrees
                self.threadAllocated = threadAllocated
                self.threadDeallocated = threadDeallocated
                sizeClassCounts = classes
            #else
                return nil
            #endif
        }

        func read() -> Reading {
            // Writing to `epoch` makes jemalloc refresh the statistics read below.
            var tick: UInt64 = 1
            _ = epoch.withUnsafeBufferPointer { byMIB($0.baseAddress, $0.count, nil, nil, &tick, MemoryLayout<UInt64>.size) }
            let small = value(smallCount, as: UInt64.self)
            let large = value(largeCount, as: UInt64.self)
            var bytes: UInt64 = 0
            for sizeClass in sizeClassCounts {
                bytes &+= UInt64(sizeClass.size) &* value(sizeClass.count, as: UInt64.self)
            }
            let frees = value(smallFrees, as: UInt64.self) &+ value(largeFrees, as: UInt64.self)
            let threadNet = Int(bitPattern: UInt(value(threadAllocated, as: UInt64.self) &- value(threadDeallocated, as: UInt64.self)))
            return Reading(liveBytes: value(allocated, as: Int.self), allocations: Int(small &+ large), allocatedBytes: Int(bytes), frees: Int(frees), threadNetBytes: threadNet)
        }

        func sizeClass(_ size: Int) -> Int { nallocx(size, 0) }

        private func value<T: FixedWidthInteger>(_ mib: [Int], as: T.Type) -> T {
            var result: T = 0
            var length = MemoryLayout<T>.size
            _ = mib.withUnsafeBufferPointer { byMIB($0.baseAddress, $0.count, &result, &length, nil, 0) }
            return result
        }
    }
}

/// Where Debian (and most distributions) put jemalloc, and the environment that makes a worker
/// process run on it.
public enum JemallocLibrary {
    /// Paths tried in order; `OBSBENCH_JEMALLOC` overrides them.
    public static let candidates = [
        "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2", "/usr/lib/aarch64-linux-gnu/libjemalloc.so.2",
        "/usr/lib64/libjemalloc.so.2", "/usr/lib/libjemalloc.so.2", "/usr/local/lib/libjemalloc.so.2",
    ]

    /// How to get it where it is missing.
    public static let installHint = "apt-get install libjemalloc-dev (Debian/Ubuntu)"

    /// The first jemalloc shared library that exists, or nil.
    public static func find(environment: [String: String]) -> String? {
        if let chosen = environment["OBSBENCH_JEMALLOC"], !chosen.isEmpty {
            return access(chosen, R_OK) == 0 ? chosen : nil
        }
        return candidates.first { access($0, R_OK) == 0 }
    }

    /// `environment` plus what makes glibc's own counters exact in a child that stays on glibc
    /// malloc: no per-thread cache, whose chunks `mallinfo2` counts as in use.
    public static func glibcExactEnvironment(environment: [String: String]) -> [String: String] {
        var result = environment
        result["GLIBC_TUNABLES"] = [environment["GLIBC_TUNABLES"], "glibc.malloc.tcache_count=0"].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ":")
        return result
    }

    /// `environment` plus what runs a child on jemalloc with its thread cache off (so its counters
    /// are exact at every reading).
    public static func workerEnvironment(library: String, environment: [String: String]) -> [String: String] {
        var result = environment
        result["LD_PRELOAD"] = [library, environment["LD_PRELOAD"]].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ":")
        result["MALLOC_CONF"] = "tcache:false"
        return result
    }
}
