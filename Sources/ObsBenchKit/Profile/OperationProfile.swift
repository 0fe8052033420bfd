import Foundation
import ObservationStrategies

/// Where one counted row's instructions go, per function, in Ir per operation: the same
/// difference that gives the row's Ir/op, applied to each function of its dumps.
///
/// For each function, (its Ir in the long loop − in the short loop) / (long − short), minus the
/// same for the empty loop. The functions' self costs therefore sum to the row's Ir/op (the median
/// repeat's, which is the row's median), and fixed costs (starting a batch, `settle()`, the dump
/// request) cancel function by function as they cancel in the total.
///
/// ```swift
/// let profile = try OperationProfile(key: key, dumps: dumps, folder: dumpFolder)
/// profile.functions.first   // the function with the largest own share, e.g. swift_retain at 21.0 Ir/op
/// profile.total             // the row's Ir/op
/// profile.referenceCounts?.retains   // its retains per operation, from the dumps' call counts
/// ```
public struct OperationProfile: Sendable, Codable {
    public var key: RowKey
    /// Every function whose cost per operation, or whose retains or releases, are not zero,
    /// largest own cost first.
    public var functions: [Function]
    /// Calls between them: the callee's inclusive Ir per operation under that caller.
    public var calls: [Call]
    /// The row's retains and releases per operation (``ReferenceCounts``); nil only for a profile
    /// made from counts without call counts.
    public var referenceCounts: ReferenceCounts?

    /// One function's share.
    public struct Function: Sendable, Equatable, Codable {
        public var id: FunctionID
        public var name: String
        public var group: CostGroup
        public var selfPerOperation: Double
        /// Own instructions and those of its calls, per operation; nil where that is not the
        /// operation's own (``InclusiveCost``: a function on a cycle of calls, or a frame the loop
        /// runs in), else within 0…the row's Ir/op.
        public var inclusivePerOperation: Double?
        /// The retains and releases the function itself made per operation (``ReferenceCounts``).
        public var retainsPerOperation: Double = 0
        public var releasesPerOperation: Double = 0
    }

    /// One caller → callee edge.
    public struct Call: Sendable, Equatable, Codable {
        public var caller: FunctionID
        public var callee: FunctionID
        public var perOperation: Double
    }

    /// The sum of the functions' own costs: the row's Ir/op.
    public var total: Double { functions.reduce(0) { $0 + $1.selfPerOperation } }

    /// Reads the four dumps named in `dumps` from `folder`, and the four of its call counts when
    /// it has them (a drawn row: ``CallCountDumps``).
    public init(key: RowKey, dumps: ProfileDumps, folder: URL, names: DemangledNames = DemangledNames()) throws {
        func read(_ name: String) throws -> CallgrindProfile {
            // The worker names its dumps by full path; only the file name is used, so a folder
            // moved after the run still reads.
            let file = URL(fileURLWithPath: name).lastPathComponent
            return try CallgrindProfile(contentsOf: folder.appendingPathComponent(file).path)
        }
        var referenceCounts: ReferenceCounts?
        if let calls = dumps.callCounts {
            referenceCounts = ReferenceCounts(
                operation: (try read(calls.operationShort), try read(calls.operationLong)), empty: (try read(calls.emptyShort), try read(calls.emptyLong)),
                operations: calls.operations, fromCallCountDumps: true)
        }
        try self.init(
            key: key, operation: (try read(dumps.operationShort), try read(dumps.operationLong)),
            empty: (try read(dumps.emptyShort), try read(dumps.emptyLong)), operations: dumps.operations, names: names, referenceCounts: referenceCounts)
    }

