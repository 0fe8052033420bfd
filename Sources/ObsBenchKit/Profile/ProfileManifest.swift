import Foundation

/// What an instruction-mode worker leaves beside its Callgrind dumps: for each counted row, the
/// four dumps its profile is made from (`profiles.json` in the dump folder). The worker only
/// writes it; the parent reads it, and the dumps, after the worker has exited
/// (`profiles(dumpFolder:rows:)`), because under Valgrind reading them would cost ~50× as much.
public struct ProfileManifest: Codable, Sendable, Equatable {
    public var entries: [Entry]

    /// One counted row and its dumps.
    public struct Entry: Codable, Sendable, Equatable {
        public var suite, workload, strategy, executor: String
        public var objects, subscribers, concurrency: Int
        public var dumps: ProfileDumps

        public var key: RowKey {
            RowKey(
                suite: suite, workload: workload, strategy: strategy, executor: executor, metric: .instructions, unit: Metric.instructions.unit,
                objects: objects, subscribers: subscribers, concurrency: concurrency)
        }
    }

    public static let fileName = "profiles.json"

    /// The entries of every row that carries dumps.
    public init(rows: [ResultRow]) {
        entries = rows.compactMap { row in
            row.profileDumps.map {
                Entry(
                    suite: row.suite, workload: row.workload, strategy: row.strategy, executor: row.executor,
                    objects: row.objects, subscribers: row.subscribers, concurrency: row.concurrency, dumps: $0)
            }
        }
    }

    public func write(toDumpFolder folder: String) throws {
        try JSONEncoder().encode(self).write(to: URL(fileURLWithPath: folder).appendingPathComponent(Self.fileName))
    }

    /// The profiles of a finished worker's counted rows: one `OperationProfile` per row whose
    /// dumps could be read, and an error row in `profile.csv`'s terms for each that could not
    /// (a missing manifest gives one for every instruction row in `rows`).
    public static func profiles(dumpFolder: URL, rows: [ResultRow]) -> (profiles: [OperationProfile], errors: [ProfileRow]) {
        let file = dumpFolder.appendingPathComponent(fileName).path
        let manifest: ProfileManifest
        do {
            guard let data = FileManager.default.contents(atPath: file) else { throw ProfileError.unreadableManifest(file: file, reason: "the worker wrote none") }
            do {
                manifest = try JSONDecoder().decode(ProfileManifest.self, from: data)
            } catch {
                throw ProfileError.unreadableManifest(file: file, reason: "\(error)")
            }
        } catch {
            let counted = rows.filter { $0.metric == .instructions }
            return ([], counted.map { ProfileRow.error(key: RowKey($0), message: "\(error)") })
        }
        var profiles: [OperationProfile] = []
        var errors: [ProfileRow] = []
        let names = DemangledNames()
        for entry in manifest.entries {
            do {
                profiles.append(try OperationProfile(key: entry.key, dumps: entry.dumps, folder: dumpFolder, names: names))
            } catch {
                errors.append(.error(key: entry.key, message: "\(error)"))
            }
        }
        return (profiles, errors)
    }
}
