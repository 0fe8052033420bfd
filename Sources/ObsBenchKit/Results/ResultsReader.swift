/// Reads `results.csv` back into rows, checking the header contract. Errors name the line and reason.
public enum ResultsReader {
    public struct ReadError: Error, Equatable, CustomStringConvertible {
        public var file: String
        public var line: Int
        public var reason: String
        public var description: String { "\(file):\(line): \(reason)" }
    }

    public static func read(file path: String) throws -> [ResultRow] {
        try readNumbered(file: path).map(\.row)
    }

    /// The rows with the line each starts on, for messages about a row.
    public static func readNumbered(file path: String) throws -> [(line: Int, row: ResultRow)] {
        try parseNumbered(CSVFile.text(atPath: path), file: path)
    }

    public static func parse(_ text: String, file: String = "<text>") throws(ReadError) -> [ResultRow] {
        try parseNumbered(text, file: file).map(\.row)
    }

    public static func parseNumbered(_ text: String, file: String = "<text>") throws(ReadError) -> [(line: Int, row: ResultRow)] {
        let csv = try CSVFile(parsing: text, file: file)
        let header = csv.header.fields
        let expected = ResultRow.columns
        // Older files may lack columns added later; every column they have must match in order.
        // A column this build does not know is another schema: refused, not ignored.
        guard header.count <= expected.count else {
            throw csv.headerError("unexpected extra columns: \(header.dropFirst(expected.count).joined(separator: ","))")
        }
        for (index, name) in header.enumerated() where name != expected[index] {
            throw csv.headerError("column \(index + 1) is '\(name)', expected '\(expected[index])'")
        }
        guard header.count >= expected.firstIndex(of: "ci95_high")! + 1 else {
            throw csv.headerError("missing columns: \(expected.dropFirst(header.count).joined(separator: ","))")
        }
        return try csv.rows(named: expected) { record throws(ReadError) in (record.line, try row(record, width: header.count)) }
    }

    private static func row(_ record: CSVFile.Record, width: Int) throws(ReadError) -> ResultRow {
        try record.expectFields(width)
        let fields = record.fields
        let samples = try record.count(10)
        var statistics: Statistics?
        if !(samples == 0 && fields[11].isEmpty) {
            statistics = Statistics(exact: 0)
            statistics!.count = samples
            statistics!.median = try record.number(11)
            statistics!.p10 = try record.number(12)
            statistics!.p90 = try record.number(13)
            statistics!.p99 = try record.number(14)
            statistics!.min = try record.number(15)
            statistics!.max = try record.number(16)
            statistics!.mean = try record.number(17)
            statistics!.ci95Low = try record.number(18)
            statistics!.ci95High = try record.number(19)
        }
        return ResultRow(
            runID: fields[0], suite: fields[1], workload: fields[2], strategy: fields[3], executor: fields[4],
            objects: try record.count(5), subscribers: try record.count(6), concurrency: try record.count(7),
            metric: Metric.named(fields[8], unit: fields[9]), unit: fields[9], statistics: statistics,
            note: fields.count > 20 ? fields[20] : "",
            rounds: fields.count > 21 ? try record.count(21) : 1
        )
    }
}
