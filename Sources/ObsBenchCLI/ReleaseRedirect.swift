import Foundation
import ObsBenchKit
import ObservationStrategies

/// `swift run obsbench` builds in debug. A debug build never reports numbers: it builds the
/// release binary and hands the same arguments to it, or refuses with the command to run.
///
/// The package and product are the caller's: obsbench's own, or the package whose executable
/// calls `ObsBench.main` (found from that call's source file).
enum ReleaseRedirect {
    private static let caller = Locked<String?>(nil)

    /// The source file that called `ObsBench.main`, set once at start.
    static var callerFile: String? {
        get { caller.withLock { $0 } }
        set { caller.withLock { $0 = newValue } }
    }

    /// This binary's path, for starting workers.
    static var currentExecutable: String {
        Console.executablePath
    }

    /// The executable's name: `obsbench`, or the product of a package that brings its own strategies.
    static var productName: String { Console.productName }

    /// The nearest folder above the caller's source file that holds a `Package.swift`.
    static var packageRoot: URL? {
        guard let callerFile else { return nil }
        var folder = URL(fileURLWithPath: callerFile).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) { return folder }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    static var manualCommand: String {
        "swift build -c release --product \(productName) && $(swift build -c release --show-bin-path)/\(productName) " + CommandLine.arguments.dropFirst().joined(separator: " ")
    }

    /// Builds the release binary and replaces this process with it. Returns only on failure.
    static func handOffToReleaseBuild() -> Never {
        Console.error("this is a debug build, which never reports numbers; building the release binary (swift build -c release) and handing the run to it.")
        guard let root = packageRoot?.path else {
            refuse("cannot find the package this binary was built from")
        }
        guard Command.run(["swift", "build", "-c", "release", "--product", productName, "--package-path", root], captureOutput: false, showErrors: true) != nil,
            let binPath = Command.run(["swift", "build", "-c", "release", "--show-bin-path", "--package-path", root], showErrors: true)
        else {
            refuse("the release build failed")
        }
        let binary = URL(fileURLWithPath: binPath).appendingPathComponent(productName).path
        let arguments = [binary] + CommandLine.arguments.dropFirst()
        let cArguments = arguments.map { strdup($0) } + [nil]
        execv(binary, cArguments)
        refuse("cannot start \(binary): \(String(cString: strerror(errno)))")
    }

    private static func refuse(_ reason: String) -> Never {
        Console.error("\(reason). Run a release build instead:\n  \(manualCommand)")
        exit(ExitStatus.failure.rawValue)
    }
}
