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
    /// How many records a synchronous strategy's row is counted on in each layout (its draws,
    /// `InstructionCounter.count(drawing:records:scale:label:)`); 1 counts record 1 alone, `repeats` times.
    public var draws: Int
    /// Operations counted on each drawn record, after `drawWarmUp` that are not.
    public var drawLength: Int
    public var drawWarmUp: Int
    /// How many instructions a pair's difference (long − short loop) is sized to hold, about: an
    /// operation so costly that `longLength − shortLength` of them exceed it is counted on loops
    /// divided by a power of two (at most ``maximumLengthDivisor``), so that a GRDB write of
    /// 300,000 Ir is not counted on 3,000 operations per row when 100 say as much
    /// (``lengthDivisor(instructionsPerOperation:)``). 0: every row on the full lengths (runs made
    /// before this setting).
    public var pairInstructions: Int

    public init(
        shortLength: Int, longLength: Int, repeats: Int, cacheSimulation: Bool, layouts: Int = InstructionSettings.defaultLayouts, draws: Int = 1,
        drawLength: Int = 0, drawWarmUp: Int = 0, pairInstructions: Int = 0
    ) {
        self.shortLength = shortLength
        self.longLength = longLength
        self.repeats = repeats
        self.cacheSimulation = cacheSimulation
        self.layouts = layouts
        self.draws = draws
        self.drawLength = drawLength
        self.drawWarmUp = drawWarmUp
        self.pairInstructions = pairInstructions
    }

    /// The largest divisor of the loop lengths (``pairInstructions``): 200/600 become 25/75.
    public static let maximumLengthDivisor = 8

    /// The power of two (1...``maximumLengthDivisor``) the loop lengths are divided by for an
    /// operation of about `instructionsPerOperation` Ir, when a pair's difference holds
    /// `operations` of them (`longLength − shortLength` unless given): the largest whose divided
    /// pair still holds ``pairInstructions``. Its value does not move the count, only its noise: a count per
    /// operation is a difference of two loops, so whatever a loop costs once cancels at any length.
    ///
    /// ```swift
    /// // Quick (200/600, pairs of about 20 M Ir): a 58,000 Ir write keeps 200/600, a 282,000 Ir
    /// // write with a GRDB observation is counted on 50/150, a 440,000 Ir transaction on 25/75.
    /// InstructionSettings.quick().lengthDivisor(instructionsPerOperation: 282_000)  // 4
    /// ```
    /// `maximum` is ``maximumLengthDivisor`` unless a workload counts costlier operations
    /// (``InstructionCounter/count(_:emptyBatch:label:maximumDivisor:)``). Whatever `maximum`
    /// says, the short loop keeps at least one operation (a divisor at most `shortLength`).
    public func lengthDivisor(instructionsPerOperation: Double, operations: Int? = nil, maximum: Int = maximumLengthDivisor) -> Int {
        guard pairInstructions > 0, instructionsPerOperation > 0 else { return 1 }
        let held = Double(operations ?? longLength - shortLength) * instructionsPerOperation / Double(pairInstructions)
        var divisor = 1
        while divisor * 2 <= min(maximum, shortLength), Double(divisor * 2) <= held { divisor *= 2 }
        return divisor
    }

    /// These settings with the loop lengths divided by `divisor`.
    func dividingLengths(by divisor: Int) -> InstructionSettings {
        var divided = self
        divided.shortLength = shortLength / divisor
        divided.longLength = longLength / divisor
        return divided
    }

    /// Records drawn per layout unless a caller says otherwise: with 5 layouts, 400 draws a row
    /// (docs/gate.md, "Draws", has the measurements it was chosen from).
    public static let defaultDraws = 80

    /// Layouts per row unless `--layouts` says otherwise (docs/gate.md, "Layouts", has the
    /// measurements it was chosen from).
    public static let defaultLayouts = 5

    /// 500 and 1,500 operations, 3 pairs; a synchronous strategy's drawn latency rows
    /// (`MeasuredDraw`): 150 operations on each of 80 records, after 50.
    public static func standard(cacheSimulation: Bool = false) -> InstructionSettings {
        InstructionSettings(
            shortLength: 500, longLength: 1_500, repeats: 3, cacheSimulation: cacheSimulation, draws: defaultDraws, drawLength: 150, drawWarmUp: 50,
            pairInstructions: 50_000_000)
    }

    /// `--quick` (CI): 200 and 600 operations, 3 pairs in each layout, whose median shrugs off a
    /// lumpy pair (a GRDB pool's checkpoint falling in one window, a hop's thread waking late);
    /// the layouts (5 by default) then give 15 pairs a row. Five pairs in one layout took the
    /// quick latency and hops run past 6 minutes at 5 layouts (6 min 19 s). A synchronous
    /// strategy's drawn latency rows (`MeasuredDraw`) are counted on 80 records instead, 60
    /// operations each after 20. Counts made this way are compared only with counts made this way.
    public static func quick(cacheSimulation: Bool = false) -> InstructionSettings {
        InstructionSettings(
            shortLength: 200, longLength: 600, repeats: 3, cacheSimulation: cacheSimulation, draws: defaultDraws, drawLength: 60, drawWarmUp: 20,
            pairInstructions: 20_000_000)
    }

    enum CodingKeys: String, CodingKey {
        case shortLength = "short_length", longLength = "long_length", repeats, cacheSimulation = "cache_simulation", layouts, draws,
            drawLength = "draw_length", drawWarmUp = "draw_warm_up", pairInstructions = "pair_instructions"
    }

    /// A run made before layouts existed counted every row in the binary's own layout: one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        shortLength = try container.decode(Int.self, forKey: .shortLength)
        longLength = try container.decode(Int.self, forKey: .longLength)
        repeats = try container.decode(Int.self, forKey: .repeats)
        cacheSimulation = try container.decode(Bool.self, forKey: .cacheSimulation)
        layouts = try container.decodeIfPresent(Int.self, forKey: .layouts) ?? 1
        // Runs made before draws counted every row on record 1 alone.
        draws = try container.decodeIfPresent(Int.self, forKey: .draws) ?? 1
        drawLength = try container.decodeIfPresent(Int.self, forKey: .drawLength) ?? 0
        drawWarmUp = try container.decodeIfPresent(Int.self, forKey: .drawWarmUp) ?? 0
        pairInstructions = try container.decodeIfPresent(Int.self, forKey: .pairInstructions) ?? 0
    }
}

