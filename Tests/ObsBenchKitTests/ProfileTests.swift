import Foundation
import Testing

@testable import ObsBenchKit

/// Per-function profiles, checked on counts: real Callgrind dumps committed as fixtures (a quick
/// instruction worker's `write-unobserved` of `observable`: its four dumps, its manifest and its
/// rows), the difference that makes Ir/op per function, `profile.csv`, and the diff and gate
/// that name the functions that moved.
@Suite("Profiles")
struct ProfileTests {
    init() { BuiltInStrategiesKnown.declare() }

    /// `Tests/Fixtures/callgrind-observable-write/`, outside any target (no resources to declare).
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures").appendingPathComponent("callgrind-observable-write")

    static func fixtureRows() throws -> [ResultRow] {
        try ResultsReader.read(file: fixtures.appendingPathComponent("rows.csv").path)
    }

    @Test("a real dump parses: its functions' own costs sum to its totals, and match callgrind_annotate's")
    func realDumpParses() throws {
        let profile = try CallgrindProfile(contentsOf: Self.fixtures.appendingPathComponent("callgrind.out.82").path)
        #expect(profile.trigger == "Client Request: latency write-unobserved observable #3 n=600")
        #expect(profile.totalInstructions == 410_435)  // the summary: line (totals: says 410,477)
        #expect(profile.functions.values.reduce(0) { $0 + $1.selfInstructions } == 410_477)
        func own(_ name: String, _ object: String) -> Int64? {
            profile.functions.first { $0.key.name == name && $0.key.object.hasSuffix(object) }?.value.selfInstructions
        }
        // `callgrind_annotate --inclusive=no callgrind.out.82` (valgrind 3.19) prints these.
        #expect(own("swift_release", "libswiftCore.so") == 75_654)
        #expect(own("swift_retain", "libswiftCore.so") == 66_000)
        #expect(own("pthread_mutex_lock@@GLIBC_2.2.5", "libc.so.6") == 38_400)
        // Recursive activations (`f'2`) are one function.
        #expect(!profile.functions.keys.contains { $0.name.hasSuffix("'2") })
    }

    @Test("the profile of a counted row sums to its Ir/op, and places functions in their groups")
    func rowProfileSumsToItsCount() throws {
        let rows = try Self.fixtureRows()
        let counted = try #require(rows.first { $0.metric == .instructions }?.statistics?.median)
        let (profiles, errors) = ProfileManifest.profiles(dumpFolder: Self.fixtures, rows: rows)
        #expect(errors.isEmpty, "\(errors)")
        let profile = try #require(profiles.first)
        #expect(profiles.count == 1)
        #expect(abs(profile.total - counted) <= counted * 0.01, "\(profile.total) against \(counted)")
        // (410,477 − 137,684 − (17,620 − 6,427)) / 400, from the four dumps' totals.
        #expect(abs(profile.total - 654) < 1e-9)
        func group(of name: String) -> CostGroup? { profile.functions.first { $0.name == name }?.group }
        #expect(group(of: "swift_retain") == .swiftRuntime)
        #expect(group(of: "swift_release") == .swiftRuntime)
        #expect(group(of: "pthread_mutex_lock") == .locks)
        #expect(profile.functions.contains { $0.group == .observation && $0.name.contains("Observation.ObservationRegistrar") })
        #expect(profile.functions.contains { $0.group == .strategy && $0.name.hasPrefix("ObservationStrategies.ObservableStrategy.write") })
        // swift_retain: 66,000 Ir in the long loop's dump.
        let retain = try #require(profile.functions.first { $0.name == "swift_retain" })
        #expect(retain.selfPerOperation == 110)
    }

    @Test("profile.csv round-trips, and its rows of one counted row sum to the row's Ir/op")
    func csvRoundTrip() throws {
        let rows = try Self.fixtureRows()
        let profile = try #require(ProfileManifest.profiles(dumpFolder: Self.fixtures, rows: rows).profiles.first)
        let text = CSV.line(ProfileRow.columns) + profile.rows.map { CSV.line($0.fields) }.joined()
        let read = try ProfileRow.parse(text)
        #expect(read.count == profile.rows.count)
        #expect(read.map(\.function) == profile.rows.map(\.function))
        let summary = ProfileSummary(rows: read)
        let row = try #require(summary.rows.first)
        #expect(row.key == RowKey(rows[0]))
        #expect(abs(row.total - 654) < 654 * 0.01)
        #expect(ProfileSummary.text(row, top: 3).contains("swift_release"))
    }

