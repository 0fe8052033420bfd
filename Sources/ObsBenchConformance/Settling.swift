import ObservationStrategies
import Testing

/// Waiting for a store to settle without letting a broken `settle()` hang the test run.
@MainActor
enum Settling {
    /// Settles, failing the test (instead of hanging the run) if `settle()` does not return within 10 s.
    static func settle(_ store: any ObservationStrategy, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let returned = SettleFlag()
        Task { @MainActor in
            await store.settle()
            returned.value = true
        }
        for _ in 0..<1_000 where !returned.value {
            try await Task.sleep(for: .milliseconds(10))
        }
        try #require(returned.value, "settle() did not return within 10 s (\(type(of: store).descriptor.name))", sourceLocation: sourceLocation)
    }

    /// Settles, then gives any late delivery a chance to arrive, and checks none did:
    /// `settle()` must mean that nothing more is coming.
    static func settleAndConfirmQuiet(_ store: any ObservationStrategy, _ views: [ViewHandle], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await settle(store, sourceLocation: sourceLocation)
        let counted = views.map(\.snapshot.reruns)
        for _ in 0..<20 { await Task.yield() }
        try await Task.sleep(for: .milliseconds(30))
        try await settle(store, sourceLocation: sourceLocation)
        let later = views.map(\.snapshot.reruns)
        #expect(
            later == counted,
            ConformanceFailure.lateRerun.comment(type(of: store).descriptor.capabilities, "views re-ran \(counted) times by settle() and \(later) times 30 ms later"),
            sourceLocation: sourceLocation)
    }
}

/// Set on the main actor when `settle()` returns.
@MainActor
final class SettleFlag {
    var value = false
}

/// A weak reference, to prove an object was freed.
struct WeakObject {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}
