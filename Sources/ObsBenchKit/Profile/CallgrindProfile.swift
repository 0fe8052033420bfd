import Foundation

/// One Callgrind profile file, read whole: every function's own instructions (`Ir`), and the
/// instructions and number of the calls it made, as Callgrind's format gives them (`ob=`, `fn=`,
/// `cfn=`, `calls=` and cost lines; name compression and relative positions are understood).
///
/// Read by the parent process after a worker has exited, never under Valgrind:
///
/// ```swift
/// let profile = try CallgrindProfile(contentsOf: "/tmp/dumps/callgrind.out.7")
/// profile.totalInstructions                                  // the dump's summary: line
/// profile.functions[FunctionID(object: "…/libswiftCore.so", name: "swift_retain")]?.selfInstructions
/// ```
public struct CallgrindProfile: Sendable {
    /// The dump's `desc: Trigger:` text, which ends with the label given to the dump.
    public var trigger: String
    /// The `summary:` (or `totals:`) Ir: every instruction the dump counted.
    public var totalInstructions: Int64
    /// Each function's costs, keyed by object file and symbol.
    public var functions: [FunctionID: FunctionCost]

    /// What a function did in the profiled window.
    public struct FunctionCost: Sendable, Equatable {
        /// Instructions executed in the function's own code.
        public var selfInstructions: Int64 = 0
        /// Instructions executed by the calls it made (each callee's inclusive cost), per callee.
        public var calls: [FunctionID: Int64] = [:]
        /// How many calls it made, per callee: the `N` of its `calls=N` lines. Callgrind counts a
        /// call whether or not it was collecting at the time, and restarts a call site's count
        /// only when a dump prints that site (``ReferenceCounts`` says what follows).
        public var callCounts: [FunctionID: Int64] = [:]

        /// Own instructions plus those of the calls it made, recursive calls to itself left out.
        public func inclusive(of id: FunctionID) -> Int64 {
            selfInstructions + calls.reduce(0) { $0 + ($1.key == id ? 0 : $1.value) }
        }
    }

    public init(trigger: String, totalInstructions: Int64, functions: [FunctionID: FunctionCost]) {
        self.trigger = trigger
        self.totalInstructions = totalInstructions
        self.functions = functions
    }

