import Observation
import ObservationStrategies
import Synchronization

/// The yardstick for a derived row's harness share: the same write and derivation as the
/// `observable` strategy's computed style, written out on a concrete `@Observable` record class in
/// a tight loop. A view body is a closure run inside `withObservationTracking`, reading computed
/// properties; its `onChange` queues it, and a render pass after each write re-runs the queued
/// views (as SwiftUI re-renders invalidated views). No protocol, no store, no field enum, no
/// ``DerivedViewHandle``: nothing records outputs, runs or evaluations, and no view that was not
/// invalidated is visited.
///
/// ```swift
/// let loop = ConcreteDerivedLoop.diamond(records: TaskRecord.sample(count: 1_000), scenario: DiamondWorkload.scenario())
/// loop.write(0); loop.write(1)     // priority 5, then 0: the view re-runs after each
/// try loop.check()                 // its list, or its values, against a from-scratch computation
/// ```
@MainActor
final class ConcreteDerivedLoop {
    /// The records, as the concrete class.
    let tasks: [ConcreteTask]
    private let views: ConcreteViews
    /// Views subscribed: the list and its rows, or the diamond's one.
    var viewCount: Int { views.count }
    /// The write for an even and for an odd `k`, each a direct property assignment.
    private let setters: [@MainActor () -> Void]
    /// Whether the views show what a from-scratch computation gives (the harness's check, made
    /// outside the measured loop).
    private let isRight: @MainActor () -> Bool

    private init(tasks: [ConcreteTask], views: ConcreteViews, writes: [FieldWrite], isRight: @escaping @MainActor () -> Bool) {
        self.tasks = tasks
        self.views = views
        setters = writes.map { Self.setter($0, tasks: tasks) }
        self.isRight = isRight
    }

    /// The `k`-th write of the scenario (they alternate), then the render pass.
    func write(_ k: Int) {
        setters[k & 1]()
        views.render()
    }

    /// Throws unless every view's last run agrees with a from-scratch computation over the records.
    func check(_ workload: String) throws {
        guard isRight() else { throw DerivedCheckError.wrongOutput(view: "\(workload)'s concrete loop", shown: [], expected: [], when: "after its writes", observes: true) }
    }

    /// The filtered, sorted list (``FilteredSortedWorkload``): record 1's title is the query, a
    /// list view reads the computed list, and a row view reads the title and priority of each task
    /// listed at the start.
    static func filteredSorted(records: [TaskRecord], scenario: DerivedScenario) -> ConcreteDerivedLoop {
        let tasks = records.map(ConcreteTask.init)
        for write in scenario.setup { setter(write, tasks: tasks)() }
        let list = ConcreteFilteredList(tasks: tasks)
        let listed = list.listed
        let shown = ConcreteShown()
        var bodies: [@MainActor () -> Void] = [{ shown.list = list.listed }]
        for id in listed {
            let task = tasks[id - 1]
            bodies.append { blackHole((task.title, task.priority)) }
        }
        let graph = scenario.graph
        return ConcreteDerivedLoop(
            tasks: tasks, views: ConcreteViews(bodies), writes: [scenario.write(0), scenario.write(1)],
            isRight: {
                graph.evaluate([0], field: { tasks[$0.id - 1].value(of: $0.field) }) == [.ids(shown.list)]
            })
    }

    /// The diamond (``DiamondWorkload``): `double` and `triple` computed from `source`, record 1's
    /// priority; one view reads both.
    static func diamond(records: [TaskRecord], scenario: DerivedScenario) -> ConcreteDerivedLoop {
        let tasks = records.map(ConcreteTask.init)
        let diamond = ConcreteDiamond(task: tasks[0])
        let shown = ConcreteShown()
        let graph = scenario.graph
        return ConcreteDerivedLoop(
            tasks: tasks, views: ConcreteViews([{ shown.pair = (diamond.double, diamond.triple) }]), writes: [scenario.write(0), scenario.write(1)],
            isRight: {
                graph.evaluate([1, 2], field: { tasks[$0.id - 1].value(of: $0.field) }) == [.int(shown.pair.0), .int(shown.pair.1)]
            })
    }

    /// `write` as an assignment to the concrete property, decided once, outside the loop.
    private static func setter(_ write: FieldWrite, tasks: [ConcreteTask]) -> @MainActor () -> Void {
        let task = tasks[write.id - 1]
        switch write.value {
        case .title(let title): return { task.title = title }
        case .isComplete(let isComplete): return { task.isComplete = isComplete }
        case .priority(let priority): return { task.priority = priority }
        }
    }
}

/// A record as an `@Observable` class: the same three stored properties as the `observable`
/// strategy's record class, `ObservableTask`, which its module keeps internal. A copy on purpose:
/// made `package` so that this loop could use it, `ObservableTask` cost `observable`'s measured
/// paths more under Callgrind (read-untracked 255 -> 337 Ir, write-unobserved 614 -> 789,
/// write-observed +1.8%, 5 layouts), as the optimiser no longer treated its accessors as internal.
@Observable
final class ConcreteTask {
    var title: String
    var isComplete: Bool
    var priority: Int

