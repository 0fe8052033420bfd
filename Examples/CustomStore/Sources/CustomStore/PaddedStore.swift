import ObservationStrategies

/// A fixture, not an example: `DictionaryStore` plus one object of a known size per record
/// (``Padding``, 256 bytes, a jemalloc size class of its own), allocated in `init`.
///
/// `.ci/run` measures it with the memory suite and checks that its heap profile
/// (`obsbench profile --memory`) names `PaddedStore.init` as the largest site of its bytes per
/// object, with 256 B and one allocation per record: the profile finds an allocation whose size
/// and place are known in advance.
@MainActor
public final class PaddedStore: ObservationStrategy {
    nonisolated public static let descriptor = StrategyDescriptor(
        name: "padded-dictionary",
        summary: "dictionary-callbacks plus one 256-byte object per record (a fixture: the heap profile must name it)",
        dependency: "none (Examples/CustomStore)",
        capabilities: DictionaryStore.descriptor.capabilities
    )

    /// 16 bytes of object header and 240 of stored properties: 256 bytes, one size class.
    final class Padding {
        var words: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int)
        init(_ seed: Int) {
            words = (seed, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        }
    }

    /// The padding's size, as the fixture's check expects it.
    nonisolated public static let paddingBytes = 256

    private let store: DictionaryStore
    private let padding: [Padding]

    public init(records: [TaskRecord]) throws {
        store = try DictionaryStore(records: records)
        padding = records.map { Padding($0.id) }
    }

    public func read(_ field: TaskField, of id: Int) throws -> FieldValue { try store.read(field, of: id) }
    public func readInsideView(_ field: TaskField, of id: Int, times: Int) throws -> FieldValue { try store.readInsideView(field, of: id, times: times) }
    public func write(_ value: FieldValue, to id: Int) throws { try store.write(value, to: id) }
    public func transaction(_ writes: [FieldWrite]) throws { try store.transaction(writes) }
    public func subscribe(_ spec: ViewSpec) throws -> ViewHandle { try store.subscribe(spec) }
    public func unsubscribe(_ view: ViewHandle) { store.unsubscribe(view) }
    public func settle() async { await store.settle() }
    public func tearDown() async { await store.tearDown() }
    public func objectsThatMustBeFreed() -> [AnyObject] { store.objectsThatMustBeFreed() + padding }
}
