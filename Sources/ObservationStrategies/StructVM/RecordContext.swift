/// The `struct-vm` store: records are plain structs in an identity map by id; view models are
/// made on demand and cached weakly, so records nobody displays cost no observation machinery.
/// Every write goes through the context, which updates the struct and pushes the value into the
/// record's view model if one is alive.
@MainActor
final class RecordContext {
    private(set) var records: [TaskRecord]
    private var viewModels: [Int: WeakViewModel] = [:]

    /// A weak reference: the cache never keeps a view model alive.
    struct WeakViewModel {
        weak var object: TaskViewModel?
    }

    init(records: [TaskRecord]) {
        self.records = records
    }

    /// The live view model of record `id`, made now if none is alive. The caller keeps it alive.
    func viewModel(for index: Int) -> TaskViewModel {
        let id = records[index].id
        if let existing = viewModels[id]?.object { return existing }
        let made = TaskViewModel(records[index])
        viewModels[id] = WeakViewModel(object: made)
        return made
    }

    /// Updates the struct, then the live view model if there is one (dropping a dead cache entry).
    func apply(_ value: FieldValue, at index: Int) {
        records[index].apply(value)
        let id = records[index].id
        guard let entry = viewModels[id] else { return }
        if let viewModel = entry.object {
            viewModel.apply(value)
        } else {
            viewModels[id] = nil
        }
    }

    func removeAll() {
        records.removeAll()
        viewModels.removeAll()
    }
}
