import ObsBenchConformance
import ObservationStrategies
import Testing

/// Rule 8 holds a store to its derived promises: a store declaring that an unchanged derived value
/// re-runs no view, and re-running it anyway, fails with that rule's own failure; declared truly,
/// the same store passes.
@Suite("Conformance kit: derived values")
@MainActor
struct DerivedConformanceTests {
    private func rule() throws -> ConformanceCase {
        try #require(ConformanceCase.all.first { $0.name.hasPrefix("8.") })
    }

    @Test("a store that promises no re-run on an unchanged derived value, and re-runs anyway, fails rule 8")
    func rerunningStoreFails() async throws {
        let rule = try rule()
        let issues = Locked<[String]>([])
        try await withKnownIssue("DerivedClaimStore<Skips> derives in the view body, which re-runs on every change to the field it reads, and declares skipsUnchangedDerived: true")
        {
            try await rule.check(StrategyEntry(DerivedClaimStore<Skips>.self))
        } matching: { issue in
            guard ConformanceFailure.derivedUnchangedReran.matches(issue) else { return false }
            issues.withLock { $0.append(issue.comments.map(\.rawValue).joined(separator: " ")) }
            return true
        }
        let comment = try #require(issues.withLock { $0.first })
        #expect(comment.hasPrefix("declared skipsUnchangedDerived: true, but view-body: a write leaving the derived value unchanged re-ran the view 1 times"), "\(comment)")
        #expect(comment.hasSuffix("or declare skipsUnchangedDerived: false"))
    }

    @Test("the same store, declaring what it does, passes rule 8")
    func truthfulStorePasses() async throws {
        try await rule().check(StrategyEntry(DerivedClaimStore<DoesNotSkip>.self))
    }

    @Test("a store whose derived view shows a wrong value fails rule 8")
    func wrongValueFails() async throws {
        let rule = try rule()
        try await withKnownIssue("WrongValueStore's derived views show the opposite of what they derive") {
            try await rule.check(StrategyEntry(WrongValueStore.self))
        } matching: {
            ConformanceFailure.wrongDerivedValue.matches($0)
        }
    }
}

/// What a ``DerivedClaimStore`` declares about unchanged derived values.
protocol DerivedClaim {
    static var skips: Bool { get }
}

enum Skips: DerivedClaim { static let skips = true }
enum DoesNotSkip: DerivedClaim { static let skips = false }

/// `published` (whose derived views are the default, derived in the view body), declaring
/// `skipsUnchangedDerived` as `Claim` says.
@MainActor
final class DerivedClaimStore<Claim: DerivedClaim>: ForwardingStore {
    nonisolated static var descriptor: StrategyDescriptor {
        var descriptor = PublishedStrategy.descriptor
        descriptor.name = "derived-claim-\(Claim.skips)"
        descriptor.summary = "published, deriving in the view body, declaring skipsUnchangedDerived: \(Claim.skips)"
        descriptor.capabilities.skipsUnchangedDerived = Claim.skips
        return descriptor
    }

    let inner: PublishedStrategy

    init(records: [TaskRecord]) throws { inner = try PublishedStrategy(records: records) }
}

/// `published` whose derived views show the negation of each boolean they derive.
@MainActor
final class WrongValueStore: ForwardingStore {
    nonisolated static var descriptor: StrategyDescriptor {
        var descriptor = PublishedStrategy.descriptor
        descriptor.name = "wrong-value"
        descriptor.summary = "published, its derived views showing the opposite value"
        return descriptor
    }

    let inner: PublishedStrategy

    init(records: [TaskRecord]) throws { inner = try PublishedStrategy(records: records) }

    func subscribeDerived(_ view: DerivedViewSpec, style: DerivationStyle) throws -> DerivedViewHandle {
        let handle = DerivedViewHandle(spec: view)
        let values = try view.allFields.map { try read($0.field, of: $0.id) }
        let fields = view.allFields
        let right = view.expectedOutput { ref in values[fields.firstIndex(of: ref) ?? 0] }
        handle.recordRun(right.map { value in if case .bool(let flag) = value { .bool(!flag) } else { value } })
        return handle
    }
}
