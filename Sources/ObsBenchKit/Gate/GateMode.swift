/// Where a gate's baseline came from, named in its summary.
///
/// ```swift
/// GateMode.committedBaseline.description  // "committed baseline"
/// GateMode.sameMachine.description        // "same-machine A/B (base and head counted here, interleaved)"
/// ```
public enum GateMode: Sendable, Equatable {
    /// A run folder committed or made earlier, possibly on another machine.
    case committedBaseline
    /// The base revision's binary and the head's, counted on this machine in one job, their
    /// runs interleaved (``InterleavedRuns``).
    case sameMachine

    public var description: String {
        switch self {
        case .committedBaseline: "committed baseline"
        case .sameMachine: "same-machine A/B (base and head counted here, interleaved)"
        }
    }
}
