import ObservationStrategies
import Testing

/// Rule 8's derivation: record 3's priority (node 0), and whether it is at least 3 (node 1), which
/// the view reads.
@MainActor
enum DerivedRule {
    static let reads = [FieldRef(3, .priority)]

    static let graph = DerivedSpec(nodes: [
        DerivedNode(name: "priority", reads: reads) { reader in
            guard case .priority(let value) = reader.field(FieldRef(3, .priority)) else { return .int(0) }
            return .int(value)
        },
        DerivedNode(name: "is-high", reads: [], inputs: [0]) { reader in
            guard case .int(let value) = reader.node(0) else { return .bool(false) }
            return .bool(value >= 3)
        },
    ])

    /// Settles the store (failing rather than hanging), then runs the view's render pass.
    static func settle(_ store: any ObservationStrategy, _ view: DerivedViewHandle) async throws {
        try await Settling.settle(store)
        view.catchUp()
    }
}