/// An operation counted under Callgrind: instructions per operation (the empty loop's removed),
/// one value per repeat.
public struct Counted: Sendable {
    /// One value per repeat: Ir per operation, the empty loop's Ir per iteration subtracted.
    public var instructionsPerOperation: [Double]
    /// The empty loop of the same shape, Ir per iteration (median of the repeats); subtracted.
    public var loopOverheadInstructions: Double
    /// With cache simulation: the simulated caches' misses and estimated cycles per operation,
    /// one per repeat, the empty loop's removed.
    public var cachePerOperation: [CacheCost]?
    public var settings: InstructionSettings
    /// The four dumps behind the median: its repeat's short and long loop, and the median empty
    /// repeat's. The parent makes the per-function profile from them after the worker exits.
    public var profileDumps: ProfileDumps?
    /// How many records the value is the mean over (`count(drawing:records:scale:label:)`); 0
    /// when it is the median of `settings.repeats` pairs on one record.
    public var records = 0
    /// Operations counted on each record, and not counted before them (with `records`).
    public var drawLength = 0
    public var drawWarmUp = 0

    /// What a drawn row's note says it is ("mean over records 1–80"), read back by
    /// ``ResultRow/drawnRecords``.
    static func drawnNote(records: Int) -> String { "\(drawnNotePrefix)\(records)" }
    static let drawnNotePrefix = "mean over records 1–"
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
    /// For a drawn row (``InstructionCounter/count(drawing:records:scale:label:)``), the dumps its
    /// retains and releases are counted in; nil when they are counted in the four above.
    public var callCounts: CallCountDumps?

    public init(operationShort: String, operationLong: String, emptyShort: String, emptyLong: String, operations: Int, callCounts: CallCountDumps? = nil) {
        self.operationShort = operationShort
        self.operationLong = operationLong
        self.emptyShort = emptyShort
        self.emptyLong = emptyLong
        self.operations = operations
        self.callCounts = callCounts
    }

    enum CodingKeys: String, CodingKey {
        case operationShort = "operation_short", operationLong = "operation_long", emptyShort = "empty_short", emptyLong = "empty_long", operations,
            callCounts = "call_counts"
    }
}

/// Four dumps of one record counted in full, for the calls of a drawn row (`ReferenceCounts`):
/// Callgrind counts calls even while it is not collecting, and restarts a call site's count only
/// at a dump that prints it, so the calls in a drawn pass's dump include those of the records'
/// set-ups, warm-ups and tear-downs around its counted loops, which its instructions leave out.
/// Here nothing but the loop runs between a dump that restarts the counts and the one that keeps
/// them, as in an undrawn row's dumps.
public struct CallCountDumps: Sendable, Equatable, Codable {
    public var operationShort: String
    public var operationLong: String
    public var emptyShort: String
    public var emptyLong: String
    /// long − short.
    public var operations: Int
    /// The record counted.
    public var record: Int

