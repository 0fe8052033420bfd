import ObservationStrategies

/// Runs one ``DerivedScenario`` against one strategy in one derivation style: subscribes the views,
/// checks their outputs, counts re-runs, avoidable re-runs, evaluations and glitches over a few
/// writes, then measures the time (or instructions) per write until quiescence, and checks the
/// outputs again. A wrong output anywhere throws: the row becomes an error row, never a number.
@MainActor
struct DerivedMeasurement {
    let scenario: DerivedScenario
    let style: DerivationStyle
    /// The name of the rows: the workload's, with `+<style>` for any but the strategy's usual style.
    let rowName: String
    let context: WorkloadContext

    /// Writes whose re-runs, evaluations and glitches are counted, outside the measured loop (even,
    /// so the store ends where it began).
    static let countedWrites = 4

    /// `--quick`'s sampler for this suite: fewer samples than the latency suite's, since a write
    /// here can take a millisecond or more (GRDB with 1,000 views): the suite's quick run must
    /// stay within a minute for every strategy.
    static let quickSampler = SamplerSettings(
        warmUpNanoseconds: 10_000_000, targetSampleNanoseconds: 250_000, minimumSamples: 5, maximumSamples: 200, budgetNanoseconds: 50_000_000)

    /// The sampler of a run that is not `--quick`: the run's (shared by its rounds), with 30% of
    /// its budget, a quarter of its warm-up and at least 10 samples rather than 30, shared by the
    /// rounds too (at least ``minimumSamplesPerRound`` a round). A derived write takes 5 µs to a
    /// fifth of a second, and the suite runs 13 to 26 rows a strategy: on the standard sampler the
    /// suite took about 130 s of a full run's 509 s here, GRDB's two strategies about half. A
    /// `--quick` run's is ``quickSampler``, shared by the rounds the same way.
    static func sampler(for context: WorkloadContext) -> SamplerSettings {
        let rounds = context.sampler.rounds
        var settings = context.quick ? quickSampler.shared(by: rounds) : context.sampler
        if !context.quick {
            settings.budgetNanoseconds = settings.budgetNanoseconds * 3 / 10
            settings.warmUpNanoseconds /= 4
        }
        settings.minimumSamples = max(minimumSamplesPerRound, min(settings.minimumSamples, context.quick ? quickSampler.minimumSamples : 10) / rounds)
        return settings
    }

    /// Samples each worker round takes at least of a derived row: its median is that process's
    /// figure, and the rounds' figures are what comparisons are judged on.
    static let minimumSamplesPerRound = 3

    func run() async throws -> WorkloadOutput {
        let store = try context.makeStore()
        do {
            let output = try await measure(store)
            await store.tearDown()
            return output
        } catch {
            await store.tearDown()
            throw error
        }
    }

