/// One part of a run whose jobs are spread over several machines: `--shard K/N` runs the K-th of
/// N parts, and `obsbench merge` joins the N shards' folders into the run one machine would have
/// made (``ShardMerge``).
///
/// The plan numbers its jobs (``RunPlan/jobs``: suite, then measure, then strategy, then round)
/// from 0, and shard K runs the jobs whose number leaves K − 1 over when divided by N. Dealt round
/// robin rather than in contiguous blocks, each suite's jobs, and each strategy's rounds or memory
/// layouts, are spread over the shards (suites differ a hundredfold in cost: a contiguous block
/// could be the whole slow suite), so shards take about the same time and each runner measures
/// most strategies. Every job is in exactly one shard, whatever the machine, so shards made with
/// the same command line fit together.
///
/// ```swift
/// let shard = try RunShard(parsing: "2/3")
/// shard.selects(jobNumber: 4)   // true: 4 = 1 × 3 + 1
/// ```
public struct RunShard: Codable, Sendable, Hashable, CustomStringConvertible {
    /// K, from 1.
    public let index: Int
    /// N, at least 1.
    public let count: Int

    /// Why a `--shard` value is not K/N with 1 ≤ K ≤ N.
    public struct ParseError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The most parts a run may be cut into.
    public static let maximumCount = 256

    public init(index: Int, count: Int) throws(ParseError) {
        guard (1...Self.maximumCount).contains(count) else {
            throw ParseError(description: "--shard K/N needs 1 ≤ N ≤ \(Self.maximumCount), got N = \(count)")
        }
        guard (1...count).contains(index) else {
            throw ParseError(description: "--shard K/N needs 1 ≤ K ≤ N, got \(index)/\(count)")
        }
        self.index = index
        self.count = count
    }

    /// Parses `K/N`, e.g. `2/3`.
    public init(parsing text: String) throws(ParseError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw ParseError(description: "--shard takes K/N (the K-th of N parts, e.g. 2/3), got '\(text)'")
        }
        try self.init(index: index, count: count)
    }

    /// Whether this shard runs the plan's job numbered `jobNumber` (from 0).
    public func selects(jobNumber: Int) -> Bool {
        jobNumber % count == index - 1
    }

    /// Whether the shard is only part of a run (N > 1); `1/1` is the whole run.
    public var isPartial: Bool { count > 1 }

    /// `K/N`.
    public var description: String { "\(index)/\(count)" }
}
