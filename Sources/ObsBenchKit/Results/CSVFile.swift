import Foundation

/// One of obsbench's CSV files (`results.csv`, `samples.csv`, `profile.csv`, `memprofile.csv`)
/// parsed for its reader: the header and the records after it, each record read field by field
/// with errors that name the file, the line and the column (``ResultsReader/ReadError``).
///
/// Each reader checks its own header and builds its own rows; what reading a file, parsing it and
/// checking a field cost is written once, here:
///
/// ```swift
/// let csv = try CSVFile(parsing: CSVFile.text(atPath: path), file: path)
/// guard csv.header.fields.starts(with: columns) else { throw csv.headerError("the header is not profile.csv's") }
/// return try csv.rows(named: columns) { record throws(ResultsReader.ReadError) in
///     try record.expectFields(atLeast: columns.count)
///     return (function: record.fields[6], selfPerOperation: try record.optionalNumber(7))
/// }
/// ```
struct CSVFile {
    /// The file's path, or `<text>` for text given directly.
    var file: String
    /// The first record: the column names.
    var header: (line: Int, fields: [String])
    /// The records after the header.
    var records: ArraySlice<(line: Int, fields: [String])>

    /// Parses `text`; an empty text (no header) is an error.
    init(parsing text: String, file: String) throws(ResultsReader.ReadError) {
        let all: [(line: Int, fields: [String])]
        do {
            all = try CSV.parse(text)
        } catch {
            throw ResultsReader.ReadError(file: file, line: error.line, reason: error.reason)
        }
        guard let first = all.first else { throw ResultsReader.ReadError(file: file, line: 1, reason: "empty file: no header") }
        self.file = file
        header = first
        records = all.dropFirst()
    }

    /// The UTF-8 text of the file at `path`.
    static func text(atPath path: String) throws(ResultsReader.ReadError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ResultsReader.ReadError(file: path, line: 0, reason: "cannot be read (missing or unreadable)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ResultsReader.ReadError(file: path, line: 0, reason: "is not UTF-8 text")
        }
        return text
    }

    /// An error about the header.
    func headerError(_ reason: String) -> ResultsReader.ReadError {
        ResultsReader.ReadError(file: file, line: header.line, reason: reason)
    }

    /// Each record made into a row by `make`, in order; the first error stops the reading.
    func rows<Row>(named columns: [String], _ make: (Record) throws(ResultsReader.ReadError) -> Row) throws(ResultsReader.ReadError) -> [Row] {
        var rows: [Row] = []
        rows.reserveCapacity(records.count)
        for record in records {
            rows.append(try make(Record(file: file, line: record.line, fields: record.fields, columns: columns)))
        }
        return rows
    }

    /// One record's fields, and the checks its reader applies to them.
    struct Record {
        var file: String
        var line: Int
        var fields: [String]
        /// The column names, to name a field in an error.
        var columns: [String]

        /// An error about this record.
        func error(_ reason: String) -> ResultsReader.ReadError {
            ResultsReader.ReadError(file: file, line: line, reason: reason)
        }

        /// Exactly `count` fields, else "N fields, expected M (truncated row?)".
        func expectFields(_ count: Int) throws(ResultsReader.ReadError) {
            guard fields.count == count else { throw error("\(fields.count) fields, expected \(count) (truncated row?)") }
        }

        /// At least `count` fields.
        func expectFields(atLeast count: Int) throws(ResultsReader.ReadError) {
            guard fields.count >= count else { throw error("\(fields.count) fields, expected \(count) (truncated row?)") }
        }

        /// The field at `index` as a count: a whole number, 0 or more.
        func count(_ index: Int) throws(ResultsReader.ReadError) -> Int {
            guard let value = Int(fields[index]), value >= 0 else {
                throw error("\(columns[index]) '\(fields[index])' is not a count (a whole number, 0 or more)")
            }
            return value
        }

        /// The field at `index` as a finite number.
        func number(_ index: Int) throws(ResultsReader.ReadError) -> Double {
            guard let value = Double(fields[index]), value.isFinite else {
                throw error("\(columns[index]) '\(fields[index])' is not a finite number")
            }
            return value
        }

        /// The field at `index` as a finite number, or nil where it is empty.
        func optionalNumber(_ index: Int) throws(ResultsReader.ReadError) -> Double? {
            fields[index].isEmpty ? nil : try number(index)
        }
    }
}
