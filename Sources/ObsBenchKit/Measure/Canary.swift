import Foundation
import Synchronization

/// A regression of known size, to prove the gate catches one: with `OBSBENCH_CANARY=STRATEGY:PERCENT`
/// (for example `published:25`, or `observable:1`; several, comma-separated:
/// `dictionary-callbacks:3,coalescing-batches:100`), every write the `write-unobserved` workload
/// measures for STRATEGY also spins for PERCENT% of that write's own median cost, measured in the
/// same worker just before (time, or instructions under `--measure instructions`).
/// Rows measured with it say so in their note, and `obsbench run` warns. Never set it for real numbers.
public struct Canary: Sendable, Equatable {
    public var strategy: String
    /// The extra work as a fraction of the write's own cost (0.25 for +25%).
    public var fraction: Double

    public static let variable = "OBSBENCH_CANARY"

    public init(strategy: String, fraction: Double) {
        self.strategy = strategy
        self.fraction = fraction
    }

    /// The canaries the environment asks for (none when unset, or when a part cannot be read).
    public static let all: [Canary] = parseAll(ProcessInfo.processInfo.environment[variable])

    /// The canary for `strategy`, if the environment names it.
    public static func current(for strategy: String?) -> Canary? {
        all.first { $0.strategy == strategy }
    }

    /// Reads `STRATEGY:PERCENT`; nil for anything else.
    public static func parse(_ value: String?) -> Canary? {
        guard let parts = value?.split(separator: ":"), parts.count == 2, let percent = Double(parts[1]),
            percent.isFinite, percent > 0, percent <= 1_000
        else { return nil }
        return Canary(strategy: String(parts[0]), fraction: percent / 100)
    }

    /// Reads `STRATEGY:PERCENT[,STRATEGY:PERCENT…]`; empty when any part cannot be read.
    public static func parseAll(_ value: String?) -> [Canary] {
        guard let value, !value.isEmpty else { return [] }
        let parts = value.split(separator: ",").map { parse(String($0)) }
        return parts.contains(nil) ? [] : parts.compactMap { $0 }
    }

    /// Where `spin` leaves its result, so the optimiser must compute it.
    private static let sink = Atomic<UInt64>(0)

    /// Spins `iterations` steps of a linear congruential generator, each depending on the last (a
    /// few cycles that cannot be vectorised or skipped): the extra work. The result is stored, so
    /// the loop cannot be deleted (a `blackHole` of a plain value does not stop that).
    @inline(never)
    public static func spin(_ iterations: Int) {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<iterations { state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
        sink.store(state, ordering: .relaxed)
    }

    /// What one spin iteration costs in this process: the median of 15 timed runs of a million.
    public static func nanosecondsPerSpin() -> Double {
        let iterations = 1_000_000
        spin(iterations)
        let runs = (0..<15).map { _ -> Double in
            let begin = MonotonicClock.now()
            spin(iterations)
            return Double(MonotonicClock.now() &- begin) / Double(iterations)
        }
        return runs.sorted()[runs.count / 2]
    }
}

extension WorkloadContext {
    /// The spin iterations (on average) the canary adds to each operation of `batch`: 0 unless
    /// the canary names this context's strategy; otherwise its fraction of the operation's median
    /// cost, measured now the way the run measures (time with the short sampling settings, or
    /// instructions), divided by one spin's cost measured the same way.
    @MainActor
    func canarySpins(_ batch: @escaping Batch, emptyBatch: @escaping Batch, label: String) async throws -> Double {
        guard let canary = Canary.current(for: strategy?.name) else { return 0 }
        guard let cost = try await measureCost(batch, emptyBatch: emptyBatch, sampler: .quick, label: "\(label) canary sizing").median else { return 0 }
        let perSpin: Double
        switch measure {
        case .time:
            perSpin = Canary.nanosecondsPerSpin()
        case .instructions:
            let spins = try await measureCost({ Canary.spin($0) }, emptyBatch: { _ in Canary.spin(0) }, label: "\(label) canary spin")
            perSpin = spins.median ?? 1
        }
        return cost * canary.fraction / perSpin
    }
}
