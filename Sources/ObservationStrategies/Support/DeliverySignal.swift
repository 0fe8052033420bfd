import Dispatch

/// Wakes `settle()` when an asynchronous strategy delivers something, so settling waits on real
/// deliveries instead of sleeping or spinning.
///
/// Usage: read `generation`, check the settled condition, and if it does not hold yet,
/// `await wait(after:)` that generation; any `signal()` since the read returns at once.
package final class DeliverySignal: Sendable {
    package init() {}

    private struct State {
        var generation = 0
        /// Bumped by the timeout's timer: wakes waiters without counting as a delivery.
        var wakeups = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    package var generation: Int { state.withLock { $0.generation } }

    /// Called after every delivery.
    package func signal() {
        resumeWaiters { $0.generation &+= 1 }
    }

    /// Applies `count` to the state and resumes every waiter, under one lock.
    private func resumeWaiters(counting count: (inout State) -> Void) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            count(&state)
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once a `signal()` has happened after `generation` was read (or, when `wakeups` is
    /// given, a timer wake-up after that count was read).
    package func wait(after generation: Int, wakeups: Int? = nil) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let alreadySignalled = state.withLock { state -> Bool in
                if state.generation != generation { return true }
                if let wakeups, state.wakeups != wakeups { return true }
                state.waiters.append(continuation)
                return false
            }
            if alreadySignalled { continuation.resume() }
        }
    }

    /// Waits until `isSettled` holds, re-checking after each delivery.
    @MainActor
    package func waitUntil(_ isSettled: @MainActor () -> Bool) async {
        while true {
            let seen = generation
            if isSettled() { return }
            await wait(after: seen)
        }
    }

    /// Waits until `isSettled` holds, or until `timeoutSeconds` pass with no delivery at all;
    /// returns whether it holds. (Starting 10,000 observations can take longer than the timeout;
    /// it is a lost delivery, not slow progress, that must end the wait.)
    ///
    /// The timeout is a timer armed only when there is something to wait for and cancelled on
    /// return: a fire-and-forget `asyncAfter` per call would keep ~400 bytes alive for the whole
    /// timeout after every settle (the memory suite saw it as memory growing with each write).
    @MainActor
    package func waitUntil(timeoutSeconds: Double, _ isSettled: @MainActor () -> Bool) async -> Bool {
        if isSettled() { return true }
        var deadline = DispatchTime.now() + timeoutSeconds
        let timer = makeTimeout(at: deadline)
        defer { timer.cancel() }
        while true {
            // Both counters are read before the checks, so a delivery or the timer firing between
            // the checks and the wait still ends the wait (no lost wake-up).
            let (seen, woken) = state.withLock { ($0.generation, $0.wakeups) }
            if isSettled() { return true }
            if DispatchTime.now() >= deadline { return false }
            await wait(after: seen, wakeups: woken)
            if generation != seen {
                deadline = DispatchTime.now() + timeoutSeconds
                timer.schedule(deadline: deadline)
            }
        }
    }

    /// Wakes the waiters without counting a delivery (the timeout's timer).
    private func wake() {
        resumeWaiters { $0.wakeups &+= 1 }
    }

    /// A running timer that wakes the waiters at `deadline`. Nonisolated, so its handler is not a main-actor
    /// closure (it runs on a global queue, where the runtime's isolation check would trap).
    private nonisolated func makeTimeout(at deadline: DispatchTime) -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: deadline)
        timer.setEventHandler { [self] in wake() }
        timer.resume()
        return timer
    }
}
