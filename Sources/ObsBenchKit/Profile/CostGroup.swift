/// Whose code a profiled function is: the column `group` of `profile.csv`, and the rows of
/// `obsbench profile`'s group table.
///
/// A function is placed by its object file (Callgrind's `ob=`) and then by its demangled symbol:
/// code the compiler copied into obsbench's own binary (an inlined or specialised generic of
/// Observation, the standard library or OpenCombine) goes with the module it came from.
///
/// ```swift
/// CostGroup.of(object: "/opt/swift/usr/lib/swift/linux/libswiftCore.so", symbol: "swift_retain")  // .swiftRuntime
/// CostGroup.of(object: ".../obsbench", symbol: "Observation.ObservationRegistrar.access<…>")      // .observation
/// ```
public enum CostGroup: String, CaseIterable, Sendable, Codable {
    case observation = "Observation runtime"
    case swiftRuntime = "Swift runtime"
    case standardLibrary = "Swift standard library"
    case allocator = "allocator"
    case locks = "locks and atomics"
    case dispatch = "libdispatch"
    case foundation = "Foundation"
    case openCombine = "OpenCombine"
    case grdb = "GRDB"
    case sqlite = "SQLite"
    case harness = "obsbench harness"
    case strategy = "strategy's own code"
    case other = "other"
    /// A row of `profile.csv` that says why a profile could not be made (its `function` column).
    case error = "error"

    /// What the group holds, for `obsbench profile --help` and the docs.
    public var summary: String {
        switch self {
        case .observation: "libswiftObservation and Observation's generics specialised into the binary (registrar, tracking, keypaths)"
        case .swiftRuntime: "swift_* entry points: retain/release, exclusivity checks, metadata, generic instantiation, casts; the concurrency runtime"
        case .standardLibrary: "Swift's standard library code: collections, hashing, strings, keypaths' stdlib side"
        case .allocator: "malloc/free and their internals (glibc or jemalloc)"
        case .locks: "pthread mutexes, futexes, Synchronization's Mutex and Atomic"
        case .dispatch: "libdispatch (queues, groups, semaphores)"
        case .foundation: "Foundation and its parts (Essentials, Internationalization, CoreFoundation)"
        case .openCombine: "OpenCombine (subjects, sinks, objectWillChange)"
        case .grdb: "GRDB (database queues, ValueObservation)"
        case .sqlite: "libsqlite3"
        case .harness: "obsbench's measuring code (ObsBenchKit, the CLI, the Callgrind requests)"
        case .strategy: "the strategy's own module (ObservationStrategies, or a custom store's)"
        case .other: "anything else: the C library's string and memory routines, the dynamic loader, Valgrind's preload"
        case .error: "a profile that could not be made; the function column says why"
        }
    }

    /// The group of a function in `object` whose demangled symbol is `symbol`.
    public static func of(object: String, symbol: String) -> CostGroup {
        let file = object.split(separator: "/").last.map(String.init) ?? object
        if file.hasPrefix("libswiftObservation") { return .observation }
        if file.hasPrefix("libswift_Concurrency") { return .swiftRuntime }
        if file.hasPrefix("libswiftSynchronization") { return .locks }
        if file.hasPrefix("libswiftCore") { return runtimeOrLibrary(symbol) }
        if file.hasPrefix("libdispatch") || file.hasPrefix("libswiftDispatch") || file.hasPrefix("libBlocksRuntime") { return .dispatch }
        if file.hasPrefix("libFoundation") || file.hasPrefix("lib_Foundation") || file.hasPrefix("libCoreFoundation") { return .foundation }
        if file.hasPrefix("libsqlite3") { return .sqlite }
        if file.hasPrefix("libjemalloc") { return .allocator }
        if file.hasPrefix("libc.so") || file.hasPrefix("libpthread") || file.hasPrefix("libc-") { return cLibrary(symbol) }
        if file.hasPrefix("ld-linux") || file.hasPrefix("vgpreload") || file.hasPrefix("libstdc++") || file.hasPrefix("libgcc") || file.hasPrefix("libm.so") { return .other }
        // obsbench's binary (or a custom one): by the module the symbol names.
        return byModule(symbol)
    }

    /// libswiftCore holds both the runtime and the standard library. The runtime is its C and C++
    /// code (`swift_retain`, `swift::RefCounts<…>::doDecrementSlow`, the metadata caches), whose
    /// names name no Swift module; the standard library is its Swift code (`Swift.Hasher._combine`),
    /// except the metadata accessors and value witnesses the compiler emits for it.
    static func runtimeOrLibrary(_ symbol: String) -> CostGroup {
        if symbol.hasPrefix("swift_") || Demangler.module(of: symbol) == nil { return .swiftRuntime }
        if symbol.contains("metadata") || symbol.contains("value witness") { return .swiftRuntime }
        return .standardLibrary
    }

    /// The C library: the allocator, locks, or the rest.
    static func cLibrary(_ symbol: String) -> CostGroup {
        let name = symbol.drop(while: { $0 == "_" })
        let allocator = [
            "malloc", "free", "calloc", "realloc", "cfree", "memalign", "posix_memalign", "aligned_alloc", "int_malloc", "int_free",
            "libc_malloc", "libc_free", "libc_calloc", "tcache", "malloc_consolidate", "unlink_chunk", "sysmalloc", "int_realloc",
        ]
        if allocator.contains(where: { name.hasPrefix($0) }) { return .allocator }
        let locks = [
            "pthread_mutex", "pthread_rwlock", "pthread_cond", "pthread_once", "pthread_spin", "lll_", "futex", "sem_", "atomic", "GI___pthread_mutex",
            "GI___lll", "pthread_getspecific", "pthread_setspecific",
        ]
        if locks.contains(where: { name.hasPrefix($0) }) { return .locks }
        return .other
    }

    /// Code in obsbench's binary, by the first module its demangled symbol names.
    static func byModule(_ symbol: String) -> CostGroup {
        guard let module = Demangler.module(of: symbol) else {
            if symbol.hasPrefix("obsbench_") { return .harness }  // CCallgrind's client requests
            if symbol.hasPrefix("sqlite3") { return .sqlite }
            return .other
        }
        switch module {
        case "Observation": return .observation
        case "Swift", "_StringProcessing": return runtimeOrLibrary(symbol)
        case "Synchronization", "Atomics": return .locks
        case "Dispatch": return .dispatch
        case "Foundation", "FoundationEssentials", "FoundationInternationalization", "CoreFoundation": return .foundation
        case "OpenCombine", "OpenCombineDispatch", "OpenCombineFoundation": return .openCombine
        case "GRDB": return .grdb
        case "ObsBenchKit", "ObsBenchCLI", "ObsBenchConformance", "obsbench", "CCallgrind", "ArgumentParser": return .harness
        case "ObservationStrategies": return .strategy
        // Any other Swift module in the binary is the custom store that `ObsBench.main` was given.
        default: return .strategy
        }
    }
}
