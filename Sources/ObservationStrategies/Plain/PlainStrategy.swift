/// No observation at all: records are final classes in an array. The floor every other strategy
/// is held against. Views run once when subscribed and never again.
@MainActor
public final class PlainStrategy: ObservationStrategy {
    nonisolated public static let descriptor = StrategyDescriptor(
        name: "plain",
        summary: "final class records in an array, no observation: the floor",
        dependency: "none",
        capabilities: Capabilities(granularity: .none, deduplicates: false, delivery: .synchronous, transactional: false, coalesces: false)
    )

    /// A record as a plain reference type, the shape the observed strategies have too.
    final class PlainTask: TaskFields {
        var title: String
        var isComplete: Bool
        var priority: Int

        init(_ record: TaskRecord) {
            title = record.title
            isComplete = record.isComplete
            priority = record.priority
        }
    }

    private var tasks: [PlainTask]
    private var views: [ObjectIdentifier: ViewHandle] = [:]

    public init(records: [TaskRecord]) throws {
        try validateRecordIDs(records)
        tasks = records.map(PlainTask.init)
    }

    public func read(_ field: TaskField, of id: Int) throws -> FieldValue {
        tasks[try recordIndex(of: id, count: tasks.count)].value(of: field)
    }

    public func readInsideView(_ field: TaskField, of id: Int, times: Int) throws -> FieldValue {
        let task = tasks[try recordIndex(of: id, count: tasks.count)]
        var value = task.value(of: field)
        for _ in 1..<max(times, 1) { value = task.value(of: field) }
        return value
    }

    public func write(_ value: FieldValue, to id: Int) throws {
        tasks[try recordIndex(of: id, count: tasks.count)].apply(value)
    }

    public func transaction(_ writes: [FieldWrite]) throws {
        for write in writes { _ = try recordIndex(of: write.id, count: tasks.count) }
        for write in writes { tasks[write.id - 1].apply(write.value) }
    }

    public func subscribe(_ spec: ViewSpec) throws -> ViewHandle {
        try validateViewSpec(spec, count: tasks.count)
        let view = ViewHandle(spec: spec)
        view.recordRun { self.tasks[$0.id - 1].value(of: $0.field) }
        views[ObjectIdentifier(view)] = view
        return view
    }

    public func unsubscribe(_ view: ViewHandle) {
        view.cancel()
        views[ObjectIdentifier(view)] = nil
    }

    public func settle() async {}

    public func tearDown() async {
        for view in views.values { view.cancel() }
        views.removeAll()
        tasks.removeAll()
    }

    public func objectsThatMustBeFreed() -> [AnyObject] { tasks }

    /// Written out for `PlainTask` (see `ConcreteLoops`: a loop generic over `TaskFields` adds a witness call).
    public static func concreteLoops(records: [TaskRecord]) -> ConcreteLoops? {
        let tasks = records.map(PlainTask.init)
        let count = tasks.count
        return ConcreteLoops(
            read: { iterations in
                var sum = 0
                for index in 0..<iterations { sum &+= tasks[index % count].priority }
                return sum
            },
            write: { iterations, first in
                for index in 0..<iterations { tasks[index % count].priority = first &+ index }
            })
    }
}
