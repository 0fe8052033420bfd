import ArgumentParser
import ObsBenchKit

/// What the run prints on standard output at the end.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
    /// Aligned summary tables.
    case table
    /// The rows of results.csv.
    case csv
    /// The rows as a JSON array of objects keyed by column name.
    case json
    /// Summary tables in GitHub-flavoured markdown.
    case markdown
}

extension CostMeasure: ExpressibleByArgument {}

extension ExitStatus {
    /// The status as swift-argument-parser's `ExitCode`, to throw from a command.
    var exitCode: ExitCode { ExitCode(rawValue) }
}
