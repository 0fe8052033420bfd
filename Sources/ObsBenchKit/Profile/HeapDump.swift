import Foundation

/// One heap profile as jemalloc writes it (`prof.dump`, format `heap_v2`): for each allocation
/// stack, the objects and bytes in use and, with `prof_accum:true`, those ever allocated; and the
/// process's mappings, which say which file each return address is in.
///
/// A heap-profiling worker samples every allocation (`lg_prof_sample:0`), so the counts are exact
/// and at the size classes jemalloc's own statistics count (the profile records each allocation's
/// usable size before promoting it for tracking).
///
/// ```text
/// heap_v2/1
///   t*: 1001: 129920 [1001: 129920]
/// @ 0x7f9db8aa2630 0x7f9db8aa2d21 0x56105e4a016b
///   t*: 1000: 48000 [1000: 48000]
/// MAPPED_LIBRARIES:
/// 56105e4a0000-56105e4a1000 r-xp 00001000 fe:00 16221300  /tmp/t
/// ```
struct HeapDump: Sendable {
    /// Objects and bytes of one stack.
    struct Counts: Sendable, Equatable {
        var liveObjects = 0, liveBytes = 0, allocatedObjects = 0, allocatedBytes = 0

        static func - (later: Counts, earlier: Counts) -> Counts {
            Counts(
                liveObjects: later.liveObjects - earlier.liveObjects, liveBytes: later.liveBytes - earlier.liveBytes,
                allocatedObjects: later.allocatedObjects - earlier.allocatedObjects, allocatedBytes: later.allocatedBytes - earlier.allocatedBytes)
        }

        /// The bytes and objects that explain `quantity`.
        func of(_ quantity: HeapQuantity) -> (bytes: Int, objects: Int) {
            quantity.isAccumulated ? (allocatedBytes, allocatedObjects) : (liveBytes, liveObjects)
        }
    }

    /// One mapped file's address range.
    struct Mapping: Sendable {
        var range: Range<UInt>
        /// Where in the file the mapping starts.
        var fileOffset: UInt
        var path: String
    }

    /// Each stack (return addresses, innermost first) and its counts.
    var stacks: [[UInt]: Counts] = [:]
    var mappings: [Mapping] = []

    /// Why a dump could not be read.
    struct ReadError: Error, CustomStringConvertible {
        var file: String
        var reason: String
        var description: String { "heap profile \(file): \(reason)" }
    }

    init(file: String) throws {
        guard let data = FileManager.default.contents(atPath: file) else { throw ReadError(file: file, reason: "cannot be read") }
        self.init(bytes: [UInt8](data))
    }

    init(text: String) {
        self.init(bytes: Array(text.utf8))
    }

    /// Parses the dump's UTF-8 bytes line by line. A heap-profiling worker's dump lists every
    /// allocation stack of the process, a few MB for a store on GRDB: read as bytes, not as
    /// Swift `Character`s, it takes a tenth of the time.
    init(bytes: [UInt8]) {
        var stack: [UInt]?
        var inMappings = false
        bytes.withUnsafeBufferPointer { buffer in
            var lineStart = 0
            while lineStart < buffer.count {
                var lineEnd = lineStart
                while lineEnd < buffer.count, buffer[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
                defer { lineStart = lineEnd + 1 }
                let line = UnsafeBufferPointer(rebasing: buffer[lineStart..<lineEnd])
                if line.isEmpty { continue }
                if inMappings {
                    if let mapping = Self.mapping(line) { mappings.append(mapping) }
                } else if line.starts(with: Self.stackPrefix) {
                    stack = Self.words(line.dropFirst(2)).compactMap { Self.hex($0.starts(with: Self.hexPrefix) ? $0.dropFirst(2) : $0[...]) }
                } else if line.starts(with: Self.mappingsMarker) {
                    inMappings = true
                } else if let current = stack, line.starts(with: Self.countsPrefix) {
                    stack = nil
                    // "  t*: curobjs: curbytes [accumobjs: accumbytes]"
                    let numbers = Self.numbers(line.dropFirst(Self.countsPrefix.count))
                    guard numbers.count >= 2 else { continue }
                    var counts = Counts(liveObjects: numbers[0], liveBytes: numbers[1])
                    if numbers.count >= 4 { (counts.allocatedObjects, counts.allocatedBytes) = (numbers[2], numbers[3]) }
                    stacks[current, default: Counts()] = stacks[current, default: Counts()] + counts
                }
            }
        }
    }

    private static let stackPrefix = Array("@ ".utf8), hexPrefix = Array("0x".utf8)
    private static let mappingsMarker = Array("MAPPED_LIBRARIES".utf8), countsPrefix = Array("  t*: ".utf8)

    /// The space-separated words of `bytes`.
    private static func words(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> [Slice<UnsafeBufferPointer<UInt8>>] {
        bytes.split(separator: UInt8(ascii: " "))
    }

    /// A hexadecimal number, without its `0x`; nil for anything else.
    private static func hex(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> UInt? {
        guard !digits.isEmpty, digits.count <= 16 else { return nil }
        var value: UInt = 0
        for byte in digits {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt(digit)
        }
        return value
    }

    /// The decimal numbers of a counts line, split at `:`, spaces and brackets.
    private static func numbers(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> [Int] {
        var numbers: [Int] = []
        var current: Int?
        for byte in bytes {
            if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                current = (current ?? 0) * 10 + Int(byte - UInt8(ascii: "0"))
            } else {
                if let value = current { numbers.append(value) }
                current = nil
            }
        }
        if let value = current { numbers.append(value) }
        return numbers
    }

    /// "start-end perms offset dev inode path" (the path may hold spaces).
    private static func mapping(_ line: UnsafeBufferPointer<UInt8>) -> Mapping? {
        let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 5, omittingEmptySubsequences: true)
        guard fields.count >= 6, let dash = fields[0].firstIndex(of: UInt8(ascii: "-")),
            let start = hex(fields[0][..<dash]), let end = hex(fields[0][(dash + 1)...])
        else { return nil }
        let path = String(decoding: fields[5], as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return Mapping(range: start..<end, fileOffset: hex(fields[2]) ?? 0, path: path)
    }

    /// The file `address` is mapped from, and where that file was loaded (its lowest mapping's
    /// start less that mapping's file offset: the address its symbols are relative to, in a
    /// position-independent file); nil for an anonymous or unknown mapping.
    func mapping(of address: UInt) -> (path: String, base: UInt)? {
        guard let found = mappings.first(where: { $0.range.contains(address) }), found.path.hasPrefix("/") else { return nil }
        let lowest = mappings.filter { $0.path == found.path }.min { $0.range.lowerBound < $1.range.lowerBound } ?? found
        return (found.path, lowest.range.lowerBound &- lowest.fileOffset)
    }

    /// What changed from `earlier` to this dump, stack by stack (zero changes left out).
    func since(_ earlier: HeapDump) -> [[UInt]: Counts] {
        var result = stacks
        for (stack, counts) in earlier.stacks { result[stack, default: Counts()] = result[stack, default: Counts()] - counts }
        return result.filter { $0.value != Counts() }
    }
}

extension HeapDump.Counts {
    static func + (a: Self, b: Self) -> Self {
        Self(
            liveObjects: a.liveObjects + b.liveObjects, liveBytes: a.liveBytes + b.liveBytes, allocatedObjects: a.allocatedObjects + b.allocatedObjects,
            allocatedBytes: a.allocatedBytes + b.allocatedBytes)
    }
}
