import Foundation

/// How an instruction-mode worker is started: under `valgrind --tool=callgrind`, with address
/// randomisation off (`setarch -R`), deterministic hashing, and a copy of this binary whose debug
/// information is stripped (Valgrind 3.19 gives up on Swift's DWARF 5). Everything that decides the
/// counts is recorded in `run.json` (`facts`), and the gate refuses to compare counts made differently.
public struct CallgrindInvocation: Sendable {
    /// `valgrind` and `setarch`, found on PATH.
    public var valgrind: String
    public var setarch: String
    /// The stripped copy of the worker binary, in `scratch`.
    public var strippedExecutable: String
    /// The executable's dynamic loader (its `PT_INTERP`), which starts it under Valgrind so that
    /// a layout's `--aspace-minaddr` decides where the executable is mapped.
    public var loader: String
    public var scratch: URL
    public var facts: InstructionFacts

    /// Fixed simulated caches, so counts do not depend on the host's: Callgrind otherwise sizes
    /// them from the CPU it runs on.
    public static let cacheOptions = ["--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64"]
    public static let cacheDescription = "I1 and D1 32 KiB 8-way, LL 8 MiB 16-way, 64 B lines"

    /// Why the instruction mode cannot run here.
    public struct Unavailable: Error, CustomStringConvertible {
        public var reason: String
        public var description: String {
            "--measure instructions is unavailable: \(reason). No instruction counts were made. Install Valgrind (Debian: apt-get install valgrind, which also ships <valgrind/callgrind.h>) and rebuild."
        }
    }

    /// Checks that the instruction mode can run (the client requests compiled in, `valgrind` and
    /// `setarch` on `path`, a strip tool) and makes the stripped copy of `workerExecutable`.
    public static func prepare(workerExecutable: String, settings: InstructionSettings, path: String? = ProcessInfo.processInfo.environment["PATH"]) throws -> CallgrindInvocation {
        guard Callgrind.isCompiledIn else {
            throw Unavailable(reason: "this obsbench was built without <valgrind/callgrind.h>, so it cannot tell Callgrind where to count")
        }
        guard let valgrind = find("valgrind", path: path) else {
            throw Unavailable(reason: "valgrind is not on PATH")
        }
        guard let setarch = find("setarch", path: path) else {
            throw Unavailable(reason: "setarch (util-linux) is not on PATH: address randomisation cannot be turned off")
        }
        // Containers with Docker's default seccomp profile refuse to turn randomisation off.
        guard Command.run([setarch, "-R", "/bin/true"]) != nil else {
            throw Unavailable(reason: "setarch -R is refused here (a container's seccomp profile?): address randomisation cannot be turned off, and counts would not repeat")
        }
        guard let version = Command.run([valgrind, "--version"]), version.hasPrefix("valgrind") else {
            throw Unavailable(reason: "\(valgrind) --version did not answer")
        }
        guard
            let stripper = find("strip", path: path).map({ [$0, "--strip-debug"] })
                ?? find("llvm-objcopy", path: path).map({ [$0, "--strip-debug"] })
        else {
            throw Unavailable(reason: "neither strip nor llvm-objcopy is on PATH to remove the debug information Valgrind cannot read")
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("obsbench-callgrind-\(UUID().uuidString)")
        let stripped = scratch.appendingPathComponent("obsbench").path
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            guard Command.run(stripper + [workerExecutable, "-o", stripped]) != nil else {
                throw Unavailable(reason: "\(stripper.joined(separator: " ")) \(workerExecutable) failed")
            }
        } catch let error as Unavailable {
            try? FileManager.default.removeItem(at: scratch)
            throw error
        } catch {
            throw Unavailable(reason: "cannot make a stripped copy of \(workerExecutable): \(error.localizedDescription)")
        }
        guard let loader = ELFInterpreter.path(of: workerExecutable) else {
            try? FileManager.default.removeItem(at: scratch)
            throw Unavailable(reason: "\(workerExecutable) names no dynamic loader (PT_INTERP) to start it through, so memory layouts cannot move it")
        }
        let facts = InstructionFacts(
            valgrindVersion: version, tool: "callgrind",
            options: baseOptions(cacheSimulation: settings.cacheSimulation),
            environment: deterministicEnvironment.map { "\($0.key)=\($0.value)" }.sorted(),
            addressRandomization: "off (setarch -R); layouts 1...\(settings.layouts): OBSBENCH_LAYOUT=N, --aspace-minaddr seeded, started through \(loader)",
            settings: settings, countedThreads: CountedThreads.rule)
        return CallgrindInvocation(valgrind: valgrind, setarch: setarch, strippedExecutable: stripped, loader: loader, scratch: scratch, facts: facts)
    }

