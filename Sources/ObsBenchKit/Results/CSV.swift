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
    public static func parse(_ text: String) throws(ParseError) -> [(line: Int, fields: [String])] {
        var records: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        var field = ""
        var inQuotes = false
        var fieldWasQuoted = false
        var line = 1
        var recordLine = 1
        var iterator = Array(text.unicodeScalars)[...]
        var recordHasContent = false

        func endField() {
            fields.append(field)
            field = ""
            fieldWasQuoted = false
        }

        while let scalar = iterator.popFirst() {
            if inQuotes {
                if scalar == "\"" {
                    if iterator.first == "\"" {
                        iterator.removeFirst()
                        field.unicodeScalars.append("\"")
                    } else {
                        inQuotes = false
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"":
                guard field.isEmpty, !fieldWasQuoted else {
                    throw ParseError(line: line, reason: "a quote inside an unquoted field")
                }
                inQuotes = true
                fieldWasQuoted = true
                recordHasContent = true
            case ",":
                endField()
                recordHasContent = true
            case "\r":
                continue
            case "\n":
                if recordHasContent || !field.isEmpty {
                    endField()
                    records.append((recordLine, fields))
                }
                fields = []
                recordHasContent = false
                line += 1
                recordLine = line
            default:
                if fieldWasQuoted {
                    throw ParseError(line: line, reason: "text after a closing quote")
                }
                field.unicodeScalars.append(scalar)
                recordHasContent = true
            }
        }
        if inQuotes { throw ParseError(line: recordLine, reason: "a quoted field is never closed (file truncated?)") }
        if recordHasContent || !field.isEmpty {
            endField()
            records.append((recordLine, fields))
        }
        return records
    }
}
