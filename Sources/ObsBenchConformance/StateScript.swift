import ObservationStrategies

/// Rule 9's script: views over records 3, 4 and 5 reading fields in different orders, and the
/// changes made to them one at a time, each followed by a check of every view.
enum StateScript {
    /// One change of the script.
    enum Change: CustomStringConvertible {
        case write(FieldWrite)
        case transaction([FieldWrite])

        var description: String {
            switch self {
            case .write(let write): "write \(write.value) to #\(write.id)"
            case .transaction(let writes): "transaction " + writes.map { "\($0.value) to #\($0.id)" }.joined(separator: ", ")
            }
        }
    }

    static let views: [ViewSpec] = [
        .record(3, .title, .priority),
        .record(3, .priority, .title),
        .record(4, .isComplete, .priority, .title),
        .record(5, .priority),
        ViewSpec(reads: [FieldRef(3, .title), FieldRef(4, .priority), FieldRef(5, .isComplete)]),
    ]

    /// Every field of every record viewed changes at least once, some to the value they hold.
    static let changes: [Change] = [
        .write(FieldWrite(3, .priority(40))),
        .write(FieldWrite(3, .title("third"))),
        .write(FieldWrite(4, .priority(41))),
        .write(FieldWrite(4, .title("fourth"))),
        .write(FieldWrite(4, .isComplete(true))),
        .write(FieldWrite(5, .isComplete(true))),
        .write(FieldWrite(5, .priority(42))),
        .write(FieldWrite(3, .priority(40))),
        .transaction([FieldWrite(3, .priority(43)), FieldWrite(4, .priority(44))]),
        .transaction([FieldWrite(5, .isComplete(false)), FieldWrite(3, .title("again"))]),
    ]
}
