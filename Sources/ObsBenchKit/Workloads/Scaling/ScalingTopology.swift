import ObservationStrategies

/// How S subscribed views relate to the one field a scaling write changes.
public enum ScalingTopology: String, Sendable, CaseIterable {
    /// All S views read the title of record 1; the write changes that title. S re-runs needed.
    case shared
    /// View i reads the title of record i; the write changes record 1's title. 1 re-run needed.
    case disjoint
    /// All S views read the title of record 1; the write changes its `isComplete`. 0 needed.
    case unrelated
    /// View i reads the title of record i + 1 (armed, never fired); the write changes record 1's
    /// title. 0 needed: does a write cost more with idle observers in the store?
    case pending

    /// Records a store needs for `subscribers` views of this topology written at record `base`
    /// (the records up to the highest the views read).
    public func recordsNeeded(subscribers: Int, base: Int = 1) -> Int {
        base - 1
            + {
                switch self {
                case .shared, .unrelated: 1
                case .disjoint: subscribers
                case .pending: subscribers + 1
                }
            }()
    }

    /// The view with index `index` (0-based) of a sweep written at record `base` (1 unless the
    /// sweep is counted on several records: ``SubscriberScalingWorkload``'s counted draws).
    public func view(_ index: Int, base: Int = 1) -> ViewSpec {
        switch self {
        case .shared, .unrelated: .record(base, .title)
        case .disjoint: .record(base + index, .title)
        case .pending: .record(base + 1 + index, .title)
        }
    }

    /// The `sequence`th write to record `base` (each different from the one before, so no
    /// strategy skips it as an equal value); `titles` are made up front so formatting is not measured.
    public func write(_ sequence: Int, titles: [String], base: Int = 1) -> FieldWrite {
        switch self {
        case .unrelated: FieldWrite(base, .isComplete(sequence & 1 == 0))
        case .shared, .disjoint, .pending: FieldWrite(base, .title(titles[sequence % titles.count]))
        }
    }

    /// Re-runs a write needs: views that read what it changed.
    public func rerunsNeeded(subscribers: Int) -> Int {
        switch self {
        case .shared: subscribers
        case .disjoint: 1
        case .unrelated, .pending: 0
        }
    }

    /// Re-runs a strategy of this granularity delivers per write, from its declared capabilities:
    /// what the conformance suite proves for one view, times the views.
    public func rerunsDelivered(subscribers: Int, capabilities: Capabilities) -> Int {
        // A deduplicating subscriber re-runs only where a field it read changed, whatever the granularity.
        if capabilities.deduplicates && capabilities.granularity != .none { return rerunsNeeded(subscribers: subscribers) }
        return switch capabilities.granularity {
        case .none: 0
        case .property, .region: rerunsNeeded(subscribers: subscribers)
        case .object: self == .unrelated ? subscribers : rerunsNeeded(subscribers: subscribers)
        case .store: subscribers
        }
    }

    /// Sixty-four distinct titles, none equal to a sample record's.
    public static let titles = (0..<64).map { "Scaled title \($0)" }
}
