/// How the derived suite counts its writes under `--measure instructions`.
///
/// - One counted operation is a write there and back (the scenario's writes alternate between two
///   states), and its count is halved: every loop then holds as many writes of each direction,
///   whatever length it was divided to. A loop of an odd length would weigh, say, a task leaving
///   the list and coming back unequally, and differently from one repeat to the next. The loops
///   are half the run's lengths, in pairs: as many writes.
/// - A derived write costs up to tens of millions of Ir (a filtered list over 1,000 records
///   re-run with its row views, or a thousand views re-run), some fifty times longer under
///   Callgrind. Its loops are sized to hold a tenth of the run's
///   ``InstructionSettings/pairInstructions`` (``pairInstructionsDivisor``) and may be divided by
///   up to ``maximumDivisor``; at that most divided, 1 and 4 pairs (`--quick`), the row is
///   counted on ``repeatsWhenShortest`` pair of loops after the probe, with no other warm-up (the
///   suite's counted writes ran just before). Such a write is counted exactly by a synchronous
///   strategy (three repeats of `observable`'s filtered-sorted writes agreed within 0.06%); an
///   asynchronous one's spread shows in its layouts.
///
/// Timed, a write is one operation, as before.
struct CountedWrites {
    /// The context to measure with: under instructions, the loops in pairs and sized down.
    let context: WorkloadContext
    /// Writes per counted (or timed) operation: 2 counted, 1 timed.
    let writesPerOperation: Int

    /// The largest power of two a derived write's loop lengths may be divided by.
    static let maximumDivisor = 128
    /// The share of ``InstructionSettings/pairInstructions`` a derived row's pair is sized to hold (1 / this).
    static let pairInstructionsDivisor = 10
    /// Pairs of loops counted for a write whose loops are divided the most.
    static let repeatsWhenShortest = 1

    init(_ context: WorkloadContext) {
        var counting = context
        if context.measure == .instructions {
            counting.instructionSettings.pairInstructions /= Self.pairInstructionsDivisor
            counting.instructionSettings.shortLength = max(1, context.instructionSettings.shortLength / 2)
            counting.instructionSettings.longLength = max(2, context.instructionSettings.longLength / 2)
            writesPerOperation = 2
        } else {
            writesPerOperation = 1
        }
        self.context = counting
    }

    /// What a counted row's note adds: that its loops counted pairs of writes.
    var note: String {
        writesPerOperation > 1
            ? "; counted on pairs of writes (there and back): the ops of the loop lengths below are pairs, and the figure is per write (a pair's count halved)"
            : ""
    }
}

extension CostPerOperation {
    /// This cost per operation of `writesPerOperation` writes, per write: a count and its empty
    /// loop divided, and its profile's operations multiplied, so the profile still sums to it. A
    /// timing is returned as it is (timed, an operation is one write).
    func perWrite(writesPerOperation: Int) -> CostPerOperation {
        guard writesPerOperation > 1, case .instructions(var counted) = self else { return self }
        let writes = Double(writesPerOperation)
        counted.instructionsPerOperation = counted.instructionsPerOperation.map { $0 / writes }
        counted.loopOverheadInstructions /= writes
        counted.cachePerOperation = counted.cachePerOperation?.map { $0 / writes }
        counted.profileDumps?.operations *= writesPerOperation
        return .instructions(counted)
    }
}
