/// RFC 4180 CSV: fields holding a comma, a quote or a line break are quoted, quotes doubled.
public enum CSV {
    public static func line(_ fields: [String]) -> String {
        fields.map(quote).joined(separator: ",") + "\n"
    }

    static func quote(_ field: String) -> String {
        // By scalar: "\r\n" is one Character, equal to neither "\r" nor "\n".
        guard field.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A parse failure, with the 1-based line where it happened.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    /// Splits CSV text into records of fields. Each record carries the line it starts on.
    ///
    /// Read byte by byte over the text's UTF-8: the bytes that delimit (`,` `"` CR LF) are ASCII,
    /// which no byte of a longer UTF-8 sequence equals, and a field is copied out of the text in
    /// one piece unless a CR or a doubled quote must be dropped from it. (The runs' `samples.csv`
    /// are megabytes: scalar by scalar, a debug build took seconds for each.)
    public static func parse(_ text: String) throws(ParseError) -> [(line: Int, fields: [String])] {
        let bytes = Array(text.utf8)
        let parsed = bytes.withUnsafeBufferPointer { parse(utf8: $0) }
        return try parsed.get()
    }

    private static func parse(utf8 text: UnsafeBufferPointer<UInt8>) -> Result<[(line: Int, fields: [String])], ParseError> {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), carriageReturn = UInt8(ascii: "\r"), lineFeed = UInt8(ascii: "\n")
        var records: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        // The field so far: `cut` (bytes before a dropped CR or doubled quote), then text[runStart..<end],
        // where end is the closing quote of a quoted field (`closedAt`) or the delimiter.
        var cut: [UInt8] = []
        var runStart = 0
        var closedAt: Int?
        var inQuotes = false
        var fieldWasQuoted = false
        var recordHasContent = false
        var line = 1
        var recordLine = 1

        func isEmptyField(endingAt delimiter: Int) -> Bool { cut.isEmpty && (closedAt ?? delimiter) <= runStart }
        func endField(at delimiter: Int) {
            let end = closedAt ?? delimiter
            if cut.isEmpty {
                fields.append(String(decoding: UnsafeBufferPointer(rebasing: text[runStart..<max(runStart, end)]), as: UTF8.self))
            } else {
                if end > runStart { cut.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<end])) }
                fields.append(String(decoding: cut, as: UTF8.self))
                cut.removeAll(keepingCapacity: true)
            }
            runStart = delimiter + 1
            closedAt = nil
            fieldWasQuoted = false
        }

        var index = 0
        while index < text.count {
            let byte = text[index]
            index += 1
            if inQuotes {
                if byte == quote {
                    if index < text.count, text[index] == quote {
                        // Keep the first quote of the pair, drop the second.
                        cut.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<index]))
                        index += 1
                        runStart = index
                    } else {
                        inQuotes = false
                        closedAt = index - 1
                    }
                } else if byte == lineFeed {
                    line += 1
                }
                continue
            }
            switch byte {
            case quote:
                guard isEmptyField(endingAt: index - 1), !fieldWasQuoted else {
                    return .failure(ParseError(line: line, reason: "a quote inside an unquoted field"))
                }
                inQuotes = true
                fieldWasQuoted = true
                recordHasContent = true
                runStart = index
            case comma:
                endField(at: index - 1)
                recordHasContent = true
            case carriageReturn:
                // Dropped outside quotes: what comes before it stays, the run restarts after it.
                if closedAt == nil, index - 1 > runStart { cut.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<(index - 1)])) }
                if closedAt == nil { runStart = index }
            case lineFeed:
                if recordHasContent || !isEmptyField(endingAt: index - 1) {
                    endField(at: index - 1)
                    records.append((recordLine, fields))
                } else {
                    runStart = index
                    closedAt = nil
                    fieldWasQuoted = false
                }
                fields = []
                recordHasContent = false
                line += 1
                recordLine = line
            default:
                if fieldWasQuoted {
                    return .failure(ParseError(line: line, reason: "text after a closing quote"))
                }
                recordHasContent = true
            }
        }
        if inQuotes { return .failure(ParseError(line: recordLine, reason: "a quoted field is never closed (file truncated?)")) }
        if recordHasContent || !isEmptyField(endingAt: text.count) {
            endField(at: text.count)
            records.append((recordLine, fields))
        }
        return .success(records)
    }
}
