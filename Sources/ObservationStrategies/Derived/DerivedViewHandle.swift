import Synchronization

/// A subscribed view of derived values, on the harness's side: what it last showed and what it
/// cost in re-runs and evaluations. Strategies update it from wherever their delivery happens (the
/// main actor, a GRDB queue), so its state sits behind a lock; the harness reads it after
/// `settle()` and ``catchUp()``.
///
/// A strategy that derives natively calls ``recordRun(_:)`` from the view body with the values it
/// showed, and ``recordEvaluation(ofNode:)`` each time it evaluates a node. The default derivation
/// (``ObservationStrategy/subscribeDerived(_:style:)``) has the view read fields through an
/// ordinary ``ViewHandle`` and derives from them in ``catchUp()``.
public final class DerivedViewHandle: DerivedRenderable, Identifiable, CustomStringConvertible {
    public let spec: DerivedViewSpec
    /// The ordinary view the default derivation reads its fields through; nil for a native one.
    public let fieldView: ViewHandle?
    /// The store's render pass that ``invalidate()`` queues this view on (a native view); nil: the
    /// view is visited in every frame (``DerivedFrame``).
    public let renderPass: DerivedRenderPass?
    private let state: Locked<DerivedViewState>
    /// Evaluations of each node of the graph, by index: relaxed atomic counters beside the state,
    /// not under its lock, so that counting an evaluation costs one atomic add (the lock was about
    /// 90 instructions of every view re-run, bookkeeping no app does). Read into ``snapshot``.
    /// `nonisolated(unsafe)`: the pointer never changes after `init`, and every access to what it
    /// points to is atomic.
    nonisolated(unsafe) private let evaluationCounts: UnsafeMutablePointer<Atomic<Int>>
    private let nodeCount: Int
    /// Whether the view was cancelled, beside the state's flag: an evaluation after it is not counted.
    private let cancelled = Atomic<Bool>(false)
    /// Where each field sits in the field view's values.
    private let fieldIndex: [FieldRef: Int]
    /// The buffer ``recordRun(filling:)`` fills, swapped with the state's last output when
    /// recorded: a view re-run on the main actor allocates no output array (an app's view body
    /// allocates none either). `nonisolated(unsafe)` because only that `@MainActor` method touches
    /// it; unchecked exclusivity because it is never borrowed twice.
    @exclusivity(unchecked) nonisolated(unsafe) private var nextOutput: [DerivedValue] = []
    /// A native view's render pass (``setRender(_:)``). `nonisolated(unsafe)`: set and called on
    /// the main actor only (``setRender(_:)`` and ``render()`` are `@MainActor`), so that a render
    /// reads it without a lock or a copy out of one.
    /// Whether a native view was told something it reads changed since it last rendered: an
    /// atomic, set from any thread by ``invalidate()`` and taken by ``render()``, no lock either way.
    private let invalidation = Atomic<Bool>(false)
    @exclusivity(unchecked) nonisolated(unsafe) private var renderBody: (@MainActor @Sendable (DerivedViewHandle) -> Void)?

    /// What a derived view has done so far.
    public struct DerivedViewState: Sendable {
        /// Times the view body ran because of a change (its subscription's first run not included).
        public var reruns = 0
        /// Re-runs whose output equalled what the view showed before.
        public var avoidableReruns = 0
        /// Runs whose output was none of ``allowedOutputs`` (when the harness set them): values
        /// that no single state of the store produces.
        public var glitches = 0
        /// Evaluations of each node of the graph, by index, counted by the strategy (filled in by
        /// ``DerivedViewHandle/snapshot``).
        public var evaluations: [Int]
        /// What the view showed last, in the order of its spec (nodes, then fields).
        public var lastOutput: [DerivedValue] = []
        /// Whether the subscription's first run happened.
        public var hasRun = false
        public var isCancelled = false
        /// The error that ended the view's subscription, if the strategy reported one.
        public var failure: String?
        /// The outputs a run may show (the states before and after the write being checked); nil:
        /// not checked.
        public var allowedOutputs: [[DerivedValue]]?
        /// The field view's runs already folded in (the default derivation).
        var foldedRuns = 0

        init(nodes: Int) { evaluations = Array(repeating: 0, count: nodes) }

        /// Evaluations of every node together.
        public var totalEvaluations: Int { evaluations.reduce(0, +) }
    }

    /// A view derived natively by the strategy. With a `renderPass`, ``invalidate()`` queues the
    /// view there and a frame renders it only then; without one, every frame visits it.
    public convenience init(spec: DerivedViewSpec, renderPass: DerivedRenderPass? = nil) {
        self.init(spec: spec, fieldView: nil, renderPass: renderPass)
    }

