import Foundation

/// Where obsbench writes for a person: results on standard output, everything else (progress,
/// warnings, errors) on standard error, each message prefixed with the product's name.
///
/// Standard output is buffered when it is a file or a pipe, standard error never is. So every
/// write to standard error flushes standard output first: with both streams sent to one log
/// (`> log 2>&1`, `| tee`), a message lands after the table printed before it, never inside it.
///
/// ```swift
/// Console.print(table.text())
/// Console.error("cannot read results.csv")  // "obsbench: cannot read results.csv" on stderr
/// ```
public enum Console {
    /// The executable's name: `obsbench-tool`, or the product of a package that brings its own
    /// strategies and calls `ObsBench.main`.
    public static var productName: String {
        URL(fileURLWithPath: executablePath).lastPathComponent
    }

    /// What the person typed to run this: `obsbench` when its launcher started this binary
    /// (`OBSBENCH_COMMAND_NAME`, Sources/obsbench), else ``productName``. Help and messages use it.
    /// Read with `getenv`, not `ProcessInfo.environment`: a worker's help configuration is built
    /// before it measures, and a dictionary of the environment (whose values hold per-run paths)
    /// made there moved the heap of two runs of one layout apart (LayoutSeedTests).
    public static var commandName: String {
        guard let value = getenv("OBSBENCH_COMMAND_NAME"), value.pointee != 0 else { return productName }
        return String(cString: value)
    }

    /// This process's executable: what `/proc/self/exe` points to, else how it was called.
    public static var executablePath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments.first ?? "obsbench"
    }

    /// Results text on standard output, as given (no newline added).
    public static func print(_ text: String) {
        Swift.print(text, terminator: "")
    }

    /// Writes out what standard output holds in its buffer: text printed while a run goes on (a
    /// suite's tables) then reaches a pipe or file at once, not when the buffer fills or the run ends.
    public static func flush() {
        fflush(nil)
    }

    /// A message on standard error, prefixed with the command's name: "obsbench: message".
    public static func error(_ message: String) {
        standardError(commandName + ": " + message + "\n")
    }

    /// Text on standard error as given (progress lines, indented continuations), after standard
    /// output's buffer is written.
    public static func standardError(_ text: String) {
        fflush(nil)  // every output stream: stdout's buffer goes out before this line
        FileHandle.standardError.write(Data(text.utf8))
    }
}
