/// What the hop workloads share: how they sample, and how their rows name what they measured.
extension WorkloadContext {
    /// Long samples (5 ms, over a hundred main-actor round trips; `--quick`: 2 ms), so the fixed cost of starting the callers and
    /// resuming the main actor once per sample is a small part, and is then subtracted; half the
    /// time budget per point.
    var hopSampler: SamplerSettings {
        var settings = sampler
        settings.targetSampleNanoseconds = quick ? 2_000_000 : 5_000_000
        settings.budgetNanoseconds /= 2
        settings.warmUpNanoseconds /= 2
        return settings
    }
}

extension ResultRow {
    /// Marks the row as measuring no strategy (`-`), naming the isolation kind in `executor` and
    /// the callers in `concurrency`.
    mutating func labelAsHop(executor: String, callers: Int) {
        strategy = RowKey.noStrategy
        self.executor = executor
        concurrency = callers
    }
}

extension WorkloadOutput {
    /// Labels every row as `ResultRow.labelAsHop` does, and every sample the same way, so each
    /// keeps its row's full key. (Samples written before they carried the executor and the
    /// concurrency had the callers in `subscribers` instead: ``SampleAttribution`` reads them.)
    mutating func labelAsHop(executor: String, callers: Int) {
        for index in rows.indices { rows[index].labelAsHop(executor: executor, callers: callers) }
        for index in samples.indices {
            samples[index].strategy = RowKey.noStrategy
            samples[index].executor = executor
            samples[index].concurrency = callers
        }
    }
}

extension WorkloadContext {
    /// A `latency` row whose statistics are `trials` (ns, one reading per trial, not batched
    /// samples), labelled as `labelAsHop` does, with the trials as its samples: samples.csv holds
    /// what every timing row's value is recomputed from and judged by, these too.
    func latencyTrialsOutput(workload: String, trials: [Double], executor: String, callers: Int, subscribers: Int = 0, note: String) -> WorkloadOutput {
        var row = countRow(workload: workload, objects: 0, subscribers: subscribers, metric: .latency, value: nil, note: note)
        row.statistics = Statistics(trials)
        row.labelAsHop(executor: executor, callers: callers)
        let key = RowKey(row)
        return WorkloadOutput(rows: [row], samples: trials.enumerated().map { SampleRow(runID: runID, key: key, index: $0.offset, value: $0.element) })
    }

    /// A row of voluntary context switches per operation between two `getrusage` readings,
    /// labelled as `labelAsHop` does; nil statistics (and the reason) where getrusage failed.
    func voluntarySwitchesRow(
        workload: String, metric: Metric, before: ProcessCounters?, after: ProcessCounters?,
        operations: Int, subscribers: Int, executor: String, note: String
    ) -> ResultRow {
        var row = countRow(
            workload: workload, objects: 0, subscribers: subscribers, metric: metric,
            value: before.flatMap { b in after.map { Double($0.voluntarySwitches - b.voluntarySwitches) / Double(max(operations, 1)) } },
            note: before == nil || after == nil
                ? "not measurable here: getrusage failed" : "getrusage(RUSAGE_SELF) over the whole measurement (warm-up and the empty loop included); \(note)")
        row.labelAsHop(executor: executor, callers: 1)
        return row
    }
}
