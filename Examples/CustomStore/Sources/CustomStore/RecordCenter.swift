/// NotificationCenter-style callbacks, one list per record: `observe(record:)` returns a token,
/// `post(record:)` calls every callback registered for that record, in registration order, on the
/// caller's thread, before it returns.
@MainActor
final class RecordCenter {
    /// Hands out observation tokens.
    struct Token: Hashable {
        fileprivate let record: Int
        fileprivate let serial: Int
    }

    private var callbacks: [Int: [(serial: Int, callback: () -> Void)]] = [:]
    private var nextSerial = 0

    /// Calls `callback` on every later `post(record:)` for `record`, until `remove(_:)`.
    func observe(record: Int, _ callback: @escaping () -> Void) -> Token {
        nextSerial += 1
        callbacks[record, default: []].append((nextSerial, callback))
        return Token(record: record, serial: nextSerial)
    }

    /// Stops a callback; removing twice is harmless.
    func remove(_ token: Token) {
        callbacks[token.record]?.removeAll { $0.serial == token.serial }
        if callbacks[token.record]?.isEmpty == true { callbacks[token.record] = nil }
    }

    /// Calls the callbacks of `record`. A callback registered or removed meanwhile takes effect
    /// from the next post.
    func post(record: Int) {
        guard let observers = callbacks[record] else { return }
        for observer in observers { observer.callback() }
    }

    func removeAll() {
        callbacks.removeAll()
    }
}