    /// A view derived from the fields `fieldView` reads (its spec lists ``DerivedViewSpec/allFields``).
    public init(spec: DerivedViewSpec, fieldView: ViewHandle?, renderPass: DerivedRenderPass? = nil) {
        self.spec = spec
        self.fieldView = fieldView
        self.renderPass = renderPass
        fieldIndex = Dictionary((fieldView?.spec.reads ?? []).enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
        state = Locked(DerivedViewState(nodes: spec.graph.nodes.count))
        nodeCount = spec.graph.nodes.count
        evaluationCounts = .allocate(capacity: nodeCount)
        for index in 0..<nodeCount { (evaluationCounts + index).initialize(to: Atomic(0)) }
    }

    deinit {
        evaluationCounts.deinitialize(count: nodeCount)
        evaluationCounts.deallocate()
    }

    /// A copy of the view's state, with its evaluation counts. Consistent once the store settled
    /// (as the harness reads it): the counts are read beside the state's lock, not under it.
    public var snapshot: DerivedViewState {
        var copy = state.withLock { $0 }
        for index in 0..<nodeCount { copy.evaluations[index] = evaluationCounts[index].load(ordering: .relaxed) }
        return copy
    }
    public var lastOutput: [DerivedValue] { state.withLock { $0.lastOutput } }
    public var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Records one run of the view body, which showed `output`. Returns false (and records
    /// nothing) once the view is cancelled.
    @discardableResult
    public func recordRun(_ output: [DerivedValue]) -> Bool {
        state.withLock { state in
            guard !state.isCancelled else { return false }
            state.record(output, runs: 1)
            return true
        }
    }

    /// Records one run of the view body on the main actor, its output appended by `fill` to an
    /// empty buffer the view keeps (no allocation once the view has run). Returns false (and
    /// records nothing) once the view is cancelled.
    @MainActor
    @discardableResult
    public func recordRun(filling fill: (inout [DerivedValue]) -> Void) -> Bool {
        // Emptied element by element: `removeAll(keepingCapacity:)` costs more than a short output.
        while !nextOutput.isEmpty { nextOutput.removeLast() }
        fill(&nextOutput)
        return state.withLock { state in
            guard !state.isCancelled else { return false }
            state.record(swapping: &nextOutput, runs: 1)
            return true
        }
    }

    /// Records one evaluation of each node of `indices` (from any thread; no lock).
    public func recordEvaluations(ofNodes indices: [Int]) {
        recordEvaluations(ofNodes: indices, times: 1)
    }

    private func recordEvaluations(ofNodes indices: [Int], times: Int) {
        guard !cancelled.load(ordering: .relaxed) else { return }
        for index in indices where index >= 0 && index < nodeCount { evaluationCounts[index].wrappingAdd(times, ordering: .relaxed) }
    }

    /// Records one evaluation of node `index` of the graph (from any thread; no lock).
    public func recordEvaluation(ofNode index: Int) {
        guard !cancelled.load(ordering: .relaxed), index >= 0, index < nodeCount else { return }
        evaluationCounts[index].wrappingAdd(1, ordering: .relaxed)
    }

    /// Records the error that ended this view's subscription.
    public func recordFailure(_ message: String) {
        state.withLock { state in
            state.failure = message
            state.isCancelled = true
        }
        cancelled.store(true, ordering: .relaxed)
    }

    /// Marks the view cancelled: later runs are ignored, and its render pass is never called again
    /// (a strategy whose render closure holds the store drops it with `setRender(nil)`).
    public func cancel() {
        state.withLock { $0.isCancelled = true }
        cancelled.store(true, ordering: .relaxed)
    }

    /// Sets a native view's render pass: what ``render()`` calls (on the main actor, after the
    /// store settled) when something the view read changed since it last rendered, as SwiftUI
    /// re-renders invalidated views once per frame. It re-runs the view body. nil drops it.
    @MainActor
    public func setRender(_ render: (@MainActor @Sendable (DerivedViewHandle) -> Void)?) {
        renderBody = render
    }

    /// Records that something the view read changed (from any thread): its next render pass re-runs
    /// it. The first invalidation since the view last rendered queues it on its ``renderPass``.
    public func invalidate() {
        guard !invalidation.exchange(true, ordering: .acquiringAndReleasing) else { return }
        renderPass?.enqueue(self)
    }

    /// Whether a frame must visit this view: it has no render pass, and either derives from a field
    /// view (the default derivation) or has a render closure. A native view whose strategy
    /// delivers its runs (a sink, a `ValueObservation`) and renders nothing is not visited.
    @MainActor
    public var isVisitedEachFrame: Bool {
        renderPass == nil && (fieldView != nil || renderBody != nil)
    }

    /// Runs the view's render pass closure (``setRender(_:)``) if the view was invalidated since it
    /// last rendered, clearing the invalidation: what a ``DerivedRenderPass``
    /// calls.
    @MainActor
    public func render() {
        guard let renderBody, invalidation.exchange(false, ordering: .acquiringAndReleasing) else { return }
        // A cancelled view's run is not recorded (``recordRun(filling:)``); its strategy drops the
        // closure when it unsubscribes.
        renderBody(self)
    }

    /// From now on, counts as a glitch any run whose output is none of `outputs` (nil: stop checking).
    public func allowOutputs(_ outputs: [[DerivedValue]]?) {
        state.withLock { $0.allowedOutputs = outputs }
    }

    /// The default derivation's view body: derives the view's output from the fields its field view
    /// read in the runs made since the last call, evaluating every node the view reads once per
    /// run, and records them. Each of those runs is judged by the output of the last (the field
    /// view keeps no history): when a write re-ran the view twice before this call, both show the
    /// same state, and the second is counted avoidable. For a native view, its render pass
    /// (``setRender(_:)``), if it has one. The harness
    /// calls it after every `settle()`, inside the measured loop: the derivation is part of the cost.
    @MainActor
    public func catchUp() {
        guard let fieldView else {
            if let renderPass { renderPass.run() } else { render() }
            return
        }
        // A visit to a view whose field view neither ran nor failed since the last costs two looks
        // under two locks, no copy of either state.
        if let runs = fieldView.runsUnlessFailed, runs > 0, state.withLock({ runs == $0.foldedRuns }) { return }
        let seen = fieldView.snapshot
        if let failure = seen.failure {
            recordFailure(failure)
            return
        }
        guard seen.hasRun else { return }
        let runs = seen.reruns + 1
        let pending = state.withLock { runs - $0.foldedRuns }
        guard pending > 0 else { return }
        let roots = spec.nodes
        let graph = spec.graph
        let closure = spec.closure
        var output: [DerivedValue] = []
        for _ in 0..<pending {
            var reader = FieldsReader(values: seen.lastSeen, index: fieldIndex)
            for node in closure { reader.nodes[node] = graph.nodes[node].evaluate(reader) }
            output = roots.map { reader.nodes[$0] ?? .ids([]) } + spec.fields.map { .field(reader.field($0)) }
        }
        recordEvaluations(ofNodes: closure, times: pending)
        state.withLock { state in
            guard !state.isCancelled else { return }
            state.foldedRuns = runs
            state.record(output, runs: pending)
        }
    }

    public var description: String {
        "derived view(nodes \(spec.nodes.map { spec.graph.nodes[$0].name }.joined(separator: ", "))"
            + (spec.fields.isEmpty ? "" : "; fields \(spec.fields.map(\.description).joined(separator: ", "))") + ")"
    }
}

extension DerivedViewHandle.DerivedViewState {
    /// Records `runs` runs that all showed `output` (the first one may be the subscription's).
    fileprivate mutating func record(_ output: [DerivedValue], runs: Int) {
        var shown = output
        record(swapping: &shown, runs: runs)
    }

    /// ``record(_:runs:)``, keeping `output`'s buffer as the last output and handing the previous
    /// one back in `output` (to be refilled): no array is allocated or freed.
    fileprivate mutating func record(swapping output: inout [DerivedValue], runs: Int) {
        var remaining = runs
        if !hasRun {
            hasRun = true
            remaining -= 1
        } else if remaining > 0 {
            reruns += 1
            if output == lastOutput { avoidableReruns += 1 }
            remaining -= 1
        }
        // Further runs showed the same output again.
        reruns += remaining
        avoidableReruns += remaining
        if let allowedOutputs, runs > 0, !allowedOutputs.contains(output) { glitches += 1 }
        swap(&lastOutput, &output)
    }
}

/// Reads fields from the values one run of a field view saw, and nodes already evaluated.
private struct FieldsReader: DerivedReader {
    let values: [FieldValue]
    let index: [FieldRef: Int]
    var nodes: [Int: DerivedValue] = [:]

    func field(_ ref: FieldRef) -> FieldValue {
        guard let position = index[ref], values.indices.contains(position) else {
            preconditionFailure("a derived node read \(ref), which it does not list in its reads")
        }
        return values[position]
    }

    func node(_ index: Int) -> DerivedValue {
        guard let value = nodes[index] else { preconditionFailure("a derived node read node \(index), which it does not list as an input") }
        return value
    }
}
