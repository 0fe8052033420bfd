/// When a function's inclusive cost per operation (its own instructions and those of everything
/// it called) is the operation's own, and so can be printed beside the row's Ir/op.
///
/// Callgrind gives each call edge the callee's inclusive cost, and a profile's difference of four
/// dumps (``OperationProfile``) applies to those edges as to own costs. Two kinds of function get a
/// figure that is not part of the operation:
/// - a function on a cycle of calls through other functions (an async function's partial
///   functions resume one another through `swift_task_switch`; `f → g → f'2`, whose recursion
///   level is merged into `f`): each call edge on the cycle already holds the nested activations,
///   so adding them counts the same instructions again (`view-scope/plain`, 93 Ir/op, gave its
///   loop's resume functions +241,600 Ir/op);
/// - a frame the loop runs in, or one only the empty loop runs in: its inclusive cost is the
///   loop's, of which the empty loop's share is subtracted from other functions (the empty
///   loop's own closure, −204,572 Ir/op in the same row).
///
/// The first is found from the call graph (``inCallCycles(_:)``); the second, and any figure from
/// a `profile.csv` written before this rule, by its bounds (``operationsOwn(_:total:)``). Either
/// way the figure is left out (an empty `inclusive_ir_per_op`), never clamped into range.
public enum InclusiveCost {
    /// How far outside 0…total a figure may be and still be read as the operation's own, rounded
    /// to the bound: the difference of whole instruction counts over a few hundred operations
    /// leaves fractions of an instruction (`start_thread` at −0.061 Ir/op).
    public static let roundingTolerance = 0.5

    /// `inclusive` where it lies within 0…`total` (the row's Ir/op), to within
    /// ``roundingTolerance`` (then rounded to the bound); nil where it does not.
    public static func operationsOwn(_ inclusive: Double, total: Double) -> Double? {
        let high = max(total, 0)
        guard inclusive >= -roundingTolerance, inclusive <= high + roundingTolerance else { return nil }
        return min(max(inclusive, 0), high)
    }

    /// What a table prints for a figure left out, and the note under it.
    public static let unknownMark = "—"
    public static let unknownNote =
        "incl. \(unknownMark): not the operation's own. A function on a cycle of calls (async resume functions calling one another through swift_task_switch, recursion through another function) would count its nested calls again; a frame the loop runs in carries the loop's cost, not the operation's. Own costs (self) always add up (docs/profiles.md, \"Inclusive costs\")"

    /// The functions that lie on a cycle of calls through at least one other function, in
    /// `graph` (caller → callees; a function's calls to itself are not edges): the members of its
    /// strongly connected components of more than one function (Tarjan's algorithm, iteratively).
    public static func inCallCycles<Node: Hashable & Comparable>(_ graph: [Node: Set<Node>]) -> Set<Node> {
        var index: [Node: Int] = [:]
        var low: [Node: Int] = [:]
        var onStack: Set<Node> = []
        var stack: [Node] = []
        var next = 0
        var cyclic: Set<Node> = []
        func visit(_ node: Node) -> (node: Node, callees: [Node], position: Int) {
            index[node] = next
            low[node] = next
            next += 1
            stack.append(node)
            onStack.insert(node)
            return (node, (graph[node] ?? []).filter { $0 != node }.sorted(), 0)
        }
        for root in graph.keys.sorted() where index[root] == nil {
            var work = [visit(root)]
            while let top = work.last {
                if top.position < top.callees.count {
                    let callee = top.callees[top.position]
                    work[work.count - 1].position += 1
                    if index[callee] == nil {
                        work.append(visit(callee))
                    } else if onStack.contains(callee) {
                        low[top.node] = min(low[top.node]!, index[callee]!)
                    }
                    continue
                }
                work.removeLast()
                if let parent = work.last?.node { low[parent] = min(low[parent]!, low[top.node]!) }
                guard low[top.node] == index[top.node] else { continue }
                var component: [Node] = []
                while let member = stack.popLast() {
                    onStack.remove(member)
                    component.append(member)
                    if member == top.node { break }
                }
                if component.count > 1 { cyclic.formUnion(component) }
            }
        }
        return cyclic
    }
}
