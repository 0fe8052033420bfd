import ObservationStrategies

/// What a list screen shows of the tasks: how many are completed, and the ids of the top `k`
/// completed tasks by priority (ties by id). Two values tied by an invariant, like the design
/// notes' "5 players total, top 5: …".
public struct ShownState: Hashable, Sendable, CustomStringConvertible {
    public var completed: Int
    public var top: [Int]

    public init(completed: Int, top: [Int]) {
        self.completed = completed
        self.top = top
    }

    public var description: String { "\(completed) completed, top \(top)" }
}

/// Decides whether what a view showed ever existed at a commit boundary.
///
/// A view is either one observation reading `isComplete` and `priority` of every record and
/// deriving both parts of the `ShownState` from that one read (`listSpec`), or two separate
/// observations combined as `combineLatest` would: the completed count from one (`countSpec`),
/// the top `k` from the other (`listSpec`). Every state shown is checked against the states that
/// existed at a commit boundary (`CommitLog`); one that is not among them is torn, whichever part
/// of it (the count or the top `k`) is wrong.
///
/// ```swift
/// let checker = ConsistencyChecker(records: 20)
/// let torn = checker.tornStates(checker.shownStates(list: view.snapshot), boundaries: log.boundaryStates)
/// ```
public struct ConsistencyChecker: Sendable {
    public var records: Int
    public var k: Int

    public init(records: Int, k: Int = 5) {
        self.records = records
        self.k = k
    }

    /// The one-observation view, and the list half of a combined view: `isComplete` then
    /// `priority` of every record, in id order.
    public var listSpec: ViewSpec {
        ViewSpec(reads: (1...records).map { FieldRef($0, .isComplete) } + (1...records).map { FieldRef($0, .priority) }, recordsHistory: true)
    }

    /// The count half of a combined view: `isComplete` of every record.
    public var countSpec: ViewSpec {
        ViewSpec(reads: (1...records).map { FieldRef($0, .isComplete) }, recordsHistory: true)
    }

    /// What one run of the list view shows; nil for values of the wrong shape.
    public func shown(list values: [FieldValue]) -> ShownState? {
        guard values.count == 2 * records else { return nil }
        var completed: [(id: Int, priority: Int)] = []
        for index in 0..<records {
            guard case .isComplete(let done) = values[index], case .priority(let priority) = values[records + index] else { return nil }
            if done { completed.append((index + 1, priority)) }
        }
        let top = completed.sorted { $0.priority != $1.priority ? $0.priority > $1.priority : $0.id < $1.id }.prefix(k).map(\.id)
        return ShownState(completed: completed.count, top: Array(top))
    }

    /// The completed count one run of the count view shows; nil for values of the wrong shape.
    public func completedCount(_ values: [FieldValue]) -> Int? {
        guard values.count == records else { return nil }
        var count = 0
        for value in values {
            guard case .isComplete(let done) = value else { return nil }
            if done { count += 1 }
        }
        return count
    }

    /// What a one-observation view showed, run by run (first run included); nil for a run of
    /// the wrong shape.
    public func shownStates(list: ViewHandle.ViewState) -> [ShownState?] {
        list.history.map { shown(list: $0) }
    }

    /// What two observations combined as `combineLatest` showed: after both have delivered once,
    /// one state per delivery of either, the count from the count view's latest run and the top
    /// `k` from the list view's latest run, in the order the runs happened.
    public func shownStates(count: ViewHandle.ViewState, list: ViewHandle.ViewState) -> [ShownState?] {
        enum Delivery { case count(Int?), list(ShownState?) }
        let counts = zip(count.historyOrder, count.history.map { Delivery.count(completedCount($0)) })
        let lists = zip(list.historyOrder, list.history.map { Delivery.list(shown(list: $0)) })
        let deliveries = (Array(counts) + Array(lists)).sorted { $0.0 < $1.0 }
        var latestCount: Int??
        var latestList: ShownState??
        var states: [ShownState?] = []
        for (_, delivery) in deliveries {
            switch delivery {
            case .count(let value): latestCount = value
            case .list(let value): latestList = value
            }
            guard let countValue = latestCount, let listValue = latestList else { continue }
            if let countValue, let listValue {
                states.append(ShownState(completed: countValue, top: listValue.top))
            } else {
                states.append(nil)
            }
        }
        return states
    }

    /// States shown that never existed at a commit boundary (a nil, a run of the wrong shape, is torn).
    public func tornStates(_ shown: [ShownState?], boundaries: Set<ShownState>) -> [ShownState?] {
        shown.filter { state in state.map { !boundaries.contains($0) } ?? true }
    }
}

/// The states that existed at commit boundaries: the writers' model of the store, updated inside
/// each commit while it is exclusive (`commitFromBackground`'s `committed`), so the log follows
/// the order the store committed in, however many writers race.
public final class CommitLog: Sendable {
    private struct Model {
        var isComplete: [Bool]
        var priority: [Int]
        var boundaries: Set<ShownState> = []
        var commits = 0
    }

    private let checker: ConsistencyChecker
    private let model: Locked<Model>

    /// A log whose first boundary is `records` as they are before any commit.
    public init(records: [TaskRecord], checker: ConsistencyChecker) {
        self.checker = checker
        var model = Model(isComplete: records.map(\.isComplete), priority: records.map(\.priority))
        model.boundaries.insert(Self.shown(model, checker))
        self.model = Locked(model)
    }

    /// Applies one commit's writes to the model and records the state after it.
    public func record(_ writes: [FieldWrite]) {
        model.withLock { model in
            for write in writes {
                switch write.value {
                case .isComplete(let done): model.isComplete[write.id - 1] = done
                case .priority(let priority): model.priority[write.id - 1] = priority
                default: break
                }
            }
            model.commits += 1
            model.boundaries.insert(Self.shown(model, checker))
        }
    }

    /// Every state that existed at a commit boundary, the initial one included.
    public var boundaryStates: Set<ShownState> { model.withLock { $0.boundaries } }
    /// The state after the last commit.
    public var finalState: ShownState { model.withLock { Self.shown($0, checker) } }
    /// Commits recorded.
    public var commits: Int { model.withLock { $0.commits } }

    private static func shown(_ model: Model, _ checker: ConsistencyChecker) -> ShownState {
        checker.shown(list: model.isComplete.map(FieldValue.isComplete) + model.priority.map(FieldValue.priority))!
    }
}
