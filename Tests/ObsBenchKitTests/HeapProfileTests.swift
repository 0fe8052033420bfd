import Foundation
import ObservationStrategies
import Testing

@testable import ObsBenchKit

/// The memory suite's heap profiles: jemalloc's dumps read and differenced, `memprofile.csv`
/// written and read back, the check of sites against figures, and a real run's sites summing to
/// its figures.
@Suite("Heap profiles")
struct HeapProfileTests {
    init() { BuiltInStrategiesKnown.declare() }

    /// Two dumps of one process: a stack that grew by 1,000 objects of 48 B, one that freed 2 of
    /// 4,096 B, and one that did not move.
    static let earlier = """
        heap_v2/1
          t*: 12: 9000 [12: 9000]
        @ 0x7f0000001010 0x555500001234 0x555500001100
          t*: 10: 480 [10: 480]
          t0: 10: 480 [10: 480]
        @ 0x7f0000001010 0x7f0000200050
          t*: 2: 8192 [2: 8192]
        @ 0x7f0000001010 0x555500002000
          t*: 1: 64 [1: 64]

        MAPPED_LIBRARIES:
        555500000000-555500001000 r--p 00000000 fe:00 100 /work/bin/obsbench
        555500001000-555500003000 r-xp 00001000 fe:00 100 /work/bin/obsbench
        7f0000000000-7f0000002000 r-xp 00000000 fe:00 200 /usr/lib/x86_64-linux-gnu/libjemalloc.so.2
        7f0000200000-7f0000300000 r-xp 00000000 fe:00 300 /opt/swift/usr/lib/swift/linux/libswiftCore.so
        7f0000400000-7f0000500000 rw-p 00000000 00:00 0
        """

    static let later = """
        heap_v2/1
          t*: 1010: 56520 [1012: 56616]
        @ 0x7f0000001010 0x555500001234 0x555500001100
          t*: 1010: 48480 [1010: 48480]
        @ 0x7f0000001010 0x7f0000200050
          t*: 0: 0 [2: 8192]
        @ 0x7f0000001010 0x555500002000
          t*: 1: 64 [1: 64]

        MAPPED_LIBRARIES:
        555500000000-555500001000 r--p 00000000 fe:00 100 /work/bin/obsbench
        555500001000-555500003000 r-xp 00001000 fe:00 100 /work/bin/obsbench
        7f0000000000-7f0000002000 r-xp 00000000 fe:00 200 /usr/lib/x86_64-linux-gnu/libjemalloc.so.2
        7f0000200000-7f0000300000 r-xp 00000000 fe:00 300 /opt/swift/usr/lib/swift/linux/libswiftCore.so
        """

    @Test("a dump's stacks, counts and mappings are read; a difference keeps what moved, stack by stack")
    func readsAndDifferences() {
        let before = HeapDump(text: Self.earlier), after = HeapDump(text: Self.later)
        #expect(before.stacks.count == 3)
        #expect(before.stacks[[0x7f00_0000_1010, 0x5555_0000_1234, 0x5555_0000_1100]] == .init(liveObjects: 10, liveBytes: 480, allocatedObjects: 10, allocatedBytes: 480))
        let moved = after.since(before)
        #expect(moved.count == 2)
        let grown = moved[[0x7f00_0000_1010, 0x5555_0000_1234, 0x5555_0000_1100]]
        #expect(grown?.of(.liveBytes).bytes == 48_000 && grown?.of(.liveBytes).objects == 1_000)
        #expect(grown?.of(.allocations).objects == 1_000)
        let freed = moved[[0x7f00_0000_1010, 0x7f00_0020_0050]]
        #expect(freed?.of(.liveBytes).bytes == -8_192 && freed?.of(.allocatedBytes).bytes == 0)
        // An address is found in its file, relative to where the file was loaded (the lowest
        // mapping's start less its offset); an anonymous mapping names none.
        #expect(after.mapping(of: 0x5555_0000_1234)?.path == "/work/bin/obsbench")
        #expect(after.mapping(of: 0x5555_0000_1234)?.base == 0x5555_0000_0000)
        #expect(after.mapping(of: 0x7f00_0020_0050)?.base == 0x7f00_0020_0000)
        #expect(before.mapping(of: 0x7f00_0040_0010) == nil)
    }