    /// The difference of four parsed dumps over `operations` operations; the retains and releases
    /// are `referenceCounts` when given, else those of the same dumps.
    public init(
        key: RowKey, operation: (short: CallgrindProfile, long: CallgrindProfile), empty: (short: CallgrindProfile, long: CallgrindProfile),
        operations: Int, names: DemangledNames = DemangledNames(), referenceCounts: ReferenceCounts? = nil
    ) throws {
        guard operations > 0 else { throw ProfileError.unreadableDump(file: operation.long.trigger, reason: "a profile needs a long loop longer than the short one") }
        self.key = key
        let length = Double(operations)
        let dumps = [operation.long, operation.short, empty.long, empty.short]
        let signs: [Int64] = [1, -1, -1, 1]
        var selfCost: [FunctionID: Int64] = [:]
        var inclusiveCost: [FunctionID: Int64] = [:]
        var callCost: [Pair: Int64] = [:]
        var callees: [FunctionID: Set<FunctionID>] = [:]
        for (dump, sign) in zip(dumps, signs) {
            for (id, cost) in dump.functions {
                selfCost[id, default: 0] += sign * cost.selfInstructions
                inclusiveCost[id, default: 0] += sign * cost.inclusive(of: id)
                for (callee, instructions) in cost.calls where callee != id {
                    callCost[Pair(caller: id, callee: callee), default: 0] += sign * instructions
                    callees[id, default: []].insert(callee)
                }
            }
        }
        // An inclusive cost is printed only where it is the operation's own (``InclusiveCost``):
        // not for a function on a cycle of calls, nor outside 0…the row's Ir/op.
        let cyclic = InclusiveCost.inCallCycles(callees)
        let rowTotal = Double(selfCost.values.reduce(0, +)) / length
        let counts = referenceCounts ?? ReferenceCounts(operation: operation, empty: empty, operations: operations)
        self.referenceCounts = counts
        func function(_ id: FunctionID, own: Double, inclusive: Double?) -> Function {
            let name = names.demangle(id.name.components(separatedBy: "@@").first ?? id.name)
            let made = counts.byFunction[id]
            return Function(
                id: id, name: name, group: CostGroup.of(object: id.object, symbol: name), selfPerOperation: own, inclusivePerOperation: inclusive,
                retainsPerOperation: made?.retains ?? 0, releasesPerOperation: made?.releases ?? 0)
        }
        var listed: Set<FunctionID> = []
        functions = selfCost.keys.compactMap { id in
            let own = Double(selfCost[id, default: 0]) / length
            let inclusive = Double(inclusiveCost[id, default: 0]) / length
            guard own != 0 || inclusive != 0 || counts.byFunction[id] != nil else { return nil }
            listed.insert(id)
            return function(id, own: own, inclusive: cyclic.contains(id) ? nil : InclusiveCost.operationsOwn(inclusive, total: rowTotal))
        }
        // A function that retains or releases with no Ir of its own in these dumps (its calls
        // were counted in dumps of their own) is listed at 0 Ir.
        functions += counts.byFunction.keys.filter { !listed.contains($0) }.map { function($0, own: 0, inclusive: 0) }
        functions.sort { ($0.selfPerOperation, $1.id) > ($1.selfPerOperation, $0.id) }
        calls = callCost.compactMap { pair, instructions in
            instructions == 0 ? nil : Call(caller: pair.caller, callee: pair.callee, perOperation: Double(instructions) / length)
        }.sorted { ($0.perOperation, $1.caller, $1.callee) > ($1.perOperation, $0.caller, $0.callee) }
    }

    /// The mean of one row's profiles counted in several memory layouts: each function's and
    /// each call's cost summed over the layouts and divided by their number (a function absent
    /// from one layout counts 0 there), so the functions sum to the row's value, the layouts' mean.
    public init(meanOf layouts: [OperationProfile]) {
        precondition(!layouts.isEmpty, "a mean of no profiles")
        key = layouts[0].key
        let count = Double(layouts.count)
        var merged: [FunctionID: Function] = [:]
        var callCost: [Pair: Double] = [:]
        for profile in layouts {
            for function in profile.functions {
                var mean = merged[function.id] ?? Function(id: function.id, name: function.name, group: function.group, selfPerOperation: 0, inclusivePerOperation: 0)
                mean.selfPerOperation += function.selfPerOperation / count
                // Unknown in one layout, unknown in the mean.
                mean.inclusivePerOperation = mean.inclusivePerOperation.flatMap { sum in function.inclusivePerOperation.map { sum + $0 / count } }
                mean.retainsPerOperation += function.retainsPerOperation / count
                mean.releasesPerOperation += function.releasesPerOperation / count
                merged[function.id] = mean
            }
            for call in profile.calls { callCost[Pair(caller: call.caller, callee: call.callee), default: 0] += call.perOperation / count }
        }
        functions = merged.values.sorted { ($0.selfPerOperation, $1.id) > ($1.selfPerOperation, $0.id) }
        let counts = layouts.compactMap(\.referenceCounts)
        referenceCounts = counts.count == layouts.count ? ReferenceCounts(meanOf: counts) : nil
        calls = callCost.map { Call(caller: $0.key.caller, callee: $0.key.callee, perOperation: $0.value) }
            .sorted { ($0.perOperation, $1.caller, $1.callee) > ($1.perOperation, $0.caller, $0.callee) }
    }

