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
struct ReadersIndex {
    private var byField: [FieldRef: [ObjectIdentifier: ViewHandle]] = [:]

    /// Whether no view is indexed.
    var isEmpty: Bool { byField.isEmpty }

    /// Indexes `view` under every field its spec reads.
    mutating func add(_ view: ViewHandle) {
        for ref in Set(view.spec.reads) { byField[ref, default: [:]][ObjectIdentifier(view)] = view }
    }

    /// Removes `view` from every field it was indexed under.
    mutating func remove(_ view: ViewHandle) {
        for ref in Set(view.spec.reads) {
            byField[ref]?[ObjectIdentifier(view)] = nil
            if byField[ref]?.isEmpty == true { byField[ref] = nil }
        }
    }

    /// The views reading `ref`.
    func views(reading ref: FieldRef) -> Dictionary<ObjectIdentifier, ViewHandle>.Values {
        (byField[ref] ?? [:]).values
    }

    mutating func removeAll() {
        byField.removeAll()
    }
}
