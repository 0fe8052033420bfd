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
/// Each message says what the declared capabilities promise and what to change: the store, or
/// what it declares.
public struct ConformanceFailure: Sendable, Hashable, CustomStringConvertible {
    /// The text every issue of this failure contains.
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }

    /// The comment for an `#expect` of this failure, with `detail` (what was seen) after the message.
    public func comment(_ detail: String = "") -> Comment {
        Comment(rawValue: detail.isEmpty ? message : "\(message) [\(detail)]")
    }

    /// Whether `issue` is this failure: a failed expectation whose comment carries `message`.
    /// A thrown error, a `#require` that stopped a case (as a `settle()` timeout does), or
    /// another rule's failure is not.
    public func matches(_ issue: Issue) -> Bool {
        guard case .expectationFailed = issue.kind else { return false }
        return issue.comments.contains { $0.rawValue.contains(message) }
    }

    /// Rules 1 to 3: a view re-runs as often as the declared granularity (and deduplication) says
    /// after one write, and shows the values it read.
    public static let wrongReruns = ConformanceFailure(
        "a view re-runs after a write as the declared granularity says and shows what it read: notify the views the write concerns, or declare the granularity the store has")

    /// Rule 1b: a store declared `delivery: .synchronous` has re-run its views when `write` or
    /// `transaction` returns.
    public static let deliveredAfterReturn = ConformanceFailure(
        "a store declared delivery: .synchronous re-runs its views before write and transaction return: re-run them there, or declare delivery: .asynchronous")

    /// Rules 5b and 5e: a view of a store declared transactional never sees a transaction half-applied.
    public static let tornTransaction = ConformanceFailure(
        "a view of a transactional store never sees a transaction half-applied: apply every write before notifying, or declare transactional: false")

    /// Rule 5c, transactional stores: one commit, one re-run of a view that read what it wrote.
    public static let commitNotOneRerun = ConformanceFailure(
        "a transactional store re-runs a view once per commit: notify after applying every write of the commit, or declare transactional: false")

    /// Rule 5c, other stores: a commit applied write by write re-runs a view at least once and at
    /// most once per write.
    public static let commitRerunsOutOfRange = ConformanceFailure(
        "a commit re-runs a view that read what it wrote at least once and at most once per write: deliver the commit's writes to the view, once each at most")
}
