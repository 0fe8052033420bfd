import ObservationStrategies

/// One writer's commits over its own slice of the records, from a seeded generator, so every
/// strategy gets the same sequence. Each commit changes what the list screen shows, and half of
/// one shows something that existed at no boundary:
///
/// - finish: complete an open task and give it a new priority (count + 1; half-way, the task is
///   in the list at its old priority);
/// - reopen: un-complete a task and re-prioritise another completed one (count − 1; half-way, the
///   other still has its old priority);
/// - swap: un-complete one task, complete another with a new priority (count unchanged; half-way,
///   one fewer).
///
/// Writers own disjoint slices, so two writers never undo each other.
struct CommitScript: Sendable {
    private var completed: [Int]
    private var open: [Int]
    private var generator: SplitMix64

    init(slice: [TaskRecord], seed: UInt64) {
        completed = slice.filter(\.isComplete).map(\.id)
        open = slice.filter { !$0.isComplete }.map(\.id)
        generator = SplitMix64(seed: seed)
        precondition(completed.count + open.count >= 4, "a writer's slice needs at least four tasks")
    }

    /// The next commit's writes.
    mutating func next() -> [FieldWrite] {
        let kind: Int
        if completed.count <= 2 {
            kind = 0
        } else if open.count <= 1 {
            kind = 1
        } else {
            kind = pick(3)
        }
        switch kind {
        case 0:
            let finish = open.remove(at: pick(open.count))
            completed.append(finish)
            return [FieldWrite(finish, .isComplete(true)), FieldWrite(finish, .priority(newPriority()))]
        case 1:
            let undo = completed.remove(at: pick(completed.count))
            open.append(undo)
            let other = completed[pick(completed.count)]
            return [FieldWrite(undo, .isComplete(false)), FieldWrite(other, .priority(newPriority()))]
        default:
            let undo = completed.remove(at: pick(completed.count))
            let finish = open.remove(at: pick(open.count))
            completed.append(finish)
            open.append(undo)
            return [FieldWrite(undo, .isComplete(false)), FieldWrite(finish, .isComplete(true)), FieldWrite(finish, .priority(newPriority()))]
        }
    }

    private mutating func pick(_ count: Int) -> Int {
        Int(generator.next() % UInt64(count))
    }

    private mutating func newPriority() -> Int {
        Int(generator.next() % 1_000) + 1
    }
}
