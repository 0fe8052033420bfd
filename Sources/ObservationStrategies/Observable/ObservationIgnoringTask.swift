import Observation

/// The `@Observable` record with `priority` marked `@ObservationIgnored`, the design notes' first
/// mitigation for a hot field: reads and writes skip the registrar (and no view ever learns of a
/// change). Used only for `ObservableStrategy.ignoredFieldLoops`, so the `observable` store's
/// records stay what they are.
@Observable
final class ObservationIgnoringTask: TaskFields {
    var title: String
    var isComplete: Bool
    @ObservationIgnored var priority: Int

    init(_ record: TaskRecord) {
        title = record.title
        isComplete = record.isComplete
        priority = record.priority
    }
}