    /// What every instruction-mode worker gets in its environment: a fixed hashing seed, with each
    /// hash table still seeded by its address (`Sources/CLayout`), as in a normal run.
    public static let deterministicEnvironment = ["SWIFT_DETERMINISTIC_HASHING": "1", "OBSBENCH_TABLE_SEEDS": "address"]

    /// The options that decide what is counted (recorded in `run.json`); the output files are per worker.
    static func baseOptions(cacheSimulation: Bool) -> [String] {
        ["--tool=callgrind", "--dump-instr=no", "--dump-line=no", "--compress-strings=no"]
            + (cacheSimulation ? ["--cache-sim=yes"] + cacheOptions : ["--cache-sim=no"])
    }

    /// The executable, arguments and environment of one worker whose dumps go to `dumpFolder`,
    /// counting in memory layout `layout` (``LayoutSeed``) on `threads`.
    public func command(
        workerArguments: [String], dumpFolder: URL, layout: Int, threads: CountedThreads = .all, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> (executable: String, arguments: [String], environment: [String: String]) {
        let arguments =
            ["-R", valgrind] + facts.options + threads.options + [
                "--callgrind-out-file=\(dumpFolder.appendingPathComponent("callgrind.out").path)",
                "--log-file=\(dumpFolder.appendingPathComponent("valgrind.log").path)",
                "--aspace-minaddr=0x\(String(LayoutSeed.minimumAddress(seed: layout), radix: 16))",
                loader, strippedExecutable,
            ] + workerArguments
        var environment = environment.merging(Self.deterministicEnvironment) { $1 }.merging(LayoutSeed.environment(seed: layout)) { $1 }
        environment[Callgrind.directoryVariable] = dumpFolder.path
        environment[Callgrind.threadsVariable] = threads == .mainThread ? threads.rawValue : nil
        return (setarch, arguments, environment)
    }

    /// Removes the stripped copy.
    public func cleanUp() {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// The last lines Valgrind logged for a worker, for an error row.
    public static func logTail(dumpFolder: URL, lines: Int = 6) -> String {
        guard let text = try? String(contentsOf: dumpFolder.appendingPathComponent("valgrind.log"), encoding: .utf8) else { return "" }
        return text.split(separator: "\n").suffix(lines).joined(separator: " | ")
    }

    static func find(_ name: String, path: String?) -> String? {
        for folder in (path ?? "").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

/// What decided a run's instruction counts, for `run.json`; two runs' counts are comparable only
/// when these match (and the toolchain and build do).
public struct InstructionFacts: Codable, Sendable, Equatable {
    public var valgrindVersion: String
    public var tool: String
    public var options: [String]
    public var environment: [String]
    public var addressRandomization: String
    public var settings: InstructionSettings
    /// Which threads each worker counted (``CountedThreads/rule``); nil in runs made before
    /// workers of synchronous strategies counted their main thread alone, when every worker
    /// counted every thread. The gate compares it word for word: reword the rule only with a
    /// change to what is counted.
    public var countedThreads: String?

    enum CodingKeys: String, CodingKey {
        case valgrindVersion = "valgrind_version", tool, options, environment
        case addressRandomization = "address_randomization", settings, countedThreads = "counted_threads"
    }

    /// What a run that does not say counted: every thread of every worker.
    public static let everyThread = "every thread of every worker"
}

/// The dynamic loader an ELF executable names (`PT_INTERP`), e.g. `/lib64/ld-linux-x86-64.so.2`.
enum ELFInterpreter {
    /// nil when `path` is not a 64-bit little-endian ELF file or names no loader.
    static func path(of path: String) -> String? {
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        func read(_ offset: UInt64, _ count: Int) -> [UInt8]? {
            guard (try? file.seek(toOffset: offset)) != nil, let data = try? file.read(upToCount: count), data.count == count else { return nil }
            return [UInt8](data)
        }
        func integer(_ bytes: [UInt8], _ at: Int, _ size: Int) -> UInt64 {
            (0..<size).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
        }
        // ELF magic, 64-bit (class 2), little-endian (data 1).
        guard let header = read(0, 64), header[0..<4] == [0x7F, 0x45, 0x4C, 0x46], header[4] == 2, header[5] == 1 else { return nil }
        let tableOffset = integer(header, 0x20, 8), entrySize = Int(integer(header, 0x36, 2)), entries = Int(integer(header, 0x38, 2))
        guard entrySize >= 56, let table = read(tableOffset, entrySize * entries) else { return nil }
        for index in 0..<entries where integer(table, index * entrySize, 4) == 3 {  // PT_INTERP
            let offset = integer(table, index * entrySize + 8, 8), size = Int(integer(table, index * entrySize + 32, 8))
            guard size > 1, let name = read(offset, size) else { return nil }
            return String(decoding: name.prefix { $0 != 0 }, as: UTF8.self)
        }
        return nil
    }
}