    @Test("a missing or garbled dump, or no manifest, gives error rows that say which file, not a crash")
    func missingOrGarbledDump() throws {
        let rows = try Self.fixtureRows()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("obsbench-profile-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: Self.fixtures, to: folder)

        try FileManager.default.removeItem(at: folder.appendingPathComponent("callgrind.out.81"))
        var made = ProfileManifest.profiles(dumpFolder: folder, rows: rows)
        #expect(made.profiles.isEmpty)
        #expect(made.errors.count == 1 && made.errors[0].group == .error && made.errors[0].function.contains("callgrind.out.81 is missing"), "\(made.errors)")

        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("callgrind.out.81"), to: folder.appendingPathComponent("callgrind.out.81"))
        try Data("fn=half a line\n12 not-a-number\n".utf8).write(to: folder.appendingPathComponent("callgrind.out.82"))
        made = ProfileManifest.profiles(dumpFolder: folder, rows: rows)
        #expect(made.errors.count == 1 && made.errors[0].function.contains("callgrind.out.82 cannot be read"), "\(made.errors)")

        try FileManager.default.removeItem(at: folder.appendingPathComponent(ProfileManifest.fileName))
        made = ProfileManifest.profiles(dumpFolder: folder, rows: rows)
        #expect(made.errors.count == 1 && made.errors[0].function.contains("the worker wrote none"), "\(made.errors)")
        // An error row survives profile.csv.
        let read = try ProfileRow.parse(CSV.line(ProfileRow.columns) + made.errors.map { CSV.line($0.fields) }.joined())
        #expect(ProfileSummary(rows: read).rows.first?.error?.contains("wrote none") == true)
    }

