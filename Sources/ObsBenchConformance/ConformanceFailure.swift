import ObservationStrategies
import Testing

/// The failure a rule reports when a store breaks it: the comment its key `#expect` calls carry,
/// defined once so that a test expecting a store to break a rule can pin that rule's own failure
/// (`withKnownIssue(matching:)`) rather than accept any issue, such as a `settle()` that timed out
/// or an error the store threw.
///
/// ```swift
/// try await withKnownIssue("MyStore delivers on a task while declaring synchronous delivery") {
///     try await rule.check(StrategyEntry(MyStore.self))
/// } matching: { ConformanceFailure.deliveredAfterReturn.matches($0) }
/// ```
///
/// Each failure names the declarations (`Capabilities`) it contradicts, and its comment says what
/// the store declared, what was seen, and what to change: the store, or what it declares.
///
/// ```text
/// declared transactional: true, but a view saw title "round 3" with priority 2: make
/// commitFromBackground atomic (…), or declare transactional: false
/// ```
///
/// A failure that no declaration excuses (a leak, a lost write, a wrong error) names none, and
/// its comment says what to change in the store.
public struct ConformanceFailure: Sendable, Hashable, CustomStringConvertible {
    /// What to change, the store or its declaration: the text every issue of this failure contains.
    public let message: String
    /// The declarations the failure contradicts, whose declared values its comment names; empty
    /// for a failure no declaration excuses.
    public let declarations: [Declaration]

    public init(_ message: String, contradicts declarations: [Declaration] = []) {
        self.message = message
        self.declarations = declarations
    }

    public var description: String { message }

    /// A field of `Capabilities` a store declares, as its descriptor spells it.
    public enum Declaration: String, Sendable, Hashable, CaseIterable {
        case granularity, deduplicates, delivery, transactional, coalesces, memoizesDerived, skipsUnchangedDerived

        /// The declared value in `capabilities`: "transactional: true", "granularity: .object".
        public func declared(in capabilities: Capabilities) -> String {
            switch self {
            case .granularity: "granularity: .\(capabilities.granularity.rawValue)"
            case .deduplicates: "deduplicates: \(capabilities.deduplicates)"
            case .delivery: "delivery: .\(capabilities.delivery.rawValue)"
            case .transactional: "transactional: \(capabilities.transactional)"
            case .coalesces: "coalesces: \(capabilities.coalesces)"
            case .memoizesDerived: "memoizesDerived: \(capabilities.memoizesDerived.map(String.init(describing:)) ?? "nil")"
            case .skipsUnchangedDerived: "skipsUnchangedDerived: \(capabilities.skipsUnchangedDerived.map(String.init(describing:)) ?? "nil")"
            }
        }
    }

    /// The comment for an `#expect` of this failure, with `detail` (what was seen) after the message.
    public func comment(_ detail: String = "") -> Comment {
        Comment(rawValue: detail.isEmpty ? message : "\(message) [\(detail)]")
    }

    /// The comment for an `#expect` of this failure in a store declaring `capabilities`: "declared
    /// transactional: true, but `detail`: `message`"; without declarations, "`detail`: `message`".
    public func comment(_ capabilities: Capabilities, _ detail: String) -> Comment {
        let declared = declarations.map { $0.declared(in: capabilities) }.joined(separator: ", ")
        return Comment(rawValue: declared.isEmpty ? "\(detail): \(message)" : "declared \(declared), but \(detail): \(message)")
    }

    /// Whether `issue` is this failure: a failed expectation whose comment carries `message`.
    /// A thrown error, a `#require` that stopped a case (as a `settle()` timeout does), or
    /// another rule's failure is not.
    public func matches(_ issue: Issue) -> Bool {
        guard case .expectationFailed = issue.kind else { return false }
        return issue.comments.contains { $0.rawValue.contains(message) }
    }

    /// Rules 1 to 3 and 6: a view re-runs as often as the declared granularity (and deduplication)
    /// says after one write, and shows the values it read.
    public static let wrongReruns = ConformanceFailure(
        "notify exactly the views the write concerns, or declare the granularity (and deduplicates) the store has", contradicts: [.granularity, .deduplicates])

