import GRDB
import ObservationStrategies
import Synchronization

/// The `task` table of the `grdb` strategies and the SQL every variant runs against it.
/// Each row carries a `version`: the stamp of the last write transaction that changed it.
enum TaskTable {
    static let name = "task"

    static func create(in db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE task (
                    id INTEGER PRIMARY KEY,
                    title TEXT NOT NULL,
                    isComplete BOOLEAN NOT NULL,
                    priority INTEGER NOT NULL,
                    version INTEGER NOT NULL DEFAULT 0
                )
                """)
    }

    static func insert(_ records: [TaskRecord], in db: Database) throws {
        let insert = try db.cachedStatement(sql: "INSERT INTO task (id, title, isComplete, priority) VALUES (?, ?, ?, ?)")
        for record in records {
            try insert.execute(arguments: [record.id, record.title, record.isComplete, record.priority])
        }
    }

    /// What one fetch of a view returns: the fields it reads, and the newest version among their rows.
    struct ViewFetch: Sendable, Equatable {
        var values: [FieldValue]
        var version: Int
    }

    /// The fields a view reads and their rows' newest version, fetched in the caller's read transaction.
    static func fetchView(_ reads: [FieldRef], in db: Database) throws -> ViewFetch {
        var values: [FieldValue] = []
        values.reserveCapacity(reads.count)
        var newest = 0
        for ref in reads {
            let statement = try db.cachedStatement(sql: "SELECT \(ref.field.columnName), version FROM task WHERE id = ?")
            guard let row = try Row.fetchOne(statement, arguments: [ref.id]) else {
                throw StrategyError.unknownRecord(id: ref.id, validRange: nil)
            }
            values.append(try fieldValue(ref.field, from: row[0]))
            newest = max(newest, row[1])
        }
        return ViewFetch(values: values, version: newest)
    }

    static func fetch(_ field: TaskField, of id: Int, in db: Database) throws -> FieldValue {
        let statement = try db.cachedStatement(sql: "SELECT \(field.columnName) FROM task WHERE id = ?")
        guard let value = try DatabaseValue.fetchOne(statement, arguments: [id]) else {
            throw StrategyError.unknownRecord(id: id, validRange: nil)
        }
        return try fieldValue(field, from: value)
    }

    static func fieldValue(_ field: TaskField, from value: DatabaseValue) throws -> FieldValue {
        switch field {
        case .title:
            guard let title = String.fromDatabaseValue(value) else { throw StrategyError.storeFailure("title is not text") }
            return .title(title)
        case .isComplete:
            guard let flag = Bool.fromDatabaseValue(value) else { throw StrategyError.storeFailure("isComplete is not a boolean") }
            return .isComplete(flag)
        case .priority:
            guard let priority = Int.fromDatabaseValue(value) else { throw StrategyError.storeFailure("priority is not an integer") }
            return .priority(priority)
        }
    }

    static func databaseValue(_ value: FieldValue) -> DatabaseValue {
        switch value {
        case .title(let title): title.databaseValue
        case .isComplete(let flag): flag.databaseValue
        case .priority(let priority): priority.databaseValue
        }
    }
}

/// The write stamp of a `grdb` store: advanced by each write transaction, read by GRDB's
/// `databaseDidChange` callback on the writer to tell a view which version it must see.
final class VersionClock: Sendable {
    private let value = Atomic<Int>(0)

    var current: Int { value.load(ordering: .acquiring) }

    /// Moves to the next version and returns it.
    func advance() -> Int {
        value.add(1, ordering: .acquiringAndReleasing).newValue
    }
}
