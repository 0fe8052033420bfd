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
        self.init(text: String(decoding: data, as: UTF8.self), file: file)
    }

    init(text: String, file: String = "<text>") {
        var stack: [UInt]?
        var inMappings = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if inMappings {
                // start-end perms offset dev inode path
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard fields.count >= 6, let dash = fields[0].firstIndex(of: "-"),
                    let start = UInt(fields[0][..<dash], radix: 16), let end = UInt(fields[0][fields[0].index(after: dash)...], radix: 16)
                else { continue }
                mappings.append(Mapping(range: start..<end, fileOffset: UInt(fields[2], radix: 16) ?? 0, path: fields[5...].joined(separator: " ")))
            } else if line.hasPrefix("@ ") {
                stack = line.dropFirst(2).split(separator: " ").compactMap { UInt($0.dropFirst(2), radix: 16) }
            } else if line.hasPrefix("MAPPED_LIBRARIES") {
                inMappings = true
            } else if let current = stack, line.hasPrefix("  t*: ") {
                stack = nil
                // "  t*: curobjs: curbytes [accumobjs: accumbytes]"
                let numbers = line.dropFirst(6).split(whereSeparator: { ": []".contains($0) }).compactMap { Int($0) }
                guard numbers.count >= 2 else { continue }
                var counts = Counts(liveObjects: numbers[0], liveBytes: numbers[1])
                if numbers.count >= 4 { (counts.allocatedObjects, counts.allocatedBytes) = (numbers[2], numbers[3]) }
                stacks[current, default: Counts()] = stacks[current, default: Counts()] + counts
            }
        }
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
