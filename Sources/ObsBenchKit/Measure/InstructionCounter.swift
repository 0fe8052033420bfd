/// How the instruction mode counts: fixed loop lengths rather than time budgets, so a run does the
/// same work every time.
public struct InstructionSettings: Sendable, Equatable, Codable {
    /// The shorter and the longer loop: per-operation count = (count(long) − count(short)) /
    /// (long − short), so whatever a batch costs once (starting, `settle()`, the dump) cancels.
    public var shortLength: Int
    public var longLength: Int
    /// How many (short, long) pairs are counted; the row's median is theirs, and its spread shows
    /// whatever the process did not repeat exactly (other threads' timing).
    public var repeats: Int
    /// Whether Callgrind simulates caches (`--cache-sim=yes`, fixed sizes): adds `estimated_cycles` rows.
    public var cacheSimulation: Bool
    /// How many memory layouts (``LayoutSeed``, seeds 1...layouts) each row is counted under, one
    /// worker each: the row's value is their mean, and their spread its uncertainty.
    public var layouts: Int

    public init(shortLength: Int, longLength: Int, repeats: Int, cacheSimulation: Bool, layouts: Int = InstructionSettings.defaultLayouts) {
        self.shortLength = shortLength
        self.longLength = longLength
        self.repeats = repeats
        self.cacheSimulation = cacheSimulation
        self.layouts = layouts
    }

    /// Layouts per row unless `--layouts` says otherwise (docs/gate.md, "Layouts", has the
    /// measurements it was chosen from).
    public static let defaultLayouts = 5

    /// 500 and 1,500 operations, 3 pairs.
    public static func standard(cacheSimulation: Bool = false) -> InstructionSettings {
        InstructionSettings(shortLength: 500, longLength: 1_500, repeats: 3, cacheSimulation: cacheSimulation)
    }

    /// `--quick` (CI): 200 and 600 operations, 3 pairs in each layout, whose median shrugs off a
    /// lumpy pair (a GRDB pool's checkpoint falling in one window, a hop's thread waking late);
    /// the layouts (5 by default) then give 15 pairs a row. Five pairs in one layout took the
    /// quick latency and hops run past 6 minutes at 5 layouts (6 min 19 s). Counts made this way
    /// are compared only with counts made this way.
    public static func quick(cacheSimulation: Bool = false) -> InstructionSettings {
        InstructionSettings(shortLength: 200, longLength: 600, repeats: 3, cacheSimulation: cacheSimulation)
    }

    enum CodingKeys: String, CodingKey {
        case shortLength = "short_length", longLength = "long_length", repeats, cacheSimulation = "cache_simulation", layouts
    }

    /// A run made before layouts existed counted every row in the binary's own layout: one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        shortLength = try container.decode(Int.self, forKey: .shortLength)
        longLength = try container.decode(Int.self, forKey: .longLength)
        repeats = try container.decode(Int.self, forKey: .repeats)
        cacheSimulation = try container.decode(Bool.self, forKey: .cacheSimulation)
        layouts = try container.decodeIfPresent(Int.self, forKey: .layouts) ?? 1
    }
}

/// An operation counted under Callgrind: instructions per operation (the empty loop's removed),
/// one value per repeat.
public struct Counted: Sendable {
    /// One value per repeat: Ir per operation, the empty loop's Ir per iteration subtracted.
    public var instructionsPerOperation: [Double]
    /// The empty loop of the same shape, Ir per iteration (median of the repeats); subtracted.
    public var loopOverheadInstructions: Double
    /// With cache simulation: estimated cycles per operation, one per repeat, the empty loop's removed.
    public var estimatedCyclesPerOperation: [Double]?
    public var settings: InstructionSettings
    /// The four dumps behind the median: its repeat's short and long loop, and the median empty
    /// repeat's. The parent makes the per-function profile from them after the worker exits.
    public var profileDumps: ProfileDumps?
}

/// The Callgrind dumps a counted row's profile is made from (file names in the worker's dump
/// folder): per function, (long − short) / `operations` of the measured loop, minus the same of
/// the empty loop, is that function's share of the row's Ir/op, and the shares sum to it.
public struct ProfileDumps: Sendable, Equatable, Codable {
    public var operationShort: String
    public var operationLong: String
    public var emptyShort: String
    public var emptyLong: String
    /// long − short: the operations the difference holds.
    public var operations: Int

    public init(operationShort: String, operationLong: String, emptyShort: String, emptyLong: String, operations: Int) {
        self.operationShort = operationShort
        self.operationLong = operationLong
        self.emptyShort = emptyShort
        self.emptyLong = emptyLong
        self.operations = operations
    }

