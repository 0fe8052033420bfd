import Observation
import ObservationStrategies

#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif

/// A concrete loop's records, as its app holds them (``ConcreteApp``), with each object's
/// `objectWillChange` fetched once (OpenCombine's getter walks the object with `Mirror`).
@MainActor
enum ConcreteStore {
    case observable([ConcreteTask])
    case published([ConcretePublishedTask], willChange: [ObservableObjectPublisher])
    case context(ConcreteContext, willChange: ObservableObjectPublisher)
    case observableContext(ConcreteObservableContext)
    case stateSubject(CurrentValueSubject<[TaskRecord], Never>)
    case structVM(ConcreteRecordContext)

    init(_ app: ConcreteApp, records: [TaskRecord]) {
        switch app {
        case .observable: self = .observable(records.map(ConcreteTask.init))
        case .published, .publishedPipeline:
            let tasks = records.map(ConcretePublishedTask.init)
            self = .published(tasks, willChange: tasks.map(\.objectWillChange))
        case .publishedContext, .publishedContextPipeline:
            let context = ConcreteContext(records: records)
            self = .context(context, willChange: context.objectWillChange)
        case .observableContext: self = .observableContext(ConcreteObservableContext(records: records))
        case .stateSubject: self = .stateSubject(CurrentValueSubject(records))
        case .structVM: self = .structVM(ConcreteRecordContext(records: records))
        }
    }

    /// `write` as an assignment to the concrete property, decided once, outside the loop.
    func setter(_ write: FieldWrite) -> @MainActor () -> Void {
        let index = write.id - 1
        switch (self, write.value) {
        case (.observable(let tasks), .title(let title)): return { tasks[index].title = title }
        case (.observable(let tasks), .isComplete(let isComplete)): return { tasks[index].isComplete = isComplete }
        case (.observable(let tasks), .priority(let priority)): return { tasks[index].priority = priority }
        case (.published(let tasks, _), .title(let title)): return { tasks[index].title = title }
        case (.published(let tasks, _), .isComplete(let isComplete)): return { tasks[index].isComplete = isComplete }
        case (.published(let tasks, _), .priority(let priority)): return { tasks[index].priority = priority }
        case (.context(let context, _), .title(let title)): return { context.records[index].title = title }
        case (.context(let context, _), .isComplete(let isComplete)): return { context.records[index].isComplete = isComplete }
        case (.context(let context, _), .priority(let priority)): return { context.records[index].priority = priority }
        case (.observableContext(let context), .title(let title)): return { context.records[index].title = title }
        case (.observableContext(let context), .isComplete(let isComplete)): return { context.records[index].isComplete = isComplete }
        case (.observableContext(let context), .priority(let priority)): return { context.records[index].priority = priority }
        case (.stateSubject(let subject), .title(let title)): return { subject.value[index].title = title }
        case (.stateSubject(let subject), .isComplete(let isComplete)): return { subject.value[index].isComplete = isComplete }
        case (.stateSubject(let subject), .priority(let priority)): return { subject.value[index].priority = priority }
        case (.structVM(let context), _): return { context.apply(write.value, at: index) }
        }
    }

    /// A field's value, for the check only (never in the measured loop).
    func value(_ ref: FieldRef) -> FieldValue {
        switch self {
        case .observable(let tasks): tasks[ref.id - 1].value(of: ref.field)
        case .published(let tasks, _): tasks[ref.id - 1].value(of: ref.field)
        case .context(let context, _): context.records[ref.id - 1].value(of: ref.field)
        case .observableContext(let context): context.records[ref.id - 1].value(of: ref.field)
        case .stateSubject(let subject): subject.value[ref.id - 1].value(of: ref.field)
        case .structVM(let context): context.records[ref.id - 1].value(of: ref.field)
        }
    }
}

/// The fields a concrete derivation reads, whichever record type holds them.
protocol ConcreteTaskFields {
    var title: String { get }
    var isComplete: Bool { get }
    var priority: Int { get }
}

extension ConcreteTaskFields {
    /// A field's value, for the check only (never in the measured loop).
    func value(of field: TaskField) -> FieldValue {
        switch field {
        case .title: .title(title)
        case .isComplete: .isComplete(isComplete)
        case .priority: .priority(priority)
        }
    }
}

/// A record as an `@Observable` class: the same three stored properties as the `observable`
/// strategy's record class, `ObservableTask`, which its module keeps internal. A copy on purpose:
/// made `package` so that this loop could use it, `ObservableTask` cost `observable`'s measured
/// paths more under Callgrind (read-untracked 255 -> 337 Ir, write-unobserved 614 -> 789,
/// write-observed +1.8%, 5 layouts), as the optimiser no longer treated its accessors as internal.
@Observable
final class ConcreteTask: ConcreteTaskFields {
    var title: String
    var isComplete: Bool
    var priority: Int

    init(_ record: TaskRecord) {
        title = record.title
        isComplete = record.isComplete
        priority = record.priority
    }
}

/// A record as an `ObservableObject` with `@Published` fields, as the `published` strategy's
/// (internal) `PublishedTask` is.
final class ConcretePublishedTask: ObservableObject, ConcreteTaskFields {
    @Published var title: String
    @Published var isComplete: Bool
    @Published var priority: Int

    init(_ record: TaskRecord) {
        title = record.title
        isComplete = record.isComplete
        priority = record.priority
    }
}

/// A context holding every record in one array property, whichever kind of observable object.
protocol ConcreteRecordsContext: AnyObject {
    var records: [TaskRecord] { get }
}

