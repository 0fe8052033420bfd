import Foundation

/// Reads `samples.csv` back into raw samples, checking the header. Errors name the line and reason.
public enum SamplesReader {
    public static func read(file path: String) throws -> [SampleRow] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ResultsReader.ReadError(file: path, line: 0, reason: "cannot be read (missing or unreadable)")
        }
        return try parse(String(decoding: data, as: UTF8.self), file: path)
    }

    public static func parse(_ text: String, file: String = "<text>") throws(ResultsReader.ReadError) -> [SampleRow] {
        let records: [(line: Int, fields: [String])]
        do {
            records = try CSV.parse(text)
        } catch {
            throw ResultsReader.ReadError(file: file, line: error.line, reason: error.reason)
        }
        guard let header = records.first else { throw ResultsReader.ReadError(file: file, line: 1, reason: "empty file: no header") }
        // Columns are only added at the end: files written before `round` or `subscribers` existed
        // read as round 1, subscribers 0.
        guard header.fields.count >= 8, header.fields == Array(SampleRow.columns.prefix(header.fields.count)) else {
            throw ResultsReader.ReadError(
                file: file, line: header.line, reason: "header is '\(header.fields.joined(separator: ","))', expected '\(SampleRow.columns.joined(separator: ","))'")
        }
        return try records.dropFirst().map { record throws(ResultsReader.ReadError) in
            let fields = record.fields
            guard fields.count == header.fields.count else {
                throw ResultsReader.ReadError(file: file, line: record.line, reason: "\(fields.count) fields, expected \(header.fields.count)")
            }
            guard let index = Int(fields[6]), let value = Double(fields[7]), value.isFinite else {
                throw ResultsReader.ReadError(file: file, line: record.line, reason: "sample index or value is not a number")
            }
            let round = fields.count > 8 ? Int(fields[8]) : 1
            guard let round, round >= 1 else {
                throw ResultsReader.ReadError(file: file, line: record.line, reason: "round '\(fields[8])' is not a positive integer")
            }
            let subscribers = fields.count > 9 ? Int(fields[9]) : 0
            guard let subscribers, subscribers >= 0 else {
                throw ResultsReader.ReadError(file: file, line: record.line, reason: "subscribers '\(fields[9])' is not a count")
            }
            return SampleRow(
                runID: fields[0], suite: fields[1], workload: fields[2], strategy: fields[3], metric: fields[4], unit: fields[5], index: index, value: value, round: round,
                subscribers: subscribers)
        }
    }
}