    /// Rules 1 and 5: a view runs once when subscribed, showing the current values, and that run is
    /// not a re-run.
    public static let firstRun = ConformanceFailure(
        "run a view once when it is subscribed, reading the current values, and do not count that run as a re-run (ViewHandle.recordRun); no declaration changes this")

    /// Rule 1b: a store declared `delivery: .synchronous` has re-run its views when `write` or
    /// `transaction` returns.
    public static let deliveredAfterReturn = ConformanceFailure(
        "re-run the views before write and transaction return, or declare delivery: .asynchronous", contradicts: [.delivery])

    /// Rules 4, 5, 5b, 5c, 5e and 5f: the last value written reaches every view that read it by
    /// the time `settle()` returns.
    public static let lostWrite = ConformanceFailure(
        "deliver the last value written to every view that read it before settle() returns (coalescing may skip values, never the last), or declare granularity: .none if the store observes nothing",
        contradicts: [.granularity])

    /// Rules 4, 5, 5c and 7: `read` returns what was last written, and a failed transaction applies nothing.
    public static let writeNotKept = ConformanceFailure(
        "keep every write: read returns the last value written, and a transaction or commit applies all its writes, or none when one fails; no declaration changes this")

    /// Rule 8: every derivation style shows, after each write, what a from-scratch computation over
    /// the records gives.
    public static let wrongDerivedValue = ConformanceFailure(
        "show in a derived view what its nodes compute over the store's records once the store has settled (DerivedViewHandle.recordRun), or declare granularity: .none if the store observes nothing",
        contradicts: [.granularity])

    /// Rule 8, a store declared `skipsUnchangedDerived: true`: a write that leaves every derived
    /// value a view reads unchanged re-runs no view.
    public static let derivedUnchangedReran = ConformanceFailure(
        "re-run a derived view only when a value it shows changed, or declare skipsUnchangedDerived: false", contradicts: [.skipsUnchangedDerived])

    /// Rule 8, a store declared `memoizesDerived: true`: a write to a field no derived value reads
    /// evaluates no derived value again.
    public static let derivedNotMemoized = ConformanceFailure(
        "keep each derived value and evaluate it again only when an input changed, or declare memoizesDerived: false", contradicts: [.memoizesDerived])

    /// Rule 4, a store declared `coalesces: false`: K writes, K re-runs of a view reading the field.
    public static let coalescedUndeclared = ConformanceFailure(
        "re-run a view once per write it read, or declare coalesces: true", contradicts: [.coalesces])

    /// Rule 4, a store declared `coalesces: true`: K writes re-run a view at least once and at most
    /// K times.
    public static let coalescedReruns = ConformanceFailure(
        "re-run a view at least once and at most once per write, however writes are merged (coalesces: true allows fewer re-runs than writes, never none or more)",
        contradicts: [.coalesces])

    /// Rule 5, 5e: a transaction is one change to a view of a store declared transactional.
    public static let transactionNotOneRerun = ConformanceFailure(
        "notify once after applying every write of a transaction (or once per record it touched), or declare transactional: false", contradicts: [.transactional])

    /// Rules 5b and 5e: a view of a store declared transactional never sees a transaction half-applied.
    public static let tornTransaction = ConformanceFailure(
        "apply every write of a transaction before notifying any view, or declare transactional: false", contradicts: [.transactional])

    /// Rule 5f: commits from background tasks of a store declared transactional are atomic, to an
    /// untracked read on the main actor and to a view.
    public static let tornBackgroundCommit = ConformanceFailure(
        "make commitFromBackground atomic (every write of a commit applied under one exclusive section, none visible before all are), or declare transactional: false",
        contradicts: [.transactional])

    /// Rule 5c, transactional stores: one commit, one re-run of a view that read what it wrote.
    public static let commitNotOneRerun = ConformanceFailure(
        "re-run a view once per commit: notify after applying every write of the commit, or declare transactional: false", contradicts: [.transactional])

