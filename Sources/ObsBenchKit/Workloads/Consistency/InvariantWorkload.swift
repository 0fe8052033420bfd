import ObservationStrategies

/// Can a view see a state that never existed? One view reads every task's completion and priority
/// and derives the completed count and the top five; one or two writers swap completion between
/// two tasks, `transactions` times each, so the count is constant at every transaction boundary.
///
/// A strategy that offers transactions (`transactional` in its capabilities) gets each swap as one
/// `transaction` call. One that does not gets it as two writes in two main-actor jobs (a
/// `Task.yield()` between them), which is how changes made elsewhere (a background context, a
/// network response) arrive one at a time. Two writers take turns at every job boundary. Torn
/// observations are counted by `ConsistencyChecker`; whatever a strategy shows is the finding.
public struct InvariantWorkload: Workload {
    public let writers: Int
    public var name: String { writers == 1 ? "invariant-1-writer" : "invariant-\(writers)-writers" }
    public var summary: String {
        "\(writers == 1 ? "one writer swaps" : "\(writers) concurrent writers swap") task completion in transactions; one view counts completed tasks and lists the top 5: torn observations"
    }

    public init(writers: Int) {
        self.writers = writers
    }

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        let records = max(context.objects, 4 * writers)
        let initial = TaskRecord.sample(count: records)
        let checker = ConsistencyChecker(records: records, completedCount: initial.filter(\.isComplete).count)
        let store = try context.strategy.makeStore(initial)
        let view = try store.subscribe(checker.viewSpec)
        await store.settle()
        let transactions = context.quick ? 200 : 1_000
        let transactional = context.strategy.descriptor.capabilities.transactional
        let begin = MonotonicClock.now()
        // Each writer owns a contiguous slice of the records, so writers never undo each other.
        // The writers take turns job by job: a main-actor store serialises them anyway, and taking
        // turns at every job boundary is the interleaving two concurrent writers can produce.
        var swappers = (0..<writers).map { writer in
            Swapper(slice: initial.filter { ($0.id - 1) * writers / records == writer }, seed: UInt64(writer + 1))
        }
        for _ in 0..<transactions {
            if transactional {
                for index in swappers.indices {
                    try store.transaction(swappers[index].nextSwap())
                    await Task.yield()
                }
            } else {
                let swaps = swappers.indices.map { swappers[$0].nextSwap() }
                for half in 0..<2 {
                    for swap in swaps {
                        try store.write(swap[half].value, to: swap[half].id)
                        await Task.yield()
                    }
                }
            }
        }
        await store.settle()
        let elapsed = Double(MonotonicClock.now() - begin)
        let state = view.snapshot
        store.unsubscribe(view)
        await store.tearDown()
        if let failure = state.failure { throw WorkloadError.viewFailed(failure) }
        guard let final = state.lastSeen.isEmpty ? nil : checker.derive(state.lastSeen), final.count == checker.completedCount else {
            throw WorkloadError.viewFailed("after settle() the view saw \(state.lastSeen.count) values whose completed count is not \(checker.completedCount)")
        }
        let committed = transactions * writers
        let torn = checker.tornRuns(in: state.history)
        let how = transactional ? "each swap one transaction() call" : "each swap two writes in two main-actor jobs (no transactions in this strategy)"
        func row(_ metric: String, _ unit: String, _ value: Double, _ note: String) -> ResultRow {
            var row = context.countRow(workload: name, objects: records, subscribers: 1, metric: metric, unit: unit, value: value, note: note)
            row.concurrency = writers
            return row
        }
        return WorkloadOutput(rows: [
            row("transactions", "transactions", Double(committed), "\(writers) writer(s) × \(transactions); \(how); \(String(format: "%.1f", elapsed / 1e6)) ms in all"),
            row("reruns_per_transaction", "reruns/transaction", Double(state.reruns) / Double(committed), "\(state.reruns) view re-runs"),
            row("notifications_per_transaction", "notifications/transaction", Double(state.notifications) / Double(committed), "\(state.notifications) notifications (below 1: coalesced)"),
            row("torn_observations", "observations", Double(torn), "runs whose completed count was not \(checker.completedCount), out of \(state.history.count) runs"),
            row("torn_per_1000_transactions", "torn/1000 transactions", Double(torn) * 1_000 / Double(committed), how),
        ])
    }

    /// One writer's next swap within its slice: un-complete a completed task and complete an
    /// incomplete one, chosen by a seeded generator.
    struct Swapper {
        var completed: [Int]
        var open: [Int]
        var generator: SplitMix64

        init(slice: [TaskRecord], seed: UInt64) {
            completed = slice.filter(\.isComplete).map(\.id)
            open = slice.filter { !$0.isComplete }.map(\.id)
            generator = SplitMix64(seed: seed)
            precondition(!completed.isEmpty && !open.isEmpty, "a writer's slice needs a completed and an open task")
        }

        /// The two writes of the next swap, un-completing first.
        mutating func nextSwap() -> [FieldWrite] {
            let doneIndex = Int(generator.next() % UInt64(completed.count))
            let openIndex = Int(generator.next() % UInt64(open.count))
            let (undo, finish) = (completed[doneIndex], open[openIndex])
            completed[doneIndex] = finish
            open[openIndex] = undo
            return [FieldWrite(undo, .isComplete(false)), FieldWrite(finish, .isComplete(true))]
        }
    }
}
