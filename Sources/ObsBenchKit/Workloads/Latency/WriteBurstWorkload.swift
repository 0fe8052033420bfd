import ObservationStrategies

/// K writes of a field one view reads, then one `settle()`: what a burst costs until every view has
/// caught up, and how many re-runs it gives. Every other workload settles after each write, so a
/// coalescing strategy pays a delivery per write there and is never timed on what coalescing is for;
/// here it pays one per burst (one re-run), where a strategy that does not coalesce pays K.
///
/// Each burst is checked, not only timed: once it has settled, a view of a strategy that observes
/// anything must show the burst's last write; one that shows an earlier state is an error row.
///
/// Rows: `write-burst-K` for K = 1, 10, 100 (``bursts``), time per burst, and `reruns_per_burst`.
/// Timed only: under `--measure instructions` a burst of 100 GRDB writes is tens of millions of
/// instructions a pair, beyond the counted run's time.
public struct WriteBurstWorkload: Workload {
    /// The burst sizes measured, each a row of its own.
    public static let bursts = [1, 10, 100]
    public let name = "write-burst"
    public let summary = "K = 1, 10, 100 writes of a field one view reads, then one settle: time per burst until the view shows the last, and re-runs per burst"

    public init() {}

    /// The `workload` column of a burst of `size` writes.
    public static func rowName(_ size: Int) -> String { "write-burst-\(size)" }

    public func writesRows(named rowWorkload: String) -> Bool {
        Self.bursts.map(Self.rowName).contains(rowWorkload)
    }

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        let store = try context.makeStore()
        let observes = try context.measuredStrategy().descriptor.capabilities.granularity != .none
        var output = WorkloadOutput()
        var next = 1_000
        for size in Self.bursts {
            var bursts = 0
            var reruns = 0
            var failure: String?
            let measured = try await context.measureCost(label: Self.rowName(size)) { record in
                let view = try store.subscribe(.record(record, .priority))
                await store.settle()
                let rerunsBefore = view.reruns
                return MeasuredDraw(
                    batch: { iterations in
                        for _ in 0..<iterations {
                            for _ in 0..<size {
                                next &+= 1
                                try store.write(.priority(next), to: record)
                            }
                            await store.settle()
                            if observes, failure == nil, view.lastSeen != [.priority(next)] {
                                failure =
                                    "after a burst of \(size) writes settled, the view showed \(view.lastSeen.map(\.description).joined(separator: " ")), not the last write (priority \(next))"
                            }
                        }
                        bursts += iterations
                    },
                    emptyBatch: { iterations in
                        for _ in 0..<iterations {
                            for _ in 0..<size {
                                next &+= 1
                                blackHole(FieldValue.priority(next))
                            }
                        }
                    },
                    end: {
                        reruns += view.reruns - rerunsBefore
                        failure = failure ?? view.snapshot.failure
                        store.unsubscribe(view)
                    })
            }
            if let failure {
                await store.tearDown()
                throw WorkloadError.viewFailed(failure)
            }
            output.append(
                context.latencyOutput(
                    workload: Self.rowName(size), subscribers: 1, measured: measured,
                    note: "\(size) writes of one record's priority, then settle(): one op is one burst"))
            output.rows.append(
                context.countRow(
                    workload: Self.rowName(size), subscribers: 1, metric: .rerunsPerBurst,
                    value: bursts == 0 ? 0 : Double(reruns) / Double(bursts),
                    note: "\(reruns) re-runs for \(bursts) bursts of \(size) writes (warm-up included); the view showed each burst's last write"))
        }
        await store.tearDown()
        return output
    }
}
