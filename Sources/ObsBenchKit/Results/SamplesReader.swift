/// Reads `samples.csv` back into raw samples, checking the header. Errors name the line and reason.
public enum SamplesReader {
    public static func read(file path: String) throws -> [SampleRow] {
        try parse(CSVFile.text(atPath: path), file: path)
    }

    public static func parse(_ text: String, file: String = "<text>") throws(ResultsReader.ReadError) -> [SampleRow] {
        let csv = try CSVFile(parsing: text, file: file)
        // Columns are only added at the end: files written before `round` or `subscribers` existed
        // read as round 1, subscribers 0, and files written before samples carried their row's
        // executor, objects and concurrency give samples with a partial key (`SampleAttribution`).
        let count = csv.header.fields.count
        guard count >= 8, count <= SampleRow.partialKeyColumns || count == SampleRow.columns.count, csv.header.fields == Array(SampleRow.columns.prefix(count)) else {
            throw csv.headerError("header is '\(csv.header.fields.joined(separator: ","))', expected '\(SampleRow.columns.joined(separator: ","))'")
        }
        return try csv.rows(named: SampleRow.columns) { record throws(ResultsReader.ReadError) in
            try record.expectFields(count)
            let fields = record.fields
            var sample = SampleRow(
                runID: fields[0], suite: fields[1], workload: fields[2], strategy: fields[3], metric: Metric.named(fields[4], unit: fields[5]), unit: fields[5],
                index: try record.count(6), value: try record.number(7))
            // A file written before `round` or `subscribers`: round 1, subscribers 0.
            if count > 8 {
                sample.round = try record.count(8)
                guard sample.round >= 1 else { throw record.error("round '\(fields[8])' is not a positive integer") }
            }
            if count > 9 { sample.subscribers = try record.count(9) }
            // The full key, or (a sample merged from a file without it) none: all three empty.
            if count > SampleRow.partialKeyColumns, fields[10...12].contains(where: { !$0.isEmpty }) {
                guard !fields[10].isEmpty, let objects = Int(fields[11]), objects >= 0, let concurrency = Int(fields[12]), concurrency >= 0 else {
                    throw record.error("executor '\(fields[10])', objects '\(fields[11])', concurrency '\(fields[12])': expected a name and two counts, or all three empty")
                }
                sample.executor = fields[10]
                sample.objects = objects
                sample.concurrency = concurrency
            }
            return sample
        }
    }
}
