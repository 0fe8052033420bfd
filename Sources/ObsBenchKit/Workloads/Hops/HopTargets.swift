import Dispatch
import Synchronization

/// A value behind one kind of isolation, read with one round trip: what a caller pays to cross
/// into it and back. The hops suite measures every kind through this one small API.
public protocol HopStore: Sendable {
    func read() async -> Int
}

/// A default actor: runs on the cooperative pool.
public actor DefaultActorStore: HopStore {
    private var value = 1
    public init() {}
    public func read() -> Int { value }
}

/// The main actor: runs on the main thread, which the worker process drains.
@MainActor
public final class MainActorStore: HopStore {
    private var value = 1
    public init() {}
    public func read() -> Int { value }
}

/// An actor whose executor is a dedicated thread (`unownedExecutor`, SE-0392).
public actor DedicatedThreadActorStore: HopStore {
    private var value = 1
    private let executor: DedicatedThreadExecutor
    public init(executor: DedicatedThreadExecutor) { self.executor = executor }
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    public func read() -> Int { value }
}

/// A serial dispatch queue guarding the value, read with `sync` (how GCD-era stores read).
public final class DispatchQueueStore: HopStore, @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched on `queue`.
    private let queue = DispatchQueue(label: "obsbench.hops.store")
    private var value = 1
    public init() {}
    public func read() async -> Int { queue.sync { value } }
}

/// A `Mutex` (Synchronization) guarding the value: no hop at all, a lock.
public final class MutexStore: HopStore {
    private let value = Mutex(1)
    public init() {}
    public func read() async -> Int { value.withLock { $0 } }
}