    init(_ record: TaskRecord) {
        title = record.title
        isComplete = record.isComplete
        priority = record.priority
    }

    /// A field's value, for the check only (never in the measured loop).
    func value(of field: TaskField) -> FieldValue {
        switch field {
        case .title: .title(title)
        case .isComplete: .isComplete(isComplete)
        case .priority: .priority(priority)
        }
    }
}

/// The filtered, sorted list as a computed property, as an app's model would have it: the ids of
/// incomplete tasks (records 2...N) whose title contains record 1's, by priority, then id.
@MainActor
struct ConcreteFilteredList {
    let tasks: [ConcreteTask]

    var listed: [Int] {
        let query = tasks[0].title
        var listed: [(priority: Int, id: Int)] = []
        for index in 1..<tasks.count {
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
struct ConcreteDiamond {
    let task: ConcreteTask

    var source: Int { task.priority }
    var double: Int { source * 2 }
    var triple: Int { source * 3 }
}

/// What the concrete views last showed: a view body's output goes here (one store), for the check
/// after the loop.
@MainActor
final class ConcreteShown {
    var list: [Int] = []
    var pair = (0, 0)
}

/// View bodies under `withObservationTracking`: each runs once now, and again at the render pass
/// after anything it read changed.
@MainActor
final class ConcreteViews {
    private let bodies: [@MainActor () -> Void]
    private let invalidated = InvalidatedViews()
    var count: Int { bodies.count }

    init(_ bodies: [@MainActor () -> Void]) {
        self.bodies = bodies
        for index in bodies.indices { run(index) }
    }

    /// Re-runs, and so re-arms, every view invalidated since the last pass.
    func render() {
        for index in invalidated.takeAll() { run(index) }
    }

    private func run(_ index: Int) {
        let invalidated = self.invalidated
        withObservationTracking {
            bodies[index]()
        } onChange: {
            invalidated.append(index)
        }
    }
}

/// The views invalidated since the last render pass, in order. `onChange` runs in the setter, on
/// the writing thread, and must be `@Sendable`: hence the lock.
final class InvalidatedViews: Sendable {
    private let queue = Mutex<[Int]>([])

    func append(_ index: Int) {
        queue.withLock { $0.append(index) }
    }

    func takeAll() -> [Int] {
        queue.withLock { queued in
            defer { queued.removeAll(keepingCapacity: true) }
            return queued
        }
    }
}

extension WorkloadContext {
    /// For the `observable` strategy, `workload`'s concrete loop (``ConcreteDerivedLoop``), timed
    /// or counted as the strategy's rows are (``CountedWrites``), as rows named
    /// `<workload>-concrete` (``DerivedRows/concreteName(_:)``): the yardstick its computed-style
    /// row is read against. Nothing for any other strategy. A loop whose views show a wrong
    /// output gives an error row.
    @MainActor
    func measureConcreteDerived(workload: String, _ make: () throws -> ConcreteDerivedLoop) async throws -> WorkloadOutput {
        guard strategy?.name == ObservableStrategy.descriptor.name else { return WorkloadOutput() }
        let rowName = DerivedRows.concreteName(workload)
        do {
            let loop = try make()
            var k = 0
            for _ in 0..<DerivedMeasurement.countedWrites {
                loop.write(k)
                k += 1
            }
            try loop.check(workload)
            let counting = CountedWrites(self)
            let writesPerOperation = counting.writesPerOperation
            let measured = try await counting.context.measureCost(
                { iterations in
                    for _ in 0..<iterations * writesPerOperation {
                        loop.write(k)
                        k &+= 1
                    }
                },
                emptyBatch: { iterations in
                    for _ in 0..<iterations * writesPerOperation {
                        blackHole(k & 1)
                        k &+= 1
                    }
                }, sampler: DerivedMeasurement.sampler(for: counting.context), label: rowName, maximumDivisor: CountedWrites.maximumDivisor,
                repeatsWhenShortest: CountedWrites.repeatsWhenShortest
            ).perWrite(writesPerOperation: writesPerOperation)
            try loop.check(workload)
            return latencyOutput(
                workload: rowName, subscribers: loop.viewCount, measured: measured,
                note:
                    "\(workload)'s write and computed-property derivation on a concrete @Observable class in a tight loop: each invalidated view re-run once after the write; no protocol, store, field enum or derived-view bookkeeping\(counting.note)"
            )
        } catch {
            var row = ResultRow.error(runID: runID, suite: suite, strategy: strategyName, message: "\(rowName) failed: \(error)")
            row.workload = rowName
            return WorkloadOutput(rows: [row])
        }
    }
}
