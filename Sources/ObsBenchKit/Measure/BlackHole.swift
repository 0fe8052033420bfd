import CSink

/// Consumes a value so the optimiser cannot delete the work that produced it, nor the empty loop
/// the sampler subtracts: the value is passed by address to a C function the Swift optimiser
/// cannot see into (`obsbench_sink`). It costs a store and a call, the same in the measured loop
/// and in its empty twin.
@inline(__always)
public func blackHole<T>(_ value: T) {
    withUnsafePointer(to: value) { obsbench_sink($0) }
}
