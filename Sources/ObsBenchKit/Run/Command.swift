import Foundation

/// Runs a command found on `PATH` (through `/usr/bin/env`) and waits for it: git for `run.json`,
/// `swift build` for the release hand-off.
public enum Command {
    /// Returns the command's trimmed standard output ("" when `captureOutput` is false, in which
    /// case its output goes to standard error), or nil when it cannot start or exits non-zero.
    /// The command's own error output is shown only when `showErrors` is true.
    public static func run(_ arguments: [String], captureOutput: Bool = true, showErrors: Bool = false) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = captureOutput ? pipe : FileHandle.standardError
        process.standardError = showErrors ? FileHandle.standardError : FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = captureOutput ? pipe.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