    @Test("memprofile.csv rows are written and read back unchanged, an error row included")
    func roundTrip() throws {
        let key = RowKey(
            suite: "memory", workload: "store-lifecycle", strategy: "observable", executor: RowKey.mainActor, metric: .freshBytesPerObject,
            unit: Metric.freshBytesPerObject.unit, objects: 1_000, subscribers: 0, concurrency: 1)
        let rows = [
            MemoryProfileRow(
                key: key, group: .observation, site: "Observation.ObservationRegistrar.init() -> Observation.ObservationRegistrar", caller: "",
                bytesPerUnit: 112, allocationsPerUnit: 2, object: "libswiftObservation.so"),
            MemoryProfileRow(
                key: key, group: .standardLibrary, site: "static Swift._DictionaryStorage.allocate(capacity: Swift.Int) -> Swift._DictionaryStorage<A, B>",
                caller: "ObservationStrategies.ObservableStrategy.init(records: Swift.Array<ObservationStrategies.TaskRecord>) throws -> …",
                bytesPerUnit: -8.192, allocationsPerUnit: 0.001, object: "libswiftCore.so"),
            MemoryProfileRow.error(key: key, message: "no heap profile: nm not found, \"quoted\""),
        ]
        let text = CSV.line(MemoryProfileRow.columns) + rows.map { CSV.line($0.fields) }.joined()
        #expect(try MemoryProfileRow.parse(text) == rows)
        #expect(throws: ResultsReader.ReadError.self) { try MemoryProfileRow.parse("suite,workload\nmemory,x\n") }
    }

    @Test("the check holds a synchronous strategy's row to its figure within 1%, and shows an asynchronous one's without holding it")
    func check() {
        func key(_ strategy: String, _ metric: Metric) -> RowKey {
            RowKey(
                suite: "memory", workload: "write-allocations", strategy: strategy, executor: RowKey.mainActor, metric: metric, unit: metric.unit,
                objects: 1_000, subscribers: 1, concurrency: 1)
        }
        func site(_ key: RowKey, bytes: Double, allocations: Double) -> MemoryProfileRow {
            MemoryProfileRow(key: key, group: .strategy, site: "f", caller: "", bytesPerUnit: bytes, allocationsPerUnit: allocations, object: "obsbench")
        }
        func row(_ key: RowKey, _ value: Double) -> ResultRow {
            ResultRow(
                runID: "r", suite: key.suite, workload: key.workload, strategy: key.strategy, executor: key.executor, objects: key.objects,
                subscribers: key.subscribers, concurrency: 1, metric: key.metric, unit: key.unit, statistics: Statistics(exact: value), note: "")
        }
        let agrees = key("observable", .allocationsPerWrite), apart = key("published", .bytesAllocatedPerWrite), asynchronous = key("grdb-queue", .allocationsPerWrite)
        let summary = MemoryProfileSummary(
            profile: [
                site(agrees, bytes: 400, allocations: 9.95), site(agrees, bytes: 1, allocations: 0.05),
                site(apart, bytes: 500, allocations: 4), site(asynchronous, bytes: 9_000, allocations: 150),
            ],
            results: [row(agrees, 10), row(apart, 520), row(asynchronous, 189)])
        let checked = Dictionary(uniqueKeysWithValues: summary.check().map { ($0.key, $0) })
        #expect(checked[agrees]?.held == true && checked[agrees]?.agrees == true)
        #expect(checked[agrees]?.total == 10)
        #expect(checked[apart]?.held == true && checked[apart]?.agrees == false)  // 500 against 520: 3.8%
        #expect(checked[asynchronous]?.held == false)
        #expect(MemoryProfileSummary.text(checked[asynchronous]!, top: 5).contains("not held"))
    }

    static var canProfile: Bool {
        InstructionCountTests.releaseObsbench != nil && JemallocLibrary.find(environment: ProcessInfo.processInfo.environment) != nil && SymbolTables().canRead
    }

    @Test(
        "a real memory run's heap profiles: every row of plain and observable profiled at the smallest store, its sites summing to its figure within 1%",
        .enabled(if: canProfile, "needs the release build, jemalloc and nm"))
    func realRun() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("obsbench-heap-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(InstructionCountTests.releaseObsbench))
        process.arguments = ["--suite", "memory", "--strategy", "plain", "--strategy", "observable", "--quick", "--output", output.path, "--format", "csv"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let summary = try MemoryProfileSummary.load(output.appendingPathComponent(ResultsDirectory.FileName.latest).path)
        let results = try RunResults.load(output.appendingPathComponent(ResultsDirectory.FileName.latest).path).rows
        #expect(summary.rows.allSatisfy { $0.error == nil }, "\(summary.rows.compactMap(\.error))")
        // Every memory row at the smallest store (and every other workload's) has a profile, or
        // is zero (two identical profiles leave no site).
        let smallest = try #require(Suite.memory.quickObjectSweep.min())
        let profiled = Set(summary.rows.map(\.key))
        for row in results where row.suite == "memory" && (row.workload != "store-lifecycle" || row.objects == smallest) {
            guard let value = row.value, value != 0 else { continue }
            #expect(profiled.contains(RowKey(row)), "\(RowKey(row)) has no heap profile")
        }
        let held = summary.check().filter(\.held)
        #expect(held.count > 20)
        for row in held { #expect(row.agrees, "\(row.key): figure \(row.figure ?? .nan), sites \(row.total)") }
    }
}
