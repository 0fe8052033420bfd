import CMallocInfo
import Foundation
import ObservationStrategies

/// Where a memory row's bytes go: jemalloc's heap profiles of a second memory worker, read into
/// allocation sites (`memprofile.csv`, ``MemoryProfileRow``).
///
/// The memory worker that makes the table's counts runs on jemalloc with profiling off. A second
/// one, started with ``workerEnvironment(jemalloc:folder:)``, samples every allocation
/// (`prof:true,lg_prof_sample:0`, accumulated counts kept with `prof_accum:true`) and dumps a
/// profile (`prof.dump`) at every reading its workloads take; each memory row names the two dumps
/// its figure is the difference of (``HeapSpan``, `spans.json`). Profiling changes what
/// `stats.allocated` says (jemalloc promotes each sampled small allocation to a page, about
/// 16 KiB), so that worker's rows are thrown away; the profiles keep each allocation's own size
/// class. After it exited, the parent takes each span's difference stack by stack, names each
/// return address by the symbol `nm` gives for its file (``SymbolTables``, read once a run), and
/// adds the bytes up by allocating function.
///
/// Why jemalloc's profiler rather than DHAT or heaptrack: it is the allocator that makes the
/// table's counts, so a site's bytes are at the same size classes and sum to the same figure; it
/// dumps at the points the workload chooses, in the process's own time (DHAT runs the worker
/// under Valgrind, ~50× slower, and reports once at exit). Its own reader, `jeprof`, is not used:
/// it took 7.5 s a dump here (26 s for one worker's 24), where `nm` takes 0.1 s a file.
public enum HeapProfiles {
    /// The environment variable naming the folder a heap-profiling worker dumps into.
    public static let folderVariable = OBSBENCH_HEAP_PROFILES_VARIABLE

    /// jemalloc's settings in a heap-profiling worker.
    public static let mallocConfiguration = "tcache:false,prof:true,lg_prof_sample:0,prof_accum:true"

    /// The environment of a heap-profiling memory worker: jemalloc's, with profiling on.
    public static func workerEnvironment(jemalloc: [String: String], folder: String) -> [String: String] {
        var environment = jemalloc
        environment["MALLOC_CONF"] = mallocConfiguration
        environment[folderVariable] = folder
        return environment
    }

    /// Why a worker's profiles could not be read.
    public struct ReadError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The memory profile of a finished heap-profiling worker whose dumps and `spans.json` are in
    /// `folder`: for each span's row, its sites, their bytes and allocations per unit (none for a
    /// row whose two profiles are the same), and the keys of every row a span explains.
    public static func rows(folder: URL, symbols: SymbolTables) throws -> (rows: [MemoryProfileRow], explained: Set<RowKey>) {
        let manifest = folder.appendingPathComponent(HeapSpan.manifestFileName)
        guard let data = FileManager.default.contents(atPath: manifest.path) else { throw ReadError(description: "the worker wrote no \(HeapSpan.manifestFileName)") }
        let spans: [HeapSpan]
        do {
            spans = try JSONDecoder().decode([HeapSpan].self, from: data)
        } catch {
            throw ReadError(description: "\(manifest.path) is unreadable: \(error)")
        }
        guard !spans.isEmpty else { return ([], []) }
        let numbers = Set(spans.flatMap { [$0.from, $0.to] }).sorted()
        func file(_ number: Int) -> String { folder.appendingPathComponent(String(format: "%06d.heap", number)).path }
        var dumps: [Int: HeapDump] = [:]
        for number in numbers { dumps[number] = try HeapDump(file: file(number)) }
        var sites = SiteFinder(symbols: symbols)
        // A stack's site is the same in every span of the worker (one process, one set of
        // mappings): found once.
        var siteOfStack: [[UInt]: SiteFinder.Site] = [:]
        let rows = spans.flatMap { span -> [MemoryProfileRow] in
            guard let later = dumps[span.to], let earlier = dumps[span.from] else { return [] }
            var bySite: [SiteFinder.Site: (bytes: Int, objects: Int)] = [:]
            for (stack, counts) in later.since(earlier) {
                let share = counts.of(span.quantity)
                guard share.bytes != 0 || share.objects != 0 else { continue }
                let site = siteOfStack[stack] ?? sites.site(of: stack, in: later)
                siteOfStack[stack] = site
                bySite[site, default: (0, 0)].bytes += share.bytes
                bySite[site, default: (0, 0)].objects += share.objects
            }
            return bySite.map { site, total in
                MemoryProfileRow(
                    key: span.key, group: site.group, site: site.function, caller: site.caller,
                    bytesPerUnit: Double(total.bytes) / span.per, allocationsPerUnit: Double(total.objects) / span.per, object: site.object)
            }
            .sorted { abs($0.figure ?? 0) > abs($1.figure ?? 0) || (abs($0.figure ?? 0) == abs($1.figure ?? 0) && $0.site < $1.site) }
        }
        return (rows, Set(spans.map(\.key)))
    }

}

/// Finds a stack's allocation site: the first frame that is neither the allocator nor the Swift
/// runtime's allocation entry points. One finder serves one worker's dumps (one process, one set of
/// mappings), so each address is named once, however many stacks it is in.
struct SiteFinder {
    /// An allocation site and who asked for it.
    struct Site: Hashable {
        var function: String
        var group: CostGroup
        var object: String
        var caller: String
    }

    let symbols: SymbolTables
    /// Each address's frame, as named so far (the innermost address of a stack apart: it is not a
    /// return address).
    private var frames: [FrameKey: Frame] = [:]

