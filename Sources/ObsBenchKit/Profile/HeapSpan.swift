import Foundation

/// Which of jemalloc's counters a memory row's figure is a difference of: what a heap profile's
/// stacks must be read for to explain it.
public enum HeapQuantity: String, Codable, Sendable, CaseIterable {
    /// Bytes allocated and not freed (`stats.allocated`; a profile's in-use bytes and objects).
    case liveBytes = "live_bytes"
    /// Allocations made, frees not subtracted (a profile's accumulated objects and bytes).
    case allocations
    /// Bytes allocated, frees not subtracted (the same accumulated counts).
    case allocatedBytes = "allocated_bytes"

    /// Whether a profile's accumulated counts (rather than its in-use ones) explain it.
    public var isAccumulated: Bool { self != .liveBytes }

    /// Whether the figure is a number of allocations rather than of bytes.
    public var countsAllocations: Bool { self == .allocations }
}

/// The two heap profiles, taken with a memory workload's two readings, whose difference says where
/// one memory row's bytes went, and what the row divides that difference by (objects, views,
/// writes, instances).
///
/// A memory workload names it beside the row it writes; only a heap-profiling worker
/// (``HeapProfiles``) has dumps to name, and the parent reads them after it exited.
///
/// ```swift
/// let built = context.reading(probe).since(start)
/// output.heapSpans.append(contentsOf: HeapSpan(row: freshRow, difference: built, quantity: .liveBytes, per: 1_000))
/// ```
public struct HeapSpan: Codable, Sendable, Equatable {
    /// The row explained, by its key's fields (its values come from another worker).
    public var key: RowKey
    /// The earlier profile's number, and the later one's.
    public var from, to: Int
    public var quantity: HeapQuantity
    /// What the difference is divided by.
    public var per: Double

    /// The span of `row`, whose figure is `quantity` of `difference` divided by `per`; nil when the
    /// readings carried no profiles (any worker but a heap-profiling one).
    public init?(row: ResultRow, difference: MemoryProbe.Reading, quantity: HeapQuantity, per: Double) {
        guard let from = difference.baseDump, let to = difference.dump, per > 0 else { return nil }
        key = RowKey(row)
        self.from = from
        self.to = to
        self.quantity = quantity
        self.per = per
    }

    /// The file a heap-profiling worker leaves beside its dumps, listing every span.
    public static let manifestFileName = "spans.json"
}
