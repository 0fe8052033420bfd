import Dispatch
import Synchronization

/// Wakes `settle()` when an asynchronous strategy delivers something, so settling waits on real
/// deliveries instead of sleeping or spinning.
///
/// Usage: read `generation`, check the settled condition, and if it does not hold yet,
/// `await wait(after:)` that generation; any `signal()` since the read returns at once.
final class DeliverySignal: Sendable {
    private struct State {
        var generation = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    var generation: Int { state.withLock { $0.generation } }

    /// Called after every delivery.
    func signal() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.generation &+= 1
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once a `signal()` has happened after `generation` was read.
    func wait(after generation: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let alreadySignalled = state.withLock { state -> Bool in
                if state.generation != generation { return true }
                state.waiters.append(continuation)
                return false
            }
            if alreadySignalled { continuation.resume() }
        }
    }

    /// Waits until `isSettled` holds, re-checking after each delivery.
    @MainActor
    func waitUntil(_ isSettled: @MainActor () -> Bool) async {
        while true {
            let seen = generation
            if isSettled() { return }
            await wait(after: seen)
        }
    }

    /// Waits until `isSettled` holds or `timeoutSeconds` pass; returns whether it holds.
    @MainActor
    func waitUntil(timeoutSeconds: Double, _ isSettled: @MainActor () -> Bool) async -> Bool {
        let deadline = DispatchTime.now() + timeoutSeconds
        DispatchQueue.global().asyncAfter(deadline: deadline) { [self] in signal() }
        while true {
            let seen = generation
            if isSettled() { return true }
            if DispatchTime.now() >= deadline { return false }
            await wait(after: seen)
        }
    }
}