    private func measure(_ store: any ObservationStrategy) async throws -> WorkloadOutput {
        for write in scenario.setup { try store.write(write.value, to: write.id) }
        await store.settle()
        let views = try scenario.views.map { try store.subscribeDerived($0, style: style) }
        let frame = DerivedFrame(views)
        await Self.settle(store, frame)
        for write in scenario.prelude {
            try store.write(write.value, to: write.id)
            await Self.settle(store, frame)
        }
        let fields = Self.fields(of: scenario.views)
        try check(views, store: store, fields: fields, when: "after subscribing")

        // Counted, untimed: each write's re-runs, and whether a run showed a state that never was.
        let before = views.map(\.snapshot)
        var k = 0
        var values = try Self.read(fields, from: store)
        for _ in 0..<Self.countedWrites {
            let write = scenario.write(k)
            k += 1
            var after = values
            after[FieldRef(write.id, write.value.field)] = write.value
            for (view, spec) in zip(views, scenario.views) {
                view.allowOutputs([Self.expected(spec, values), Self.expected(spec, after)])
            }
            try store.write(write.value, to: write.id)
            await Self.settle(store, frame)
            for view in views { view.allowOutputs(nil) }
            values = after
            try check(views, store: store, fields: fields, when: "after counted write \(k) (\(write.id).\(write.value))")
        }
        let counted = zip(before, views.map(\.snapshot)).reduce(into: (reruns: 0, avoidable: 0, evaluations: 0, glitches: 0)) { sum, pair in
            sum.reruns += pair.1.reruns - pair.0.reruns
            sum.avoidable += pair.1.avoidableReruns - pair.0.avoidableReruns
            sum.evaluations += pair.1.totalEvaluations - pair.0.totalEvaluations
            sum.glitches += pair.1.glitches - pair.0.glitches
        }

        // Timed (or counted under Callgrind): one write, then settle and a frame (the views
        // invalidated re-run; those without a render pass are visited). A store that declares
        // synchronous delivery has re-run its views inside the write (the conformance kit's rule
        // 1b holds it to that, and the check after the loop to its outputs): no app awaits it, so
        // the loop does not either (a call to `settle()` cost about 350 Ir, a tenth of a write
        // that re-runs nothing). Counted, an operation is a write there and back (``CountedWrites``).
        let scenario = self.scenario
        let settles = type(of: store).descriptor.capabilities.delivery != .synchronous
        let counting = CountedWrites(context)
        let writesPerOperation = counting.writesPerOperation
        let measured = try await counting.context.measureCost(
            { iterations in
                for _ in 0..<iterations * writesPerOperation {
                    let write = scenario.write(k)
                    k &+= 1
                    try store.write(write.value, to: write.id)
                    if settles { await store.settle() }
                    frame.render()
                }
            },
            emptyBatch: { iterations in
                for _ in 0..<iterations * writesPerOperation {
                    blackHole(scenario.write(k))
                    k &+= 1
                }
            }, sampler: Self.sampler(for: context), label: rowName, maximumDivisor: CountedWrites.maximumDivisor,
            repeatsWhenShortest: CountedWrites.repeatsWhenShortest
        ).perWrite(writesPerOperation: writesPerOperation)
        try check(views, store: store, fields: fields, when: "after the measured writes")
        for view in views { store.unsubscribeDerived(view) }

        var output = context.latencyOutput(
            workload: rowName, subscribers: views.count, measured: measured,
            note:
                "\(scenario.note); \(style.rawValue) derivation; \(settles ? "settle() and a frame" : "a frame (synchronous delivery: no settle())") after each write: \(Self.frameNote(frame, views: views.count)); outputs checked against a from-scratch computation\(counting.note)"
        )
        // Counted once, by the timing worker: an instruction run would write the same rows again.
        guard context.measure == .time else { return output }
        let writes = Double(Self.countedWrites)
        let countNote = "over \(Self.countedWrites) writes (\(scenario.note)), \(views.count) views, \(style.rawValue) derivation"
        output.rows += [
            context.countRow(
                workload: rowName, subscribers: views.count, metric: .rerunsPerWrite, value: Double(counted.reruns) / writes,
                note: "\(counted.reruns) view re-runs \(countNote)"),
            context.countRow(
                workload: rowName, subscribers: views.count, metric: .avoidableRerunsPerWrite, value: Double(counted.avoidable) / writes,
                note: "\(counted.avoidable) re-runs showed what the view showed before, \(countNote)"),
            context.countRow(
                workload: rowName, subscribers: views.count, metric: .evaluationsPerWrite, value: Double(counted.evaluations) / writes,
                note: "\(counted.evaluations) evaluations of derived nodes, every view's together, \(countNote)"),
            context.countRow(
                workload: rowName, subscribers: views.count, metric: .glitchesPerWrite, value: Double(counted.glitches) / writes,
                note: "\(counted.glitches) runs showed values no single state of the store produces (neither the state before the write nor after it), \(countNote)"),
        ]
        return output
    }

    /// Settles the store, then renders a frame: the views invalidated re-run, and the views
    /// without a render pass (the default derivation) derive from what they read.
    static func settle(_ store: any ObservationStrategy, _ frame: DerivedFrame) async {
        await store.settle()
        frame.render()
    }

    /// What a frame visits, for the rows' notes: the harness's share where views are visited.
    static func frameNote(_ frame: DerivedFrame, views: Int) -> String {
        switch frame.visitedEachFrame {
        case 0: "only the views invalidated are rendered"
        case views: "all \(views) views visited in every frame (no render pass: the strategy's views queue nothing), a cost no app's frame has"
        case let visited: "\(visited) of \(views) views visited in every frame (no render pass), the rest rendered only when invalidated"
        }
    }

    /// Every field any of `views` may read, each once.
    static func fields(of views: [DerivedViewSpec]) -> [FieldRef] {
        var seen = Set<FieldRef>()
        return views.flatMap(\.allFields).filter { seen.insert($0).inserted }
    }

