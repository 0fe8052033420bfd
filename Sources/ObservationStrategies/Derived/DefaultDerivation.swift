/// The derivation every strategy has, a store of one's own too: derive in the view body from what
/// it reads. The view subscribes an ordinary ``ViewSpec`` over every field its nodes may read
/// (``DerivedViewSpec/allFields``) and derives its output from the values that run read
/// (``DerivedViewHandle/catchUp()``). Nothing is cached, and every change to any of those fields
/// re-runs the view as the strategy's granularity says.
extension ObservationStrategy {
    public nonisolated static var derivationStyles: [DerivationStyle] { [.viewBody] }

    public func subscribeDerived(_ view: DerivedViewSpec, style: DerivationStyle) throws -> DerivedViewHandle {
        guard style == .viewBody else { throw DerivedError.unsupportedStyle(style, strategy: Self.descriptor.name) }
        return try subscribeDerivedInViewBody(view)
    }

    public func unsubscribeDerived(_ view: DerivedViewHandle) {
        view.cancel()
        if let fieldView = view.fieldView { unsubscribe(fieldView) }
    }

    /// The default derivation, for a strategy that overrides ``subscribeDerived(_:style:)`` for
    /// its own styles and keeps this one for ``DerivationStyle/viewBody``.
    public func subscribeDerivedInViewBody(_ view: DerivedViewSpec) throws -> DerivedViewHandle {
        let fields = view.allFields
        guard !fields.isEmpty else { throw StrategyError.emptyView }
        let handle = DerivedViewHandle(spec: view, fieldView: try subscribe(ViewSpec(reads: fields)))
        handle.catchUp()
        return handle
    }
}

/// Why a derived view could not be subscribed.
public enum DerivedError: Error, Equatable, CustomStringConvertible {
    /// The strategy does not derive values the way asked.
    case unsupportedStyle(DerivationStyle, strategy: String)

    public var description: String {
        switch self {
        case .unsupportedStyle(let style, let strategy): "\(strategy) has no \(style.rawValue) derivation"
        }
    }
}
