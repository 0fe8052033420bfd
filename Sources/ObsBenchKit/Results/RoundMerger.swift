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
public enum RoundMerger {
    public static func merge(rounds: [[ResultRow]], samples: [SampleRow]) -> [ResultRow] {
        guard rounds.count > 1 else { return rounds.first ?? [] }
        var order: [RowKey] = []
        var groups: [RowKey: [ResultRow]] = [:]
        var errors: [ResultRow] = []
        for (index, rows) in rounds.enumerated() {
            for row in rows {
                if row.isError {
                    var error = row
                    error.note = "round \(index + 1)/\(rounds.count): \(row.note)"
                    errors.append(error)
                    continue
                }
                let key = RowKey(row)
                if groups[key] == nil { order.append(key) }
                groups[key, default: []].append(row)
            }
        }
        let sampledKeys = Dictionary(grouping: order, by: { SampleKey(workload: $0.workload, metric: $0.metric, subscribers: $0.subscribers) })
        let pooled = Dictionary(grouping: samples, by: { SampleKey(workload: $0.workload, metric: $0.metric, subscribers: $0.subscribers) })
        var merged: [ResultRow] = []
        for key in order {
            let group = groups[key]!
            var row = group[0]
            row.rounds = group.count
            let sampleKey = SampleKey(workload: key.workload, metric: key.metric, subscribers: key.subscribers)
            if !row.isMeanOverLayouts, let values = pooled[sampleKey]?.map(\.value), !values.isEmpty, sampledKeys[sampleKey]?.count == 1 {
                row.statistics = Statistics(values)
                row.note += "; samples of \(group.count) rounds pooled"
            } else {
                // One value a round: a count's, or in the instruction mode a layout's.
                let values = group.compactMap { $0.statistics?.median }
                if values.count == group.count, let statistics = Statistics(values) {
                    row.statistics = statistics
                    if row.isMeanOverLayouts {
                        row.note +=
                            "; mean of \(group.count) memory layouts, \(NumberFormat.instructions(statistics.min))–\(NumberFormat.instructions(statistics.max)) \(row.unit)"
                    } else if Set(values).count > 1 {
                        row.note += "; statistics over the \(group.count) rounds' values"
                    }
                }
            }
            merged.append(row)
        }
        return merged + errors
    }

    /// How samples name their row: only rows unique by workload, metric and subscriber count are
    /// matched to samples.
    struct SampleKey: Hashable {
        var workload, metric: String
        var subscribers: Int
    }
}