    /// Rule 5c, other stores: a commit applied write by write re-runs a view at least once and at
    /// most once per write.
    public static let commitRerunsOutOfRange = ConformanceFailure(
        "deliver the commit's writes to the view, once each at most (declaring transactional: true would ask for exactly one re-run)", contradicts: [.transactional])

    /// Rule 5c: `commitFromBackground` calls its `committed` hook once, while the commit is exclusive.
    public static let commitHook = ConformanceFailure(
        "call commitFromBackground's committed hook exactly once per commit, while the commit is still exclusive; no declaration changes this")

    /// Rule 5d: `readEach` hands every value in id order and subscribes nothing.
    public static let readEachOrder = ConformanceFailure(
        "hand readEach's values in id order, one per record, outside any tracking scope; no declaration changes this")

    /// Rule 6: an unsubscribed view never re-runs; teardown frees the store and its views.
    public static let teardownLeak = ConformanceFailure(
        "stop re-running a view once unsubscribed, and let tearDown() cancel every view and free the store (break reference cycles); no declaration changes this")

    /// Rules 5c, 5d and 7: an unknown record id throws `StrategyError.unknownRecord`.
    public static let badInput = ConformanceFailure(
        "throw StrategyError.unknownRecord for an id outside 1...N (emptyView for a view reading nothing), before changing anything; no declaration changes this")

    /// Rules 1 and 9: a view that re-ran after a write and shows the values from before it: the
    /// store ran its views before it stored the write.
    public static let notifiedBeforeStored = ConformanceFailure(
        "store the new value first, then notify: the view re-ran and read the value from before the write; no declaration changes this")

    /// Rule 9: after a write, a view shows something other than what the store holds for the
    /// fields it read, and did not re-run to show it.
    public static let viewMissedChange = ConformanceFailure(
        "re-run every view whose fields a write changed, reading what the store now holds; a deduplicating store compares every field the view read (of every record), not some of them; no declaration changes this"
    )

    /// Every rule: `settle()` returns only when nothing more is coming.
    public static let lateRerun = ConformanceFailure(
        "return from settle() only when every notification has been delivered and every view has re-run; no declaration changes this")
}

/// The failures of one kind a case saw many times (one per torn state of a loop), folded: each
/// distinct kind is recorded once, with the first instance and how many times it was seen, so a
/// store that lies about its transactions gets one line per lie, not one per round.
struct FoldedFailures {
    private var seen: [(kind: String, first: String, times: Int)] = []

    /// Whether nothing was added.
    var isEmpty: Bool { seen.isEmpty }

    /// Adds one instance of `kind` ("a view saw a half-applied commit"), `instance` saying what was seen.
    mutating func add(_ kind: String, _ instance: String) {
        if let index = seen.firstIndex(where: { $0.kind == kind }) {
            seen[index].times += 1
        } else {
            seen.append((kind, instance, 1))
        }
    }

    /// One failed expectation per kind added, of the failure among `failures` whose message is
    /// the kind.
    func record(failing failures: [ConformanceFailure], _ capabilities: Capabilities, sourceLocation: SourceLocation = #_sourceLocation) {
        for (kind, first, times) in seen {
            let failure = failures.first { $0.message == kind } ?? ConformanceFailure(kind)
            let detail = times == 1 ? first : "\(times) times; first: \(first)"
            #expect(times == 0, failure.comment(capabilities, detail), sourceLocation: sourceLocation)
        }
    }

    /// One failed expectation of `failure` per kind added: "… kind (N times; first: instance) …".
    func record(_ failure: ConformanceFailure, _ capabilities: Capabilities, sourceLocation: SourceLocation = #_sourceLocation) {
        for (kind, first, times) in seen {
            let detail = times == 1 ? "\(kind): \(first)" : "\(kind) (\(times) times; first: \(first))"
            #expect(times == 0, failure.comment(capabilities, detail), sourceLocation: sourceLocation)
        }
    }
}
