import Dispatch

#if canImport(Combine)
    import Combine
#else
    import OpenCombine
    import OpenCombineDispatch
#endif

/// The wrapper `ObservableObject` of the design notes' "attempted fix #2": it listens to the real
/// objects' `objectWillChange`, waits a moment on the main queue for the change to land (`delay`),
/// takes a snapshot of the slice its view reads (the fields it reads, or the values it derives),
/// drops unchanged snapshots (`removeDuplicates()`), and only then sends its own `objectWillChange`.
///
/// ```swift
/// let wrapper = DeduplicatedObject(willChange: merged, snapshot: { [task.value(of: .priority)] }, received: { … })
/// ```
final class DeduplicatedObject<Snapshot: Equatable>: ForwardingWrapper, ObservableObject {
    let objectWillChange = ObservableObjectPublisher()

    /// - Parameters:
    ///   - willChange: the real objects' `objectWillChange`, merged.
    ///   - snapshot: the view's slice, read when a delayed notification arrives.
    ///   - received: called for every delayed notification, duplicate or not, before deduplication.
    init(willChange: AnyPublisher<Void, Never>, snapshot: @escaping () -> Snapshot, received: @escaping () -> Void) {
        super.init()
        cancellable =
            willChange
            .delay(for: .nanoseconds(1), scheduler: Self.mainScheduler)
            .map { _ -> Snapshot in
                received()
                return snapshot()
            }
            .prepend(snapshot())
            .removeDuplicates()
            .dropFirst()
            .sink { [weak self] _ in self?.objectWillChange.send() }
    }

    #if canImport(Combine)
        static var mainScheduler: DispatchQueue { .main }
    #else
        static var mainScheduler: DispatchQueue.OCombine { DispatchQueue.main.ocombine }
    #endif
}

/// What every ``DeduplicatedObject`` is, whatever its snapshot: a forwarding that can be stopped.
/// Not generic, so that a store keeps its wrappers in one table, each by a reference alone.
class ForwardingWrapper {
    var cancellable: AnyCancellable?

    /// Stops forwarding.
    func cancel() {
        cancellable?.cancel()
        cancellable = nil
    }
}
