#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A monotonic nanosecond clock (`CLOCK_MONOTONIC`): what every timing in obsbench is read from.
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point; only differences mean anything.
    @inline(__always)
    public static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }

    /// The clock's resolution in nanoseconds, as the system reports it.
    public static var resolutionNanoseconds: UInt64 {
        var spec = timespec()
        clock_getres(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// The cost of one `now()` call in nanoseconds, measured over `calls` back-to-back reads.
    public static func measureCallCost(calls: Int = 10_000) -> Double {
        let start = now()
        var last = start
        for _ in 0..<calls { last = now() }
        return Double(last &- start) / Double(calls)
    }
}
