/// A write made on a background actor and shown by a view on the main actor: the background actor
/// either sends the new value to the view, or passes the record's ID and the view re-fetches it
/// from the background actor (one more round trip). Measured per event, from the main actor's
/// call that makes the write to the view having updated and control being back with the caller.
public struct WriteToViewHopWorkload: Workload {
    /// How the change reaches the view.
    public enum Handoff: String, Sendable, CaseIterable {
        case sendValue = "send-value"
        case passID = "pass-id"
    }

    public let handoff: Handoff
    public var name: String { "e2e-\(handoff.rawValue)" }
    /// The isolation changes one event makes, by the code's structure (not measured): the caller's
    /// await hops to the background actor; the value or ID goes to the main actor; the write resumes
    /// on the background actor; the caller resumes on the main actor. Passing the ID adds the view's
    /// re-fetch: to the background actor and back.
    public var isolationChanges: String {
        switch handoff {
        case .sendValue: "4 isolation changes per event (main → background → main → background → main)"
        case .passID: "6 isolation changes per event (main → background → main → background → main → background → main)"
        }
    }

    public var summary: String {
        switch handoff {
        case .sendValue: "a background actor writes, then sends the value to a main-actor view"
        case .passID: "a background actor writes, then passes the ID; the main-actor view re-fetches it from the actor"
        }
    }

    public let countsInstructions = true

    /// Its rows count the runtime's or dispatch's threads, whose timing moves them.
    public let measuredThreads = MeasuredThreads.poolThreads

    public init(handoff: Handoff) {
        self.handoff = handoff
    }

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        let background = BackgroundRecords()
        let view = RecordView()
        var next = 0
        var lastWritten = 0
        let settings = context.hopSampler
        let handoff = handoff
        let measured = try await context.measureCost(
            { iterations in
                for _ in 0..<iterations {
                    next &+= 1
                    await background.write(next, to: 1, showingOn: view, by: handoff)
                }
                lastWritten = next
            },
            emptyBatch: { iterations in
                for _ in 0..<iterations {
                    next &+= 1
                    blackHole(next)
                }
            }, sampler: settings, label: name)
        guard view.shown == lastWritten else {
            throw WorkloadError.viewFailed("the view shows \(view.shown), the last write was \(lastWritten)")
        }
        var output = context.latencyOutput(
            workload: name, objects: 1, subscribers: 1, measured: measured,
            note: "\(summary); from the main actor's call to the view updated and back: \(isolationChanges)")
        output.labelAsHop(executor: "background-actor-to-main-actor", callers: 1)
        return output
    }
}

/// The records, isolated to a background (default) actor.
actor BackgroundRecords {
    private var values: [Int: Int] = [1: 0]

    func value(of id: Int) -> Int { values[id] ?? 0 }

    /// Writes, then gets the change to the view the way `handoff` says.
    func write(_ value: Int, to id: Int, showingOn view: RecordView, by handoff: WriteToViewHopWorkload.Handoff) async {
        values[id] = value
        switch handoff {
        case .sendValue: await view.show(value)
        case .passID: await view.refresh(id, from: self)
        }
    }
}

/// A view on the main actor that shows one record's value.
@MainActor
final class RecordView {
    private(set) var shown = 0

    func show(_ value: Int) { shown = value }

    func refresh(_ id: Int, from records: BackgroundRecords) async {
        shown = await records.value(of: id)
    }
}