    @Test("symbols are demangled and placed by module: a specialisation by its generic, a closure by its function")
    func demangledModules() {
        #expect(Demangler.demangle("$s11ObsBenchKit6CanaryV4spinyySiFZ") == "static ObsBenchKit.Canary.spin(Swift.Int) -> ()")
        #expect(Demangler.demangle("malloc") == "malloc")
        #expect(
            Demangler.module(
                of:
                    "generic specialization <ObservationStrategies.ObservableTask, Swift.Int> of Observation.ObservationRegistrar.withMutation<A, B>(of: A, keyPath: Swift.KeyPath<A, B>) -> ()"
            ) == "Observation")
        #expect(
            Demangler.module(
                of:
                    "(1) suspend resume partial function for closure #1 @Swift.MainActor @Sendable (Swift.Int) async throws -> () in ObsBenchKit.ReadUntrackedWorkload.run(ObsBenchKit.WorkloadContext)"
            ) == "ObsBenchKit")
        #expect(
            Demangler.module(
                of:
                    "protocol witness for ObservationStrategies.ObservationStrategy.read(_: ObservationStrategies.TaskField, of: Swift.Int) throws -> ObservationStrategies.FieldValue in conformance ObservationStrategies.PlainStrategy : ObservationStrategies.ObservationStrategy in ObservationStrategies"
            ) == "ObservationStrategies")
        #expect(Demangler.module(of: "outlined consume of ObservationStrategies.FieldValue") == "ObservationStrategies")
        #expect(CostGroup.of(object: "/x/obsbench", symbol: "OpenCombine.PassthroughSubject.send(A) -> ()") == .openCombine)
        #expect(CostGroup.of(object: "/usr/lib/x86_64-linux-gnu/libc.so.6", symbol: "_int_malloc") == .allocator)
        #expect(CostGroup.of(object: "/usr/lib/x86_64-linux-gnu/libsqlite3.so.0.8.6", symbol: "sqlite3VdbeExec") == .sqlite)
        // libswiftCore: its C++ (the runtime's metadata caches, reference counting) against its Swift code.
        let core = "/usr/lib/swift/linux/libswiftCore.so"
        #expect(
            CostGroup.of(
                object: core,
                symbol:
                    "std::pair<swift::GenericCacheEntry*, bool> swift::StableAddressConcurrentReadableHashMap<swift::GenericCacheEntry, swift::TaggedMetadataAllocator<(unsigned short)14>, swift::Mutex>::getOrInsert<swift::MetadataCacheKey>(swift::MetadataCacheKey)"
            ) == .swiftRuntime)
        #expect(
            CostGroup.of(
                object: core,
                symbol:
                    "bool swift::RefCounts<swift::RefCountBitsT<(swift::RefCountInlinedness)1> >::doDecrementSlow<(swift::PerformDeinit)1>(swift::RefCountBitsT<(swift::RefCountInlinedness)1>)"
            ) == .swiftRuntime)
        #expect(CostGroup.of(object: core, symbol: "swift_retain") == .swiftRuntime)
        #expect(CostGroup.of(object: core, symbol: "merged Swift.Hasher._combine(Swift.UInt) -> ()") == .standardLibrary)
        #expect(CostGroup.of(object: core, symbol: "type metadata accessor for Swift._KeyPathBuffer") == .swiftRuntime)
    }

    static func profileRow(_ function: String, _ value: Double, strategy: String = "observable") -> ProfileRow {
        let key = RowKey(
            suite: "latency", workload: "transaction-2-fields", strategy: strategy, executor: "main-actor", metric: .instructions, unit: "Ir/op",
            objects: 1_000, subscribers: 1, concurrency: 1)
        return ProfileRow(key: key, group: .swiftRuntime, function: function, selfPerOperation: value, inclusivePerOperation: value, object: "libswiftCore.so")
    }

    @Test("the diff lists the function that grew first, with before, after and delta; the gate prints it under the regression")
    func diffAndGateMovers() throws {
        let base = [Self.profileRow("swift_retain", 100), Self.profileRow("Swift.Hasher._combine(Swift.UInt) -> ()", 50), Self.profileRow("swift_release", 80)]
        let head = [Self.profileRow("swift_retain", 101), Self.profileRow("Swift.Hasher._combine(Swift.UInt) -> ()", 65), Self.profileRow("swift_release", 80)]
        let old = ProfileSummary(rows: base), new = ProfileSummary(rows: head)
        let changed = ProfileSummary.diff(base: old, current: new, minimumChange: 0.001)
        try #require(changed.count == 1)
        #expect(changed[0].before == 230 && changed[0].after == 246)
        #expect(changed[0].movers.map(\.function) == ["Swift.Hasher._combine(Swift.UInt) -> ()", "swift_retain"])
        #expect(changed[0].movers[0].delta == 15)

        func run(_ value: Double) -> RunResults {
            GateTests.counted([GateTests.row("observable", "instructions", value, unit: "Ir/op")])
        }
        var baseline = run(230), current = run(246)
        // The profiles of the gated row itself.
        let key = RowKey(baseline.rows[0])
        func keyed(_ rows: [ProfileRow]) -> ProfileSummary {
            ProfileSummary(
                rows: rows.map {
                    ProfileRow(
                        key: key, group: $0.group, function: $0.function, selfPerOperation: $0.selfPerOperation, inclusivePerOperation: $0.inclusivePerOperation, object: $0.object)
                })
        }
        baseline.profiles = keyed(base)
        current.profiles = keyed(head)
        let comparison = RunComparison(baseline: baseline, current: current, policy: GatePolicy(instructionTolerance: 0.01))
        #expect(comparison.exitStatus == .regression)
        let report = ComparisonReport(comparison: comparison, baselineSource: "a", currentSource: "b", profiles: (baseline.profiles, current.profiles))
        let text = report.text()
        #expect(text.contains("which functions moved in"), "\(text)")
        #expect(text.contains("Swift.Hasher._combine()") && text.contains("+15.0"), "\(text)")
        // Without a baseline profile, it says why it cannot tell.
        let blind = ComparisonReport(comparison: comparison, baselineSource: "a", currentSource: "b", profiles: (nil, current.profiles))
        #expect(blind.text().contains("the baseline has no profile of it"))
    }
}
