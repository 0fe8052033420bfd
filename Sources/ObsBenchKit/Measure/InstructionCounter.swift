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

    public init(shortLength: Int, longLength: Int, repeats: Int, cacheSimulation: Bool) {
        self.shortLength = shortLength
        self.longLength = longLength
        self.repeats = repeats
        self.cacheSimulation = cacheSimulation
    }

    /// 500 and 1,500 operations, 3 pairs.
    public static func standard(cacheSimulation: Bool = false) -> InstructionSettings {
        InstructionSettings(shortLength: 500, longLength: 1_500, repeats: 3, cacheSimulation: cacheSimulation)
    }

    /// `--quick` (CI): 200 and 600 operations, 5 pairs, whose median shrugs off two lumpy pairs
    /// (a GRDB pool's checkpoint falling in one window, a hop's thread waking late). Counts made
    /// this way are compared only with counts made this way.
    public static func quick(cacheSimulation: Bool = false) -> InstructionSettings {
        InstructionSettings(shortLength: 200, longLength: 600, repeats: 5, cacheSimulation: cacheSimulation)
    }

    enum CodingKeys: String, CodingKey {
        case shortLength = "short_length", longLength = "long_length", repeats, cacheSimulation = "cache_simulation"
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
        _ = try await counts(batch, length: settings.longLength, label: "\(label) warm-up")
        _ = try await counts(emptyBatch, length: settings.longLength, label: "\(label) empty warm-up")
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
        return Counted(instructionsPerOperation: operation.map { $0.instructions - overhead },
                       loopOverheadInstructions: overhead, estimatedCyclesPerOperation: cycles, settings: settings)
    }

    struct PerOperation {
        var instructions: Double
        var cycles: Double?
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
        return PerOperation(instructions: instructions, cycles: cycles)
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