    private struct Pair: Hashable {
        var caller: FunctionID
        var callee: FunctionID
    }

    /// The same profile with each function's object file renamed by `rename`: profiles of one row
    /// made by different processes name the stripped copy of the worker that each made in a
    /// scratch folder of its own, so `obsbench merge` names them alike before taking their mean.
    public func renamingObjects(_ rename: (String) -> String) -> OperationProfile {
        func renamed(_ id: FunctionID) -> FunctionID { FunctionID(object: rename(id.object), name: id.name) }
        var profile = self
        profile.functions = functions.map { function in
            var function = function
            function.id = renamed(function.id)
            return function
        }
        profile.calls = calls.map { Call(caller: renamed($0.caller), callee: renamed($0.callee), perOperation: $0.perOperation) }
        if var counts = referenceCounts {
            counts.byFunction = Dictionary(counts.byFunction.map { (renamed($0.key), $0.value) }, uniquingKeysWith: { a, _ in a })
            profile.referenceCounts = counts
        }
        return profile
    }

    /// The rows of `profile.csv`.
    public var rows: [ProfileRow] {
        functions.map { function in
            ProfileRow(
                key: key, group: function.group, function: function.name, selfPerOperation: function.selfPerOperation,
                inclusivePerOperation: function.inclusivePerOperation, object: URL(fileURLWithPath: function.id.object).lastPathComponent,
                retainsPerOperation: referenceCounts == nil ? nil : function.retainsPerOperation,
                releasesPerOperation: referenceCounts == nil ? nil : function.releasesPerOperation)
        }
    }

    /// The profile in Callgrind's own format, in Ir per 1,000 operations (Callgrind's costs are
    /// whole numbers; a negative share, from another thread's timing, is drawn as 0), for tools
    /// that read Callgrind profiles: gprof2dot draws the call graph from it
    /// (`plot-scripts/callgraph.py`).
    public func callgrindText() -> String {
        var text = "# callgrind format\nversion: 1\ncreator: obsbench (per-operation difference of Callgrind dumps)\n"
        text += "desc: Profile: \(key.benchmark), Ir per 1000 operations (long loop - short loop, empty loop removed)\n"
        text += "positions: line\nevents: Ir\n"
        func scaled(_ value: Double) -> Int64 { max(0, Int64((value * 1_000).rounded())) }
        text += "summary: \(scaled(total))\n\n"
        let named = Dictionary(functions.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        let callsByCaller = Dictionary(grouping: calls, by: \.caller)
        // A function with no instruction of its own per operation is not part of the operation:
        // it is a frame the loop runs inside (main, the run loop, the job, the batch's caller),
        // whose calls carry the whole loop's cost. Drawn, it would be a chain of 100% boxes.
        for function in functions where abs(function.selfPerOperation) >= 0.0005 {
            text += "ob=\(function.id.object)\nfn=\(function.name)\n0 \(scaled(function.selfPerOperation))\n"
            for call in callsByCaller[function.id] ?? [] where scaled(call.perOperation) > 0 {
                text += "cob=\(call.callee.object)\ncfn=\(named[call.callee] ?? Demangler.demangle(call.callee.name))\ncalls=1 0\n0 \(scaled(call.perOperation))\n"
            }
            text += "\n"
        }
        return text + "totals: \(scaled(total))\n"
    }

    /// A file name for the profile, from its row's names.
    public var fileName: String {
        let parts = [
            key.suite, key.workload, key.strategy == RowKey.noStrategy ? nil : key.strategy, key.executor == RowKey.mainActor ? nil : key.executor,
            key.concurrency == 1 ? nil : "c\(key.concurrency)", "n\(key.objects)", key.subscribers == 0 ? nil : "s\(key.subscribers)",
        ]
        return parts.compactMap { $0 }.joined(separator: ".").map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" }.map(String.init).joined() + ".callgrind"
    }
}

/// Demangled symbols, each demangled once per run.
public final class DemangledNames: Sendable {
    private let cache = Locked<[String: String]>([:])

    public init() {}

    public func demangle(_ symbol: String) -> String {
        if let known = cache.withLock({ $0[symbol] }) { return known }
        let name = Demangler.demangle(symbol)
        cache.withLock { $0[symbol] = name }
        return name
    }
}
