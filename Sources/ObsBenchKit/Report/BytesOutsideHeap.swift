import ObservationStrategies

/// Where a strategy keeps bytes that the memory suite's allocator counters do not see, so that the
/// guide does not rank it on its heap bytes alone.
///
/// The capabilities a strategy declares say nothing about storage, and the one declared fact that
/// does, the dependency, is the same for a database in memory (whose pages SQLite allocates through
/// `malloc`, so they are counted) and one in a file (whose rows sit in the file and the OS's page
/// cache, and only the connections' page caches are counted). So the judgement is this table:
///
/// - `known`: the built-in strategies whose storage is known in detail, by name. `grdb-pool` keeps
///   its rows in a database file with a WAL (a temporary directory): the heap holds only each
///   connection's page cache (SQLite's default, about 2 MB), which is why its bytes per object fall
///   from 30 B at 10,000 records to 25 B at 100,000 while `grdb-queue`'s stay at 28.7 B.
///   `grdb-queue` is an in-memory database, counted whole: listed so the component rule below does
///   not flag it.
/// - `components`: a dependency naming one of these (a store of one's own over SQLite, say) gets
///   the component's caution, since whether its rows are on disk cannot be told from the run.
public enum BytesOutsideHeap {
    /// Built-in strategies by name: where their bytes outside the heap are, or nil for "none".
    static let known: [String: String?] = [
        "grdb-pool":
            "its rows live in SQLite's database file and WAL (a temporary directory, in the OS's file cache), outside the measured heap; the heap holds only its connections' page caches",
        "grdb-queue": nil,
    ]

    /// Components that may keep a store's data outside the process heap, matched (ignoring case)
    /// in the descriptor's `dependency`, with what to say of a strategy built on one.
    static let components: [(component: String, note: String)] = [
        ("SQLite", "it keeps its rows in SQLite: a database in a file holds them outside the measured heap, beyond its page cache")
    ]

    /// What to say of `descriptor`'s bytes outside the heap; nil when all of them are counted.
    public static func note(for descriptor: StrategyDescriptor) -> String? {
        if let known = known[descriptor.name] { return known }
        let dependency = descriptor.dependency.lowercased()
        return components.first { dependency.contains($0.component.lowercased()) }?.note
    }
}