    private struct FrameKey: Hashable {
        var address: UInt
        var innermost: Bool
    }

    init(symbols: SymbolTables) {
        self.symbols = symbols
    }

    /// A frame: its function, the file it is in, and its group.
    typealias Frame = (name: String, object: String, group: CostGroup)

    /// Functions that only pass an allocation on: skipped to find the site.
    static let allocationEntryPoints: Set<String> = [
        "malloc", "calloc", "realloc", "free", "posix_memalign", "aligned_alloc", "memalign", "valloc", "mallocx", "rallocx",
        "je_malloc", "je_calloc", "je_realloc", "je_posix_memalign", "je_aligned_alloc", "je_mallocx",
        "swift_slowAlloc", "swift_slowAllocTyped", "swift_allocObject", "swift_allocBox", "swift_allocEmptyBox", "swift_initStackObject",
        "swift::swift_slowAlloc(unsigned long, unsigned long)", "operator new(unsigned long)", "operator new[](unsigned long)",
        "_Znwm", "_Znam",
    ]

    mutating func site(of stack: [UInt], in dump: HeapDump) -> Site {
        let frames = stack.enumerated().map { index, address -> Frame in
            // Every address but the first is a return address: the call is the byte before it.
            let target = index == 0 ? address : address &- 1
            let key = FrameKey(address: address, innermost: index == 0)
            if let known = self.frames[key] { return known }
            let frame: Frame
            if let mapping = dump.mapping(of: target) {
                let name = symbols.function(at: target - mapping.base, in: mapping.path) ?? String(format: "0x%lx", address)
                frame = (name, mapping.path.split(separator: "/").last.map(String.init) ?? "", CostGroup.of(object: mapping.path, symbol: name))
            } else {
                frame = (String(format: "0x%lx", address), "", .other)
            }
            self.frames[key] = frame
            return frame
        }
        let start = frames.firstIndex { $0.group != .allocator && !Self.allocationEntryPoints.contains($0.name) } ?? frames.count - 1
        guard start >= 0, start < frames.count else { return Site(function: "(no stack)", group: .other, object: "", caller: "") }
        let site = frames[start]
        let asker =
            [.swiftRuntime, .standardLibrary].contains(site.group)
            ? frames[(start + 1)...].first { ![.allocator, .swiftRuntime, .standardLibrary].contains($0.group) }?.name ?? "" : ""
        return Site(function: site.name, group: site.group, object: site.object, caller: asker)
    }
}

/// Function symbols of the files a process mapped, read with `nm` (binutils', or the Swift
/// toolchain's `llvm-nm`) once per file and kept for every worker of a run: a symbol's address is
/// the same in every process, relative to where its file was loaded.
public final class SymbolTables: Sendable {
    private let nm: String?
    private let names = DemangledNames()
    /// Each file's function starts, ascending, and their demangled names.
    private let tables = Locked<[String: [Symbol]]>([:])

    /// A function's start, size (0 where `nm` gives none) and demangled name.
    struct Symbol {
        var start, size: UInt
        var name: String
    }

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        nm = (path.map { "\($0)/nm" } + path.map { "\($0)/llvm-nm" }).first { access($0, X_OK) == 0 }
    }

    /// Whether a symbol reader was found.
    public var canRead: Bool { nm != nil }

    /// How to get one where it is missing.
    public static let installHint = "apt-get install binutils (it ships nm)"

    /// The demangled name of the function at `offset` from where `file` was loaded; nil when
    /// its symbols cannot be read or none is below the offset.
    public func function(at offset: UInt, in file: String) -> String? {
        let table = tables.withLock { $0[file] } ?? load(file)
        var low = 0, high = table.count
        while low < high {
            let middle = (low + high) / 2
            if table[middle].start <= offset { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let symbol = table[low - 1]
        // Past the end of the symbol below: a function with no symbol of its own (a static one in
        // a library that exports only some), named by its neighbour and said to be so.
        if symbol.size > 0, offset >= symbol.start + symbol.size {
            return "\(file.split(separator: "/").last ?? "") code after \(symbol.name), no symbol of its own"
        }
        return symbol.name
    }

    private func load(_ file: String) -> [Symbol] {
        var table = read(file, dynamic: false)
        if table.isEmpty { table = read(file, dynamic: true) }  // a stripped library: its exported symbols
        tables.withLock { $0[file] = table }
        return table
    }

    private func read(_ file: String, dynamic: Bool) -> [Symbol] {
        guard let nm else { return [] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: nm)
        process.arguments = (dynamic ? ["-D"] : []) + ["-S", "-C", "-n", "--defined-only", file]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return [] }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // "0000000000336df0 0000000000000042 T $sSTsE6reduce…" (the size missing for some):
        // code symbols only (T, t, W, w, i).
        return text.split(separator: "\n").compactMap { line -> Symbol? in
            let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
            guard parts.count >= 3, let start = UInt(parts[0], radix: 16) else { return nil }
            let sized = parts.count == 4 && parts[2].count == 1 && UInt(parts[1], radix: 16) != nil
            let type = sized ? parts[2] : parts[1]
            guard type.count == 1, "TtWwi".contains(type) else { return nil }
            let name = sized ? parts[3] : parts[2...].joined(separator: " ")[...]
            return Symbol(start: start, size: sized ? UInt(parts[1], radix: 16) ?? 0 : 0, name: names.demangle(String(name)))
        }
    }
}
