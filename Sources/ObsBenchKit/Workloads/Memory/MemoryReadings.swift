import ObservationStrategies

/// What the memory workloads share: the probe, and how their rows name the allocator.
extension WorkloadContext {
    /// The process allocator's counters, or an error saying none can be read here.
    func memoryProbe() throws -> MemoryProbe {
        let probe = MemoryProbe()
        if probe.allocator == .unavailable {
            throw WorkloadError.notMeasurable("no allocator statistics on this platform (obsbench reads jemalloc's mallctl or glibc's mallinfo2)")
        }
        return probe
    }

    /// Every counter now; only called once `memoryProbe()` found an allocator.
    func reading(_ probe: MemoryProbe) -> MemoryProbe.Reading {
        probe.read() ?? MemoryProbe.Reading(liveBytes: 0, allocations: nil, allocatedBytes: nil, frees: nil, threadNetBytes: nil)
    }

    /// The suffix every memory row's note carries.
    func allocatorNote(_ probe: MemoryProbe) -> String {
        switch probe.allocator {
        case .jemalloc: "\(probe.allocator.description), stats.allocated (size classes, all threads, thread cache off)"
        case .glibc: "\(probe.allocator.description): chunk bytes incl. headers, thread cache off; jemalloc not found (\(JemallocLibrary.installHint))"
        case .unavailable: probe.allocator.description
        }
    }
}
