/// A regression of known size compiled in, to prove the gate catches a change between two real
/// builds: `OBSBENCH_BUILD_CANARY=observable-write swift build -c release` (or
/// `published-write-observed`) defines a flag in this module, and the strategy named does extra
/// work of known size on every write it is asked to make (observable), or on every write made while
/// a view watches (published). ``current`` names it; `obsbench` warns when one is built in.
///
/// The runtime canary (`OBSBENCH_CANARY`) changes no code; this one changes the binary, so the
/// other rows see a different layout too, as after a real change.
public enum BuildCanary {
    /// The canary this binary was built with, or nil.
    public static var current: String? {
        #if OBSBENCH_CANARY_OBSERVABLE_WRITE
            "observable-write: \(observableWriteSteps) extra steps per observable write"
        #elseif OBSBENCH_CANARY_PUBLISHED_WRITE_OBSERVED
            "published-write-observed: \(publishedWriteSteps) extra steps per published write while a view watches"
        #else
            nil
        #endif
    }

    /// Steps of ``inlineWork(_:seed:)`` in `observable`'s write: with its load, store and mixing
    /// in of the id, +7 Ir/op, 1.07% of `write-unobserved` (654 Ir/op), measured.
    static let observableWriteSteps = 2
    /// Steps of ``calledWork(_:seed:)`` in `published`'s write with a view: +148 Ir/op, 2.03% of
    /// `write-observed` (7,281 Ir/op), measured; +3 Ir/op (0.12%) on writes no view sees (the check).
    static let publishedWriteSteps = 47

    /// A multiply and an exclusive or per step, inlined into the caller: two instructions each,
    /// which the optimiser cannot fold into one (as it folds multiplies and adds).
    @inline(__always)
    static func inlineWork(_ steps: Int, seed: Int) -> Int {
        var value = seed
        for step in 0..<steps { value = (value &* 31) ^ step }
        return value
    }

    /// A multiply and an add per step, behind a call the optimiser may not inline: a larger cost,
    /// which the measured steps (``publishedWriteSteps``) size.
    @inline(never)
    static func calledWork(_ steps: Int, seed: Int) -> Int {
        var value = seed
        for step in 0..<steps { value = value &* 31 &+ step }
        return value
    }
}
