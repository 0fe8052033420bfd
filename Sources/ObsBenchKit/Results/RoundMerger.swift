/// Pools the rows of several worker rounds of one suite × strategy into the rows `results.csv` keeps.
///
/// A timing suite runs every strategy in several rounds, interleaved with the other strategies,
/// so each strategy's samples span the whole run rather than one stretch of a shared machine's
/// noise. A row whose raw samples exist is recomputed from the samples of every round pooled; any
/// other row (a count, the loop overhead) is summarised over its per-round values, which become
/// that row's samples. Error rows pass through, naming their round.
///
/// In the instruction mode each round is one memory layout (``LayoutSeed``): an instruction row's
/// statistics are over the layouts' values (each its worker's median repeat), and its value is
/// their mean (``ResultRow/value``).
///
/// A row some rounds did not give a value (a round that failed, or wrote the row without one) is
/// pooled over the rounds that did: its `rounds` counts them, and its note says which were missing
/// ("7 of 8 rounds: none from round 3"). Its figures are never one round's standing in for all.
public enum RoundMerger {
    /// Pools every round of one suite × strategy, the first round's rows first.
    public static func merge(rounds: [[ResultRow]], samples: [SampleRow]) -> [ResultRow] {
        merge(rounds: rounds.enumerated().map { (round: $0.offset + 1, rows: $0.element) }, of: rounds.count, samples: samples)
    }

    /// Pools the rounds given, each named by its number (from 1), of the `total` the suite runs:
    /// a shard's results pool the rounds it ran (``RunShard``), and the missing ones are named.
    public static func merge(rounds: [(round: Int, rows: [ResultRow])], of total: Int, samples: [SampleRow]) -> [ResultRow] {
        guard rounds.count > 1 else {
            // One process: each row's value is that round's.
            guard let only = rounds.first else { return [] }
            return only.rows.map { row in
                var row = row
                if !row.isError, let value = row.value { row.roundValues = [only.round: value] }
                return row
            }
        }
        var order: [RowKey] = []
        var groups: [RowKey: [(round: Int, row: ResultRow)]] = [:]
        var errors: [ResultRow] = []
        for (round, rows) in rounds {
            for row in rows {
                if row.isError {
                    var error = row
                    error.note = "round \(round)/\(total): \(row.note)"
                    errors.append(error)
                    continue
                }
                let key = RowKey(row)
                if groups[key] == nil { order.append(key) }
                groups[key, default: []].append((round, row))
            }
        }
        let pooled = SampleAttribution(rows: order, samples: samples).samples
        var merged: [ResultRow] = []
        for key in order {
            let group = groups[key]!
            // The rounds that gave this row a value; a row no round gave one stays as it is (a
            // figure the strategy does not have), over every round that wrote it.
            let valued = group.filter { $0.row.statistics != nil }
            let counted = valued.isEmpty ? group : valued
            var row = (valued.first ?? group[0]).row
            row.rounds = counted.count
            // Each process's own value (a worker's row is its round's median or count).
            var roundValues: [Int: Double] = [:]
            for (round, own) in valued { if let value = own.value, value.isFinite { roundValues[round] = value } }
            row.roundValues = roundValues.isEmpty ? nil : roundValues
            if !row.isMeanOverLayouts, let values = pooled[key]?.map(\.value), !values.isEmpty {
                row.statistics = Statistics(values)
                row.note += "; samples of \(counted.count) rounds pooled"
            } else if !valued.isEmpty {
                // One value a round: a count's, or in the instruction mode a layout's.
                let values = valued.compactMap { $0.row.statistics?.median }
                if let statistics = Statistics(values) {
                    row.statistics = statistics
                    if row.isMeanOverLayouts {
                        row.note +=
                            "; mean of \(values.count) memory layouts, \(NumberFormat.irPerOperation(statistics.min))–\(NumberFormat.irPerOperation(statistics.max)) \(row.unit)"
                    } else if Set(values).count > 1 {
                        row.note += "; statistics over the \(values.count) rounds' values"
                    }
                } else {
                    row.statistics = nil
                    row.note += "; no statistics: a round's value is not finite"
                }
            }
            if !valued.isEmpty, valued.count < total {
                let valuedRounds = Set(valued.map(\.round))
                let missing = (1...total).filter { !valuedRounds.contains($0) }
                row.note +=
                    "; \(valued.count) of \(total) rounds: none from round\(missing.count == 1 ? "" : "s") \(missing.map(String.init).joined(separator: ", "))"
            }
            merged.append(row)
        }
        return merged + errors
    }
}