    /// Reads the profile at `path`.
    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else { throw ProfileError.missingDump(file: path) }
        try self.init(bytes: Array(data), file: path)
    }

    /// Parses a profile's text (`file` names it in errors).
    public init(bytes: [UInt8], file: String) throws {
        var parser = Parser(file: file)
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            try parser.line(bytes[start..<end])
            start = end + 1
        }
        self = try parser.finish()
    }

    /// The line-by-line reader of Callgrind's format (only `Ir`, the first event, is kept).
    private struct Parser {
        let file: String
        var trigger = ""
        var summary: Int64?
        var totals: Int64?
        var sawEvents = false
        var object = ""
        var function: FunctionID?
        var calleeObject: String?
        var callee: FunctionID?
        /// Set by a `calls=` line (with its count): the next cost line is that call's inclusive cost.
        var callPending = false
        var pendingCallCount: Int64 = 0
        var functions: [FunctionID: FunctionCost] = [:]
        /// `(id) name` compression tables, per kind of name.
        var objectNames: [Int: String] = [:]
        var functionNames: [Int: String] = [:]

        init(file: String) { self.file = file }

        mutating func line(_ line: ArraySlice<UInt8>) throws {
            guard let first = line.first else { return }
            if first >= 0x30 && first <= 0x39 || first == 0x2B || first == 0x2D || first == 0x2A {
                try cost(line)
                return
            }
            // `key=value` (ob=, fn=, calls=…): the key has no space or colon; anything else
            // ("desc: Trigger: … n=600", "events: Ir") is a header line.
            guard let equals = line.firstIndex(of: 0x3D), !line[line.startIndex..<equals].contains(where: { $0 == 0x20 || $0 == 0x3A }) else {
                try header(String(decoding: line, as: UTF8.self))
                return
            }
            let key = String(decoding: line[line.startIndex..<equals], as: UTF8.self)
            let value = line[(equals + 1)...]
            switch key {
            case "ob": object = Self.name(value, table: &objectNames)
            case "fn":
                function = FunctionID(object: object, name: Self.withoutRecursionLevel(Self.name(value, table: &functionNames)))
                callPending = false
            case "cob": calleeObject = Self.name(value, table: &objectNames)
            case "cfn", "cfni": callee = FunctionID(object: calleeObject ?? object, name: Self.withoutRecursionLevel(Self.name(value, table: &functionNames)))
            case "calls":
                callPending = true
                // "calls=<count> <target position>"
                pendingCallCount = value.prefix { $0 >= 0x30 && $0 <= 0x39 }.reduce(0) { $0 &* 10 &+ Int64($1 - 0x30) }
            default: break  // fl, fi, fe, cfi, cfl, jump, jcnd: files and jumps, not needed
            }
        }

        mutating func header(_ text: String) throws {
            if text.hasPrefix("desc: Trigger:") {
                trigger = text.dropFirst("desc: Trigger:".count).trimmingCharacters(in: .whitespaces)
            } else if text.hasPrefix("events:") {
                let names = text.dropFirst("events:".count).split(separator: " ")
                guard names.first == "Ir" else { throw ProfileError.unreadableDump(file: file, reason: "its first event is not Ir: \(text)") }
                sawEvents = true
            } else if text.hasPrefix("summary:") {
                summary = Self.firstNumber(text.dropFirst("summary:".count))
            } else if text.hasPrefix("totals:") {
                totals = Self.firstNumber(text.dropFirst("totals:".count))
            }
        }

        mutating func cost(_ line: ArraySlice<UInt8>) throws {
            // "<position> <Ir> [<other events>…]"; a missing Ir is zero.
            guard let space = line.firstIndex(of: 0x20) else { return }
            var index = space + 1
            var value: Int64 = 0
            var digits = 0
            while index < line.endIndex, line[index] >= 0x30, line[index] <= 0x39 {
                value = value &* 10 &+ Int64(line[index] - 0x30)
                index += 1
                digits += 1
            }
            guard digits > 0 || index == line.endIndex || line[index] == 0x20 else {
                throw ProfileError.unreadableDump(file: file, reason: "a cost line that is not numbers: \(String(decoding: line, as: UTF8.self))")
            }
            guard let function else { throw ProfileError.unreadableDump(file: file, reason: "a cost line before any fn= line") }
            if callPending, let callee {
                functions[function, default: FunctionCost()].calls[callee, default: 0] += value
                functions[function, default: FunctionCost()].callCounts[callee, default: 0] += pendingCallCount
                callPending = false
                calleeObject = nil
                self.callee = nil
            } else {
                functions[function, default: FunctionCost()].selfInstructions += value
            }
        }

        func finish() throws -> CallgrindProfile {
            guard sawEvents else { throw ProfileError.unreadableDump(file: file, reason: "it has no events: line") }
            guard let total = summary ?? totals else { throw ProfileError.unreadableDump(file: file, reason: "it has no summary: or totals: line") }
            return CallgrindProfile(trigger: trigger, totalInstructions: total, functions: functions)
        }

        /// A name, or `(id) name` (which defines id), or `(id)` (which uses it).
        static func name(_ value: ArraySlice<UInt8>, table: inout [Int: String]) -> String {
            let text = String(decoding: value, as: UTF8.self)
            guard text.hasPrefix("("), let close = text.firstIndex(of: ")"), let id = Int(text[text.index(after: text.startIndex)..<close]) else { return text }
            let rest = text[text.index(after: close)...].trimmingCharacters(in: .whitespaces)
            if rest.isEmpty { return table[id] ?? text }
            table[id] = rest
            return rest
        }

        /// `f'2` (Callgrind's name for a recursive activation of `f`) is `f`.
        static func withoutRecursionLevel(_ name: String) -> String {
            guard let quote = name.lastIndex(of: "'"), name.index(after: quote) < name.endIndex,
                name[name.index(after: quote)...].allSatisfy(\.isNumber)
            else { return name }
            return String(name[..<quote])
        }

        static func firstNumber(_ text: Substring) -> Int64? {
            text.split(separator: " ").first.flatMap { Int64($0) }
        }
    }
}

/// A function in a profile: the object file its code is in, and its symbol as Callgrind names it.
public struct FunctionID: Hashable, Sendable, Codable, Comparable {
    public var object: String
    public var name: String

    public init(object: String, name: String) {
        self.object = object
        self.name = name
    }

    public static func < (a: FunctionID, b: FunctionID) -> Bool {
        (a.name, a.object) < (b.name, b.object)
    }
}

/// Why a profile could not be made.
public enum ProfileError: Error, CustomStringConvertible, Equatable {
    case missingDump(file: String)
    case unreadableDump(file: String, reason: String)
    case unreadableManifest(file: String, reason: String)

    public var description: String {
        switch self {
        case .missingDump(let file): "the Callgrind dump \(file) is missing"
        case .unreadableDump(let file, let reason): "the Callgrind dump \(file) cannot be read: \(reason)"
        case .unreadableManifest(let file, let reason): "the worker's list of profile dumps \(file) cannot be read: \(reason)"
        }
    }
}
