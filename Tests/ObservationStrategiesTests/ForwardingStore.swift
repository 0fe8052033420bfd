import ObservationStrategies

/// A test fixture that is a built-in strategy under another description: every operation it does
/// not implement itself goes to `inner`. A fixture declares what it claims (its `descriptor`) and
/// overrides only what it changes:
///
/// ```swift
/// final class LateStore: ForwardingStore {
///     nonisolated static let descriptor = ...   // observations, claiming synchronous delivery
///     let inner: ObservationsStrategy
///     init(records: [TaskRecord]) throws { inner = try ObservationsStrategy(records: records) }
/// }
/// ```
@MainActor
protocol ForwardingStore: ObservationStrategy {
    associatedtype Inner: ObservationStrategy
    var inner: Inner { get }
}

extension ForwardingStore {
    func read(_ field: TaskField, of id: Int) throws -> FieldValue { try inner.read(field, of: id) }
    func readInsideView(_ field: TaskField, of id: Int, times: Int) throws -> FieldValue { try inner.readInsideView(field, of: id, times: times) }
    func write(_ value: FieldValue, to id: Int) throws { try inner.write(value, to: id) }
    func transaction(_ writes: [FieldWrite]) throws { try inner.transaction(writes) }
    func subscribe(_ spec: ViewSpec) throws -> ViewHandle { try inner.subscribe(spec) }
    func unsubscribe(_ view: ViewHandle) { inner.unsubscribe(view) }
    func settle() async { await inner.settle() }
    func tearDown() async { await inner.tearDown() }
    func objectsThatMustBeFreed() -> [AnyObject] { inner.objectsThatMustBeFreed() }
}