    public init(operationShort: String, operationLong: String, emptyShort: String, emptyLong: String, operations: Int, record: Int) {
        self.operationShort = operationShort
        self.operationLong = operationLong
        self.emptyShort = emptyShort
        self.emptyLong = emptyLong
        self.operations = operations
        self.record = record
    }

    enum CodingKeys: String, CodingKey {
        case operationShort = "operation_short", operationLong = "operation_long", emptyShort = "empty_short", emptyLong = "empty_long", operations, record
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
    ///
    /// `maximumDivisor` bounds the power of two the loop lengths may be divided by
    /// (``InstructionSettings/lengthDivisor(instructionsPerOperation:operations:maximum:)``); above
    /// ``InstructionSettings/maximumLengthDivisor`` (the scaling sweep's writes to many views, up
    /// to tens of millions of Ir each) the probe is divided by the same factor over it.
    ///
    /// `repeatsWhenShortest`, when given, is how many pairs are counted, with no warm-up loop of
    /// the operation but the probe, when the lengths are divided as far as `maximumDivisor` allows
    /// (an operation of millions of Ir, whose caller warmed it up: the derived suite's writes).
    public func count(
        _ batch: @escaping Batch, emptyBatch: @escaping Batch, label: String, maximumDivisor: Int = InstructionSettings.maximumLengthDivisor,
        repeatsWhenShortest: Int? = nil
    ) async throws -> Counted {
        guard Callgrind.isRunningUnderValgrind else { throw CallgrindError.notUnderValgrind }
        // A probe of a quarter of the short loop, thrown away, says what an operation costs, and
        // so the lengths this row is counted on (``InstructionSettings/lengthDivisor(instructionsPerOperation:)``).
        let probeLength = max(1, self.settings.shortLength / 4 / max(1, maximumDivisor / InstructionSettings.maximumLengthDivisor))
        let probe = try await counts(batch, length: probeLength, label: "\(label) probe")
        Callgrind.remove(probe)
        let divisor = self.settings.lengthDivisor(instructionsPerOperation: Double(probe.instructions) / Double(probeLength), maximum: maximumDivisor)
        var settings = self.settings.dividingLengths(by: divisor)
        let shortest = divisor * 2 > min(maximumDivisor, self.settings.shortLength)
        if shortest, let repeatsWhenShortest {
            settings.repeats = max(1, repeatsWhenShortest)
        } else {
            // One counted long loop of each first, thrown away: lazy set-up (a subject made on a
            // record's first write, caches filled, the counting path's own first use) is not an
            // operation's cost, and would otherwise fall on the first repeat only.
            Callgrind.remove(try await counts(batch, length: settings.longLength, label: "\(label) warm-up"))
        }
        Callgrind.remove(try await counts(emptyBatch, length: settings.longLength, label: "\(label) empty warm-up"))
        var operation: [PerOperation] = []
        var empty: [PerOperation] = []
        for index in 0..<settings.repeats {
            operation.append(try await perOperation(batch, settings: settings, label: "\(label) #\(index)"))
            empty.append(try await perOperation(emptyBatch, settings: settings, label: "\(label) empty #\(index)"))
        }
        let overhead = Statistics.percentile(empty.map(\.instructions).sorted(), 0.5)
        var cache: [CacheCost]?
        if settings.cacheSimulation, !empty.compactMap(\.cache).isEmpty {
            let emptyCache = CacheCost.median(empty.compactMap(\.cache))
            cache = operation.compactMap(\.cache).map { $0 - emptyCache }
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
            loopOverheadInstructions: overhead, cachePerOperation: cache, settings: settings, profileDumps: dumps)
    }