/// The design notes' `Context.Data`: every record in one `@Published` array, as the
/// `published-context` strategy's (internal) `TaskContextData` holds them.
final class ConcreteContext: ObservableObject, ConcreteRecordsContext {
    @Published var records: [TaskRecord]

    init(records: [TaskRecord]) {
        self.records = records
    }
}

/// The same context as one `@Observable` class, as the `observable-context` strategy's (internal)
/// `TaskContext` holds it.
@Observable
final class ConcreteObservableContext: ConcreteRecordsContext {
    var records: [TaskRecord]

    init(records: [TaskRecord]) {
        self.records = records
    }
}

extension TaskRecord: ConcreteTaskFields {}

/// The filtered, sorted list as a computed property, as an app's model would have it: the ids of
/// incomplete tasks (records 2...N) whose title contains record 1's, by priority, then id; a
/// completed task's title and priority are not read.
enum ConcreteFilteredList {
    static func listed<Tasks: RandomAccessCollection<Task>, Task: ConcreteTaskFields>(_ tasks: Tasks) -> [Int] where Tasks.Index == Int {
        let query = tasks[tasks.startIndex].title
        var listed: [(priority: Int, id: Int)] = []
        for index in (tasks.startIndex + 1)..<tasks.endIndex {
            let task = tasks[index]
            guard !task.isComplete, task.title.contains(query) else { continue }
            listed.append((task.priority, index + 1))
        }
        listed.sort { ($0.priority, $0.id) < ($1.priority, $1.id) }
        return listed.map(\.id)
    }
}

/// The diamond as computed properties: each of `double` and `triple` reads `source` again.
@MainActor
struct ConcreteDiamond<Task: ConcreteTaskFields> {
    let task: Task

    var source: Int { task.priority }
    var double: Int { source * 2 }
    var triple: Int { source * 3 }
}

/// The diamond over a context: `source` reads the records' array each time.
@MainActor
struct ConcreteContextDiamond<Context: ConcreteRecordsContext> {
    let context: Context

    var source: Int { context.records[0].priority }
    var double: Int { source * 2 }
    var triple: Int { source * 3 }
}

/// The `struct-vm` app's store, as the strategy's (internal) `RecordContext` is: struct records
/// in an array, and an identity map by id of the `@Observable` view models alive (weakly held).
/// A write updates the struct, then the record's view model if one is alive. The loop holds the
/// view models its derivations read (``held``), as the strategy holds its derived views'.
@MainActor
final class ConcreteRecordContext {
    private(set) var records: [TaskRecord]
    private var viewModels: [Int: Weak] = [:]
    private var held: [ConcreteTask] = []

    struct Weak {
        weak var object: ConcreteTask?
    }

    init(records: [TaskRecord]) {
        self.records = records
    }

    /// Record `index`'s view model, made now if none is alive, and held.
    func viewModel(for index: Int) -> ConcreteTask {
        let id = records[index].id
        if let existing = viewModels[id]?.object { return existing }
        let made = ConcreteTask(records[index])
        viewModels[id] = Weak(object: made)
        held.append(made)
        return made
    }

    /// The struct updated, then the live view model (`write`'s value decided once, by the setter).
    func apply(_ value: FieldValue, at index: Int) {
        records[index].apply(value)
        guard let viewModel = viewModels[records[index].id]?.object else { return }
        switch value {
        case .title(let title): viewModel.title = title
        case .isComplete(let isComplete): viewModel.isComplete = isComplete
        case .priority(let priority): viewModel.priority = priority
        }
    }
}

/// A derived value cached as an app caches one in an `@Observable` model: a cell, its value
/// computed under `withObservationTracking` and computed again, at the next render pass, after
/// something it read changed; the new value assigned whether or not it equals the old (a plain
/// `cell.value = f(...)`). Views that read ``value`` track the cell. The cell is a class of its
/// value's own type, as an app's model is (an `@Observable` generic class builds its key paths at
/// run time on every access: measured, it made this loop dearer than the harness).
@MainActor
final class ConcreteCache<Cell: ConcreteCell>: ConcreteRefreshing {
    private let cell: Cell
    private let compute: @MainActor () -> Cell.Value
    /// Where the cache is queued when something it read changed (set by ``ConcreteViews``).
    private var dirty: (queue: InvalidatedViews, index: Int)?

    init(_ cell: Cell, _ compute: @escaping @MainActor () -> Cell.Value) {
        self.cell = cell
        self.compute = compute
        cell.value = compute()
    }

    var value: Cell.Value { cell.value }

    func arm(_ queue: InvalidatedViews, index: Int) {
        dirty = (queue, index)
        refresh()
    }

    func refresh() {
        guard let (queue, index) = dirty else { return }
        cell.value = withObservationTracking {
            compute()
        } onChange: {
            queue.append(index)
        }
    }
}

/// A cache a render pass brings up to date before it re-runs views (``ConcreteCache``).
@MainActor
protocol ConcreteRefreshing: AnyObject {
    func arm(_ queue: InvalidatedViews, index: Int)
    func refresh()
}

/// An `@Observable` class holding one cached value.
@MainActor
protocol ConcreteCell: AnyObject {
    associatedtype Value
    var value: Value { get set }
}

/// A cached number (a fan-out value, the diamond's nodes).
@Observable
final class ConcreteNumberCell: ConcreteCell {
    var value = 0
}

/// A cached list of record ids (the filtered, sorted list).
@Observable
final class ConcreteListCell: ConcreteCell {
    var value: [Int] = []
}
