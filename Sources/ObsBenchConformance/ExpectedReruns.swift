import ObservationStrategies

/// The number of re-runs a view must show after one write, derived only from the strategy's
/// declared capabilities and from what the view read: the conformance suite asserts these exactly.
public enum ExpectedReruns {
    public static func afterWrite(_ write: FieldWrite, view: ViewSpec, capabilities: Capabilities) -> Int {
        let readsChangedField = view.reads.contains(FieldRef(write.id, write.value.field))
        if capabilities.deduplicates { return readsChangedField ? 1 : 0 }
        switch capabilities.granularity {
        case .none: return 0
        case .property, .region: return readsChangedField ? 1 : 0
        case .object: return view.reads.contains { $0.id == write.id } ? 1 : 0
        case .store: return 1
        }
    }
}
