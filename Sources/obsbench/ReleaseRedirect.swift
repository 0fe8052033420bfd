import Foundation
import ObsBenchKit

/// `swift run obsbench` builds in debug. A debug build never reports numbers: it builds the
/// release binary and hands the same arguments to it, or refuses with the command to run.
enum ReleaseRedirect {
    /// The package root, from this file's path at build time (Sources/obsbench/ReleaseRedirect.swift).
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    static var manualCommand: String {
        "swift build -c release --product obsbench && $(swift build -c release --show-bin-path)/obsbench " + CommandLine.arguments.dropFirst().joined(separator: " ")
    }

    /// Builds the release binary and replaces this process with it. Returns only on failure.
    static func handOffToReleaseBuild() -> Never {
        let root = packageRoot.path
        warn("obsbench: this is a debug build, which never reports numbers; building the release binary (swift build -c release) and handing the run to it.")
        guard FileManager.default.fileExists(atPath: packageRoot.appendingPathComponent("Package.swift").path) else {
            refuse("cannot find the package at \(root)")
        }
        guard Command.run(["swift", "build", "-c", "release", "--product", "obsbench", "--package-path", root], captureOutput: false, showErrors: true) != nil,
              let binPath = Command.run(["swift", "build", "-c", "release", "--show-bin-path", "--package-path", root], showErrors: true) else {
            refuse("the release build failed")
        }
        let binary = URL(fileURLWithPath: binPath).appendingPathComponent("obsbench").path
        let arguments = [binary] + CommandLine.arguments.dropFirst()
        let cArguments = arguments.map { strdup($0) } + [nil]
        execv(binary, cArguments)
        refuse("cannot start \(binary): \(String(cString: strerror(errno)))")
    }

    private static func refuse(_ reason: String) -> Never {
        warn("obsbench: \(reason). Run a release build instead:\n  \(manualCommand)")
        exit(1)
    }

    static func warn(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