    enum CodingKeys: String, CodingKey {
        case operationShort = "operation_short", operationLong = "operation_long", emptyShort = "empty_short", emptyLong = "empty_long", operations
    }
}

/// Counts a batch's instructions under Callgrind at two loop lengths, and the empty batch's the
/// same way, so that neither fixed costs nor the loop itself are charged to the operation.
@MainActor
public struct InstructionCounter {
    public var settings: InstructionSettings

    public init(settings: InstructionSettings) {
        self.settings = settings
    }

    /// Counts `batch`. `emptyBatch` must have the same loop shape with the measured work removed.
    public func count(_ batch: Batch, emptyBatch: Batch, label: String) async throws -> Counted {
        guard Callgrind.isRunningUnderValgrind else { throw CallgrindError.notUnderValgrind }
        // One counted long loop of each first, thrown away: lazy set-up (a subject made on a
        // record's first write, caches filled, the counting path's own first use) is not an
        // operation's cost, and would otherwise fall on the first repeat only.
        Callgrind.remove(try await counts(batch, length: settings.longLength, label: "\(label) warm-up"))
        Callgrind.remove(try await counts(emptyBatch, length: settings.longLength, label: "\(label) empty warm-up"))
        var operation: [PerOperation] = []
        var empty: [PerOperation] = []
        for index in 0..<settings.repeats {
            operation.append(try await perOperation(batch, label: "\(label) #\(index)"))
            empty.append(try await perOperation(emptyBatch, label: "\(label) empty #\(index)"))
        }
        let overhead = Statistics.percentile(empty.map(\.instructions).sorted(), 0.5)
        var cycles: [Double]?
        if settings.cacheSimulation, !empty.compactMap(\.cycles).isEmpty {
            let emptyCycles = Statistics.percentile(empty.compactMap(\.cycles).sorted(), 0.5)
            cycles = operation.compactMap(\.cycles).map { $0 - emptyCycles }
        }
        // The median repeat's dumps (an odd number of repeats: the median is one of them) stay
        // for its profile; the others go.
        let median = Self.medianIndex(operation), emptyMedian = Self.medianIndex(empty)
        for (index, repeated) in operation.enumerated() where index != median { repeated.dumps.forEach(Callgrind.remove) }
        for (index, repeated) in empty.enumerated() where index != emptyMedian { repeated.dumps.forEach(Callgrind.remove) }
        let dumps = ProfileDumps(
            operationShort: operation[median].dumps[0].file, operationLong: operation[median].dumps[1].file,
            emptyShort: empty[emptyMedian].dumps[0].file, emptyLong: empty[emptyMedian].dumps[1].file,
            operations: settings.longLength - settings.shortLength)
        return Counted(
            instructionsPerOperation: operation.map { $0.instructions - overhead },
            loopOverheadInstructions: overhead, estimatedCyclesPerOperation: cycles, settings: settings, profileDumps: dumps)
    }

    struct PerOperation {
        var instructions: Double
        var cycles: Double?
        /// The short and the long loop's dumps.
        var dumps: [CallgrindCounts]
    }

    /// The index of the median repeat (the lower one of two middle ones).
    static func medianIndex(_ repeats: [PerOperation]) -> Int {
        repeats.indices.sorted { repeats[$0].instructions < repeats[$1].instructions }[(repeats.count - 1) / 2]
    }

    /// (count at the long length − count at the short length) / (long − short).
    private func perOperation(_ batch: Batch, label: String) async throws -> PerOperation {
        let short = try await counts(batch, length: settings.shortLength, label: label)
        let long = try await counts(batch, length: settings.longLength, label: label)
        let length = Double(settings.longLength - settings.shortLength)
        let instructions = (Double(long.instructions) - Double(short.instructions)) / length
        var cycles: Double?
        if let longCycles = long.estimatedCycles, let shortCycles = short.estimatedCycles {
            cycles = (longCycles - shortCycles) / length
        }
        return PerOperation(instructions: instructions, cycles: cycles, dumps: [short, long])
    }

    /// Counts one run of `batch` at `length`: nothing but the batch and the two client requests
    /// falls between the zero and the dump (the label is made before).
    private func counts(_ batch: Batch, length: Int, label: String) async throws -> CallgrindCounts {
        let dump = Callgrind.Dump(label: "\(label) n=\(length)")
        Callgrind.zero()
        try await batch(length)
        return try dump.take()
    }
}
