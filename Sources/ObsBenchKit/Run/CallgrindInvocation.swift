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
        let facts = InstructionFacts(
            valgrindVersion: version, tool: "callgrind",
            options: baseOptions(cacheSimulation: settings.cacheSimulation),
            environment: deterministicEnvironment.map { "\($0.key)=\($0.value)" }.sorted(),
            addressRandomization: "off (setarch -R)", settings: settings)
        return CallgrindInvocation(valgrind: valgrind, setarch: setarch, strippedExecutable: stripped, scratch: scratch, facts: facts)
    }

    /// What every instruction-mode worker gets in its environment.
    public static let deterministicEnvironment = ["SWIFT_DETERMINISTIC_HASHING": "1"]

    /// The options that decide what is counted (recorded in `run.json`); the output files are per worker.
    static func baseOptions(cacheSimulation: Bool) -> [String] {
        ["--tool=callgrind", "--dump-instr=no", "--dump-line=no", "--compress-strings=no"]
            + (cacheSimulation ? ["--cache-sim=yes"] + cacheOptions : ["--cache-sim=no"])
    }

    /// The executable, arguments and environment of one worker whose dumps go to `dumpFolder`.
    public func command(workerArguments: [String], dumpFolder: URL, environment: [String: String] = ProcessInfo.processInfo.environment) -> (
        executable: String, arguments: [String], environment: [String: String]
    ) {
        let arguments =
            ["-R", valgrind] + facts.options + [
                "--callgrind-out-file=\(dumpFolder.appendingPathComponent("callgrind.out").path)",
                "--log-file=\(dumpFolder.appendingPathComponent("valgrind.log").path)",
                strippedExecutable,
            ] + workerArguments
        var environment = environment.merging(Self.deterministicEnvironment) { $1 }
        environment[Callgrind.directoryVariable] = dumpFolder.path
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

    enum CodingKeys: String, CodingKey {
        case valgrindVersion = "valgrind_version", tool, options, environment
        case addressRandomization = "address_randomization", settings
    }
}
