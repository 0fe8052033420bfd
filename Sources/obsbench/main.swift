// The `obsbench` command is this launcher: it depends on nothing but the C library, so
// `swift run obsbench` compiles it alone in debug (seconds) rather than GRDB, OpenCombine and
// obsbench's libraries, which a debug build would compile only to hand the run to a release build
// that compiles them again. It runs `obsbench-tool` (Sources/ObsBenchTool), every command of
// obsbench, from the release build:
//
// - built in debug (`swift run obsbench …`): it builds `obsbench-tool` in release first (nothing
//   to do when that build is up to date), then replaces itself with it;
// - built in release (`.build/release/obsbench …`, after `swift build -c release`): it replaces
//   itself with the `obsbench-tool` beside it, building it first only if it is missing.
//
// The tool keeps this process's ID, arguments, streams and signals, and names itself `obsbench`
// (OBSBENCH_COMMAND_NAME) in its help and messages.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let tool = "obsbench-tool"

/// Writes `message` on standard error as `obsbench: message`.
func complain(_ message: String) {
    let bytes = Array("obsbench: \(message)\n".utf8)
    _ = bytes.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count) }
}

/// Runs `arguments` (argv[0] looked up on PATH) with its standard output sent to standard error,
/// so that what obsbench prints on standard output (tables, JSON) is never mixed with the build's;
/// waits, and returns its exit status, or nil when it could not start or was killed.
func run(_ arguments: [String]) -> Int32? {
    var pid: pid_t = 0
    var argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, 2, 1)
    guard posix_spawnp(&pid, arguments[0], &actions, nil, &argv, environ) == 0 else { return nil }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 {
        guard errno == EINTR else { return nil }
    }
    return status & 0x7f == 0 ? (status >> 8) & 0xff : nil
}

/// Runs `arguments` and returns what it printed on standard output, without the final newline.
func output(of arguments: [String]) -> String? {
    // Each argument in single quotes for the shell, a quote inside as '\''.
    let command = arguments.map { "'" + $0.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'" }
    guard let pipe = popen(command.joined(separator: " "), "r") else {
        return nil
    }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    while true {
        let read = fread(&buffer, 1, buffer.count, pipe)
        if read == 0 { break }
        bytes += buffer[0..<read]
    }
    guard pclose(pipe) == 0 else { return nil }
    var text = String(decoding: bytes, as: UTF8.self)
    while text.hasSuffix("\n") { text.removeLast() }
    return text
}

/// The folder of `path`: everything before its last `/`.
func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return String(path[..<slash])
}

/// This executable's own path.
func ownPath() -> String {
    var buffer = [CChar](repeating: 0, count: 4_096)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    return length > 0 ? String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
}

/// Builds `obsbench-tool` in release in the package this launcher was built from, and returns
/// the folder it is in; exits when that cannot be done.
func buildTool() -> String {
    // This file is Sources/obsbench/main.swift of the package.
    let root = folder(of: folder(of: folder(of: #filePath)))
    let manual = "swift build -c release --product \(tool) && $(swift build -c release --show-bin-path)/\(tool) ..."
    guard access(root + "/Package.swift", F_OK) == 0 else {
        complain("cannot find the package this launcher was built from (\(root)); build and run obsbench yourself:\n  \(manual)")
        exit(1)
    }
    complain("building the release binary (swift build -c release --product \(tool)); every number comes from a release build")
    guard run(["swift", "build", "-c", "release", "--product", tool, "--package-path", root]) == 0,
        let binaries = output(of: ["swift", "build", "-c", "release", "--show-bin-path", "--package-path", root])
    else {
        complain("the release build failed; run it yourself to see why:\n  \(manual)")
        exit(1)
    }
    return binaries
}

let own = folder(of: ownPath())
var binaries = own
#if DEBUG
    binaries = buildTool()
#else
    if access(own + "/" + tool, X_OK) != 0 { binaries = buildTool() }
#endif
let path = binaries + "/" + tool
setenv("OBSBENCH_COMMAND_NAME", "obsbench", 1)
var argv = [strdup(path)] + CommandLine.arguments.dropFirst().map { strdup($0) } + [nil]
execv(path, &argv)
complain("cannot start \(path): error \(errno)")
exit(1)