    /// The store's values of `fields`, read untracked: one scan (`readEach`) per field over the
    /// ids it spans, so that a store whose read is a query (GRDB) answers a check of the filtered
    /// list's 3,000 fields with three, not 3,000 (under Callgrind, minutes per row).
    static func read(_ fields: [FieldRef], from store: any ObservationStrategy) throws -> [FieldRef: FieldValue] {
        var values: [FieldRef: FieldValue] = [:]
        for field in TaskField.allCases {
            let wanted = Set(fields.filter { $0.field == field }.map(\.id))
            guard let low = wanted.min(), let high = wanted.max() else { continue }
            var id = low
            try store.readEach(field, of: low...high) { value in
                if wanted.contains(id) { values[FieldRef(id, field)] = value }
                id += 1
            }
        }
        return values
    }

    /// What view `spec` must show when the store holds `values`.
    static func expected(_ spec: DerivedViewSpec, _ values: [FieldRef: FieldValue]) -> [DerivedValue] {
        spec.expectedOutput { ref in
            guard let value = values[ref] else { preconditionFailure("\(ref) was not read for the check") }
            return value
        }
    }

    /// Throws unless every view's output equals a from-scratch computation over the store's records.
    private func check(_ views: [DerivedViewHandle], store: any ObservationStrategy, fields: [FieldRef], when: String) throws {
        let values = try Self.read(fields, from: store)
        let observes = type(of: store).descriptor.capabilities.granularity != .none
        for view in views {
            let state = view.snapshot
            if let failure = state.failure { throw WorkloadError.viewFailed(failure) }
            let expected = Self.expected(view.spec, values)
            guard state.hasRun, state.lastOutput == expected else {
                throw DerivedCheckError.wrongOutput(view: view.description, shown: state.lastOutput, expected: expected, when: when, observes: observes)
            }
        }
    }
}

extension WorkloadContext {
    /// Measures `scenario` in every derivation style the strategy offers: rows named `workload` for
    /// its usual style and `workload+<style>` for the others. A style that fails, or whose views
    /// show a wrong output, gives an error row of its own name; the other styles are still
    /// measured. A strategy that observes nothing (granularity `.none`) and so shows a stale output
    /// gives a row with no value saying so instead.
    @MainActor
    func measureDerived(workload: String, _ scenario: () throws -> DerivedScenario) async throws -> WorkloadOutput {
        let strategy = try measuredStrategy()
        let built = try scenario()
        var output = WorkloadOutput()
        for (index, style) in strategy.derivationStyles.enumerated() {
            let rowName = DerivedRows.name(workload, style: style, usual: index == 0)
            do {
                output.append(try await DerivedMeasurement(scenario: built, style: style, rowName: rowName, context: self).run())
            } catch DerivedCheckError.wrongOutput(let view, _, _, let when, observes: false) {
                // A store that observes nothing (plain) never follows a write: not a failure of
                // the store, and no number either.
                output.rows.append(
                    countRow(
                        workload: rowName, subscribers: built.views.count, metric: .rerunsPerWrite, value: nil,
                        note:
                            "not measurable: \(strategyName) observes nothing, so its views never re-run and \(view) no longer matches a from-scratch computation \(when); no time or count is kept"
                    ))
            } catch {
                var row = ResultRow.error(runID: runID, suite: suite, strategy: strategyName, message: "\(rowName) failed: \(error)")
                row.workload = rowName
                output.rows.append(row)
            }
        }
        return output
    }
}

/// How a derived workload names its rows: `diamond` for the strategy's usual derivation style,
/// `diamond+cached` for another (``DerivationStyle``).
public enum DerivedRows {
    public static let separator = "+"

    public static func name(_ workload: String, style: DerivationStyle, usual: Bool) -> String {
        usual ? workload : workload + separator + style.rawValue
    }

    /// Whether rows called `rowWorkload` are workload `workload`'s, in any style.
    public static func isRow(_ rowWorkload: String, of workload: String) -> Bool {
        rowWorkload == workload || rowWorkload.hasPrefix(workload + separator)
    }

    /// The style a row called `rowWorkload` names, as its suffix after the one of `workloads` it is
    /// a row of: "" for the usual one, "+cached" for another; nil when it is none's.
    public static func style(of rowWorkload: String, among workloads: [String]) -> String? {
        workloads.first { isRow(rowWorkload, of: $0) }.map { String(rowWorkload.dropFirst($0.count)) }
    }

    /// The rows of `workload`'s concrete loop (``ConcreteDerivedLoop``): `diamond-concrete`.
    public static func concreteName(_ workload: String) -> String { workload + concreteSuffix }
    public static let concreteSuffix = "-concrete"
}
