import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value behind a lock, for state that threads share (views updated from GRDB's queue, waiter
/// lists, worker bookkeeping). A `Synchronization.Mutex`, stored inline like one (no allocation of
/// its own: views and stores cost what they did), that ThreadSanitizer can see.
///
/// On Linux, `Mutex` takes a contended lock with a `FUTEX_LOCK_PI` system call made from an
/// uninstrumented C shim, so ThreadSanitizer never sees the hand-over and reports every access
/// under a contended `Mutex` as a data race. Under TSan (and only then) `withLock` also tells it
/// that this lock was acquired and released, with `__tsan_acquire`/`__tsan_release` on the lock's
/// address (stable: it lives inside the object that owns it). In a normal build those symbols do
/// not exist, and each `withLock` costs a `Mutex`'s plus one check of an already-resolved global.
public struct Locked<Value>: ~Copyable, Sendable {
    private let mutex: Mutex<Value>

    public init(_ value: sending Value) {
        mutex = Mutex(value)
    }

    public borrowing func withLock<Result, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
        guard let hooks = ThreadSanitizerHooks.loaded else { return try mutex.withLock(body) }
        // The lock's own address as a number (a Mutex is address-only, so a borrow is the stored
        // value itself, which never moves): TSan's identity for this lock, never dereferenced.
        let identity = withUnsafePointer(to: self) { UInt(bitPattern: $0) }
        let address = UnsafeMutableRawPointer(bitPattern: identity)
        return try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            hooks.acquire(address)
            defer { hooks.release(address) }
            return try body(&value)
        }
    }
}

/// ThreadSanitizer's annotation entry points, found at run time: present only in a process built
/// with `-sanitize=thread`.
public struct ThreadSanitizerHooks: Sendable {
    typealias Annotation = @convention(c) (UnsafeMutableRawPointer?) -> Void
    let acquire: Annotation
    let release: Annotation

    /// The hooks when this process runs under ThreadSanitizer, else nil.
    static let loaded: ThreadSanitizerHooks? = {
        guard let handle = dlopen(nil, RTLD_NOW),
            let acquire = dlsym(handle, "__tsan_acquire"),
            let release = dlsym(handle, "__tsan_release")
        else { return nil }
        return ThreadSanitizerHooks(
            acquire: unsafeBitCast(acquire, to: Annotation.self),
            release: unsafeBitCast(release, to: Annotation.self))
    }()

    /// Whether this process runs under ThreadSanitizer (tests that replace the allocator skip then).
    public static var isActive: Bool { loaded != nil }
}
