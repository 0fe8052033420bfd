/// The views reading each field, so a write finds exactly the views it concerns: work in
/// proportion to those views, never to every view in the store (GRDB and `observations` use it to
/// know what `settle()` must wait for).
///
/// ```swift
/// readers.add(view)                                        // on subscribe
/// for view in readers.views(reading: FieldRef(3, .title)) { pending.add(view) }
/// readers.remove(view)                                     // on unsubscribe
/// ```
@MainActor
package struct ReadersIndex {
    package init() {}

    private var byField: [FieldRef: [ObjectIdentifier: ViewHandle]] = [:]

    /// Whether no view is indexed.
    package var isEmpty: Bool { byField.isEmpty }

    /// Indexes `view` under every field its spec reads.
    package mutating func add(_ view: ViewHandle) {
        for ref in Set(view.spec.reads) { byField[ref, default: [:]][ObjectIdentifier(view)] = view }
    }

    /// Removes `view` from every field it was indexed under.
    package mutating func remove(_ view: ViewHandle) {
        for ref in Set(view.spec.reads) {
            byField[ref]?[ObjectIdentifier(view)] = nil
            if byField[ref]?.isEmpty == true { byField[ref] = nil }
        }
    }

    /// The views reading `ref`.
    package func views(reading ref: FieldRef) -> Dictionary<ObjectIdentifier, ViewHandle>.Values {
        (byField[ref] ?? [:]).values
    }

    package mutating func removeAll() {
        byField.removeAll()
    }
}