    /// Counts a synchronous operation on each of `records`, and reports the mean over them: one
    /// value, which the parent's profile of the same dumps sums to.
    ///
    /// A first pass over the records warms each up (`drawWarmUp` operations: a record's first
    /// writes make its observers' tables). Then four passes, each summed into one dump by
    /// switching counting on only around the counted loops (`Callgrind.toggleCollect()`): the
    /// operation at `drawWarmUp + drawLength` and at `drawWarmUp` operations, and the empty loop at
    /// both. In every pass each draw is set up, warmed up and ended outside the counted loop, after
    /// the heap is shaken the same way for the same record. Per operation: (Σ long − Σ short) /
    /// (records × drawLength), minus the same of the empty loop.
    ///
    /// `scale` multiplies both lengths, for an operation far cheaper than what its batch costs
    /// once (a read inside a view, whose batch also writes): the batch's fixed cost, met in
    /// heaps shaped a little differently by each pass, is then shared by more operations.
    ///
    /// An operation so costly that the records' counted operations exceed
    /// ``InstructionSettings/pairInstructions`` is counted on lengths divided by a power of two
    /// (at most 4, and so that at least 5 warm-up operations remain), found from record 1's first
    /// warm-up, counted in the first pass. Not with a `scale`: its lengths are what make the
    /// operation's share of its batch countable.
    ///
    /// `emptyDrawing`, when given, makes the draws of the two empty passes instead of `drawing`:
    /// for an empty loop that allocates nothing and touches nothing the draw sets up, whose count
    /// then does not depend on it (the scaling sweep's, which computes the next write and
    /// subscribes no views). The empty passes' difference cancels what their draws cost once,
    /// as the operation's passes' cancels theirs.
    public func count(drawing: Drawing, emptyDrawing: Drawing? = nil, records: [Int], scale: Int = 1, label: String) async throws -> Counted {
        guard Callgrind.isRunningUnderValgrind else { throw CallgrindError.notUnderValgrind }
        var drawLength = settings.drawLength * scale, warmUp = settings.drawWarmUp * scale
        // Before each draw the heap is shaken: a block of 16 B to 16 KiB, then 0 to 3 blocks of
        // every small size, all kept until the pass ends (malloc's per-size free lists hand back
        // the block the last draw freed, so without it a table made and freed on every operation
        // would lie at the same address, and collide alike, in every draw). A record is shaken
        // alike in every pass, so that its operation and its empty loop meet similar heaps.
        func shakeHeap(record: Int, into taken: inout [UnsafeMutableRawPointer]) {
            func take(_ bytes: Int) {
                let block = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 16)
                block.storeBytes(of: 0, as: UInt8.self)
                taken.append(block)
            }
            take(16 * (1 + Int(LayoutSeed.drawBits(draw: record) % 1_024)))
            for size in stride(from: 8, through: 1_016, by: 16) {
                for _ in 0..<Int(LayoutSeed.drawBits(draw: record &* 1_024 &+ size) % 4) { take(size) }
            }
        }
        /// One pass over the records; counted (one dump) unless `length` is nil, which only warms
        /// each record up, and counts the first record's warm-up alone (the probe).
        func pass(empty: Bool, length: Int?) async throws -> CallgrindCounts {
            var taken: [UnsafeMutableRawPointer] = []
            taken.reserveCapacity(records.count * 128)
            defer { taken.forEach { $0.deallocate() } }
            let dump = Callgrind.Dump(label: "\(label)\(empty ? " empty" : "") \(records.count) records n=\(length.map(String.init) ?? "probe \(warmUp)")")
            Callgrind.toggleCollect()
            // A draw that throws leaves the pass with counting off: switched back on, so that the
            // worker's next workloads count (in a worker that counts its main thread alone, nothing
            // else would).
            defer { if !Callgrind.mainThreadCollects { Callgrind.toggleCollect() } }
            Callgrind.zero()
            for record in records {
                shakeHeap(record: record, into: &taken)
                let draw: MeasuredDraw
                if empty, let emptyDrawing { draw = try await emptyDrawing(record) } else { draw = try await drawing(record) }
                let batch = empty ? draw.emptyBatch : draw.batch
                let probed = length == nil && record == records[0]
                if probed { Callgrind.toggleCollect() }
                try await batch(warmUp)
                if probed { Callgrind.toggleCollect() }
                if let length {
                    try await Self.inTaskOfItsOwn {
                        Callgrind.toggleCollect()
                        try await batch(length)
                        Callgrind.toggleCollect()
                    }
                }
                try await draw.end()
            }
            Callgrind.toggleCollect()
            return try dump.take()
        }
        // A first pass makes what a record keeps between draws (its observers' tables), so that
        // every counted pass finds it made; its probe decides the lengths.
        let probe = try await pass(empty: false, length: nil)
        Callgrind.remove(probe)
        if scale == 1 {
            let divisor = min(
                settings.lengthDivisor(instructionsPerOperation: Double(probe.instructions) / Double(warmUp), operations: records.count * drawLength),
                4, max(1, warmUp / 5))
            drawLength /= divisor
            warmUp /= divisor
        }
        let operations = records.count * drawLength
        // The short loop is not empty, so that both loops run the loop's code at least once and
        // what a batch costs once cancels whatever its first iteration does.
        let long = try await pass(empty: false, length: warmUp + drawLength)
        let emptyLong = try await pass(empty: true, length: warmUp + drawLength)
        let once = try await pass(empty: false, length: warmUp)
        let emptyOnce = try await pass(empty: true, length: warmUp)
        func perOperation(_ long: CallgrindCounts, _ once: CallgrindCounts) -> Double {
            (Double(long.instructions) - Double(once.instructions)) / Double(operations)
        }
        let overhead = perOperation(emptyLong, emptyOnce)
        var cache: [CacheCost]?
        if let a = long.cacheCost, let b = once.cacheCost, let c = emptyLong.cacheCost, let d = emptyOnce.cacheCost {
            cache = [((a - b) - (c - d)) / Double(operations)]
        }
        // The calls (for retains and releases), counted apart once the passes are done, so that
        // nothing here touches the heaps the passes met.
        let callCounts = try await countCalls(drawing: drawing, record: records[0], short: warmUp, long: warmUp + drawLength, label: label)
        let dumps = ProfileDumps(
            operationShort: once.file, operationLong: long.file, emptyShort: emptyOnce.file, emptyLong: emptyLong.file, operations: operations,
            callCounts: callCounts)
        return Counted(
            instructionsPerOperation: [perOperation(long, once) - overhead], loopOverheadInstructions: overhead,
            cachePerOperation: cache, settings: settings, profileDumps: dumps, records: records.count, drawLength: drawLength,
            drawWarmUp: warmUp)
    }

