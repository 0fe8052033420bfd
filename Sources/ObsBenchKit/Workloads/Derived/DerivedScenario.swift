import ObservationStrategies

/// One derived-state scenario: a graph, the views that read it, and the write measured. Every
/// workload of the `derived` suite builds one and hands it to ``DerivedMeasurement``.
struct DerivedScenario: Sendable {
    var graph: DerivedSpec
    var views: [DerivedViewSpec]
    /// Writes made before any view is subscribed (the filtered list's query).
    var setup: [FieldWrite] = []
    /// Writes made once the views are subscribed, before anything is counted (the dynamic view's switch).
    var prelude: [FieldWrite] = []
    /// The `k`-th measured write (k = 0, 1, 2, ...): writes alternate so that the store keeps
    /// returning to the same states.
    var write: @Sendable (_ k: Int) -> FieldWrite
    /// What the measured write does, for the rows' notes.
    var note: String
}

/// Errors that make a derived workload's row an error row instead of a number.
enum DerivedCheckError: Error, CustomStringConvertible {
    /// A view's final output differs from a from-scratch computation over the store's records.
    case wrongOutput(view: String, shown: [DerivedValue], expected: [DerivedValue], when: String, observes: Bool)
    /// The scenario cannot be built at this store size.
    case tooFewRecords(String)

    var description: String {
        switch self {
        case .wrongOutput(let view, let shown, let expected, let when, let observes):
            "\(view) shows \(shown.map(\.description).joined(separator: " ")) \(when), and a from-scratch computation over the store's records gives "
                + "\(expected.map(\.description).joined(separator: " "))"
                + (observes ? "" : " (the strategy has no observation: views never re-run, so a derived value never follows a write)")
        case .tooFewRecords(let message): message
        }
    }
}
