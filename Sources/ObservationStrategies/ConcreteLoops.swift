/// The same read and write the harness measures through `ObservationStrategy`, done on a
/// strategy's own record type in a tight loop: no protocol, no store, no field enum. The reference
/// a protocol-path figure is checked against: net of `plain`'s own pair, the two should agree, and
/// what they do not share is the harness's share of the figure.
///
/// Each strategy writes its loops out for its concrete record class. A loop generic over the
/// records' protocol was measured (Callgrind, per-function profile) to call the property's
/// protocol witness and a metadata accessor on every read: +22 Ir per `@Observable` read
/// (221.75 against 199.75 Ir/op), which made the yardstick dearer and the harness share
/// printed against it smaller than it is.
///
/// ```swift
/// let loops = ObservableStrategy.concreteLoops(records: TaskRecord.sample(count: 1_000))!
/// blackHole(loops.read(10_000))        // priority of records 1...N in turn, summed
/// loops.write(10_000, 1_000)           // priority of records 1...N in turn, values 1000, 1001…
/// ```
public struct ConcreteLoops {
    /// Reads `priority` of records 1...N in turn, `count` times; returns their sum.
    public var read: @MainActor (_ count: Int) -> Int
    /// Writes `priority` of records 1...N in turn, `count` times, the values `first`, `first + 1`…
    public var write: @MainActor (_ count: Int, _ first: Int) -> Void

    public init(read: @escaping @MainActor (Int) -> Int, write: @escaping @MainActor (Int, Int) -> Void) {
        self.read = read
        self.write = write
    }
}

extension ObservationStrategy {
    /// No concrete reference unless the strategy gives one.
    public static func concreteLoops(records: [TaskRecord]) -> ConcreteLoops? { nil }
    /// No ignored-field loops unless the strategy gives them.
    public static func ignoredFieldLoops(records: [TaskRecord]) -> ConcreteLoops? { nil }
}