    /// Counts `record`'s operation and empty loop at `short` and `long` operations, each loop in
    /// a window of its own counted whole (``CallCountDumps``), after a long loop of each whose dump
    /// is thrown away: that dump restarts the count of every call site the loop reaches (a site
    /// the passes reached while not collecting still holds those calls), and the loop does the
    /// fresh draw's first operations.
    private func countCalls(drawing: Drawing, record: Int, short: Int, long: Int, label: String) async throws -> CallCountDumps {
        let draw = try await drawing(record)
        var files: [String] = []
        for (batch, name) in [(draw.batch, "\(label) calls"), (draw.emptyBatch, "\(label) calls empty")] {
            Callgrind.remove(try await counts(batch, length: long, label: "\(name) warm-up"))
            files.append(try await counts(batch, length: short, label: name).file)
            files.append(try await counts(batch, length: long, label: name).file)
        }
        try await draw.end()
        return CallCountDumps(
            operationShort: files[0], operationLong: files[1], emptyShort: files[2], emptyLong: files[3], operations: long - short, record: record)
    }

    struct PerOperation {
        var instructions: Double
        var cache: CacheCost?
        /// The short and the long loop's dumps.
        var dumps: [CallgrindCounts]
    }

    /// The index of the median repeat (the lower one of two middle ones).
    static func medianIndex(_ repeats: [PerOperation]) -> Int {
        repeats.indices.sorted { repeats[$0].instructions < repeats[$1].instructions }[(repeats.count - 1) / 2]
    }

    /// (count at the long length − count at the short length) / (long − short).
    private func perOperation(_ batch: @escaping Batch, settings: InstructionSettings, label: String) async throws -> PerOperation {
        let short = try await counts(batch, length: settings.shortLength, label: label)
        let long = try await counts(batch, length: settings.longLength, label: label)
        let length = Double(settings.longLength - settings.shortLength)
        let instructions = (Double(long.instructions) - Double(short.instructions)) / length
        var cache: CacheCost?
        if let longCache = long.cacheCost, let shortCache = short.cacheCost {
            cache = (longCache - shortCache) / length
        }
        return PerOperation(instructions: instructions, cache: cache, dumps: [short, long])
    }

    /// Counts one run of `batch` at `length`: nothing but the batch and the two client requests
    /// falls between the zero and the dump (the label is made before).
    private func counts(_ batch: @escaping Batch, length: Int, label: String) async throws -> CallgrindCounts {
        let label = "\(label) n=\(length)"
        return try await Self.inTaskOfItsOwn {
            let dump = Callgrind.Dump(label: label)
            Callgrind.zero()
            try await batch(length)
            return try dump.take()
        }
    }

    /// Runs `body` in a new main-actor task and waits for it. A counted loop runs so, as a
    /// precaution: its async frames then start from an empty task allocator every time, not
    /// under whatever frames the counting code holds. (On `plain`'s rows it changed nothing
    /// measurable; see docs/gate.md, "Draws", for the harness effect it did not remove.)
    static func inTaskOfItsOwn<Result: Sendable>(_ body: @escaping @MainActor () async throws -> Result) async throws -> Result {
        try await Task { @MainActor in try await body() }.value
    }
}
