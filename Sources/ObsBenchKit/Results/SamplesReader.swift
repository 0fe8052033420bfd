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
        // read as round 1, subscribers 0, and files written before samples carried their row's
        // executor, objects and concurrency give samples with a partial key (`SampleAttribution`).
        let count = header.fields.count
        guard count >= 8, count <= SampleRow.partialKeyColumns || count == SampleRow.columns.count, header.fields == Array(SampleRow.columns.prefix(count)) else {
            throw ResultsReader.ReadError(
                file: file, line: header.line, reason: "header is '\(header.fields.joined(separator: ","))', expected '\(SampleRow.columns.joined(separator: ","))'")
        }
        return try records.dropFirst().map { record throws(ResultsReader.ReadError) in
            let fields = record.fields
            guard fields.count == count else {
                throw ResultsReader.ReadError(file: file, line: record.line, reason: "\(fields.count) fields, expected \(count)")
            }
            guard let index = Int(fields[6]), let value = Double(fields[7]), value.isFinite else {
                throw ResultsReader.ReadError(file: file, line: record.line, reason: "sample index or value is not a number")
            }
            let round = count > 8 ? Int(fields[8]) : 1
            guard let round, round >= 1 else {
                throw ResultsReader.ReadError(file: file, line: record.line, reason: "round '\(fields[8])' is not a positive integer")
            }
            let subscribers = count > 9 ? Int(fields[9]) : 0
            guard let subscribers, subscribers >= 0 else {
                throw ResultsReader.ReadError(file: file, line: record.line, reason: "subscribers '\(fields[9])' is not a count")
            }
            var sample = SampleRow(
                runID: fields[0], suite: fields[1], workload: fields[2], strategy: fields[3], metric: Metric.named(fields[4], unit: fields[5]), unit: fields[5], index: index,
                value: value, round: round,
                subscribers: subscribers)
            // The full key, or (a sample merged from a file without it) none: all three empty.
            if count > SampleRow.partialKeyColumns, fields[10...12].contains(where: { !$0.isEmpty }) {
                guard !fields[10].isEmpty, let objects = Int(fields[11]), objects >= 0, let concurrency = Int(fields[12]), concurrency >= 0 else {
                    throw ResultsReader.ReadError(
                        file: file, line: record.line,
                        reason: "executor '\(fields[10])', objects '\(fields[11])', concurrency '\(fields[12])': expected a name and two counts, or all three empty")
                }
                sample.executor = fields[10]
                sample.objects = objects
                sample.concurrency = concurrency
            }
            return sample
        }
    }
}
