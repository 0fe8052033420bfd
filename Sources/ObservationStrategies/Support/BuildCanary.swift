/// A regression of known size compiled in, to prove the gate catches a change between two real
/// builds: `OBSBENCH_BUILD_CANARY=observable-write swift build -c release` (or
/// `published-write-observed`) defines a flag in this module, and the strategy named does
/// ``extraWork(_:)`` on every write it is asked to make (observable), or on every write made while
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

    /// Steps of `extraWork` in `observable`'s write: about 1% of `write-unobserved` (654 Ir/op).
    static let observableWriteSteps = 2
    /// Steps in `published`'s write with a view: about 2% of `write-observed` (7,281 Ir/op).
    static let publishedWriteSteps = 48

    /// A few instructions per step that the optimiser cannot drop: the result feeds `seed`'s
    /// owner back.
    @inline(never)
    static func extraWork(_ steps: Int, seed: Int) -> Int {
        var value = seed
        for step in 0..<steps { value = value &* 31 &+ step }
        return value
    }
}
