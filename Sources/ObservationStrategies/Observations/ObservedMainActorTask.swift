import Observation

/// A record as a main-actor `@Observable` class, the shape SE-0475's `Observations` is used with:
/// main-actor isolation makes the model `Sendable`, which the `Observations` closure requires.
@MainActor
@Observable
final class ObservedMainActorTask: @MainActor TaskFields {
    var title: String
    var isComplete: Bool
    var priority: Int

    init(_ record: TaskRecord) {
        title = record.title
        isComplete = record.isComplete
        priority = record.priority
    }
}
