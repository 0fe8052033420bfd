/// A value a derivation produces: what a derived view shows and the harness compares.
public enum DerivedValue: Hashable, Sendable, CustomStringConvertible {
    case int(Int)
    case bool(Bool)
    case text(String)
    /// Record ids, in the derivation's order (a filtered, sorted list).
    case ids([Int])
    /// A record field read directly by a view.
    case field(FieldValue)

    public var description: String {
        switch self {
        case .int(let value): "\(value)"
        case .bool(let value): "\(value)"
        case .text(let value): "\"\(value)\""
        case .ids(let ids): ids.count <= 8 ? "\(ids)" : "[\(ids.prefix(8).map(String.init).joined(separator: ", ")), … (\(ids.count) ids)]"
        case .field(let value): value.description
        }
    }
}

/// What a derivation reads while it is evaluated: record fields and earlier nodes' values. A
/// strategy hands one to ``DerivedNode/evaluate``: through its tracked reads (a computed property
/// inside a tracking scope), a cache, or the values a view already read.
public protocol DerivedReader {
    /// The value of one field of one record.
    func field(_ ref: FieldRef) -> FieldValue
    /// The value of node `index` of the graph (an earlier node).
    func node(_ index: Int) -> DerivedValue
}

/// One derived value: a pure function of record fields and of earlier nodes of its graph.
///
/// `reads` and `inputs` list every field and node the function may read, in a fixed order: a
/// strategy that cannot track reads as they happen (the default, ``ObservationStrategy/subscribeDerived(_:style:)``)
/// subscribes all of them. `evaluate` may read fewer (a dynamic dependency reads one field or
/// another), and must read only these.
public struct DerivedNode: Sendable {
    /// A short name, for errors and reports ("filtered-sorted", "chain-3").
    public var name: String
    /// Every record field `evaluate` may read.
    public var reads: [FieldRef]
    /// Every node (its index in the graph, lower than this node's) `evaluate` may read.
    public var inputs: [Int]
    /// The function. Pure: the same fields and inputs give the same value.
    public var evaluate: @Sendable (any DerivedReader) -> DerivedValue
    /// What the node is, for a strategy that translates derivations into its own language (a SQL
    /// query): nil when only `evaluate` says it.
    public var shape: DerivedShape?

    public init(name: String, reads: [FieldRef], inputs: [Int] = [], shape: DerivedShape? = nil, evaluate: @escaping @Sendable (any DerivedReader) -> DerivedValue) {
        self.name = name
        self.reads = reads
        self.inputs = inputs
        self.shape = shape
        self.evaluate = evaluate
    }
}

/// A derivation described as data, for a strategy that translates it instead of calling
/// ``DerivedNode/evaluate`` (GRDB: a SQL query under `ValueObservation`).
public enum DerivedShape: Hashable, Sendable {
    /// The ids of records `ids` that are not complete and whose title contains the title of
    /// record `queryRecord`, sorted by priority, then id.
    case incompleteMatchingSortedByPriority(ids: ClosedRange<Int>, queryRecord: Int)
}

/// A graph of derived values: nodes in an order where every node's inputs come before it.
/// A class, so that a strategy can share what it caches per graph among the views that read it
/// (by `ObjectIdentifier`); immutable, so sharing it across threads is safe.
public final class DerivedSpec: Sendable {
    public let nodes: [DerivedNode]

    /// - Precondition: every node's inputs are earlier nodes, and it reads at least one field or node.
    public init(nodes: [DerivedNode]) {
        for (index, node) in nodes.enumerated() {
            precondition(node.inputs.allSatisfy { $0 >= 0 && $0 < index }, "derived node \(node.name) reads a node that is not before it")
        }
        self.nodes = nodes
    }

    /// The nodes `roots` read, directly or through other nodes, themselves included, in graph order.
    public func closure(of roots: [Int]) -> [Int] {
        var needed = Set(roots)
        for index in nodes.indices.reversed() where needed.contains(index) { needed.formUnion(nodes[index].inputs) }
        return needed.sorted()
    }

    /// Every field the nodes `roots` may read, directly or through other nodes, each once, in order.
    public func fields(of roots: [Int]) -> [FieldRef] {
        var seen = Set<FieldRef>()
        var fields: [FieldRef] = []
        for index in closure(of: roots) {
            for ref in nodes[index].reads where seen.insert(ref).inserted { fields.append(ref) }
        }
        return fields
    }

    /// Evaluates `roots` from scratch over `field` (no cache, no counting): what a view of them
    /// must show, for the harness's check.
    public func evaluate(_ roots: [Int], field: (FieldRef) -> FieldValue) -> [DerivedValue] {
        withoutActuallyEscaping(field) { field in
            var reader = ScratchReader(field: field)
            for index in closure(of: roots) { reader.values[index] = nodes[index].evaluate(reader) }
            return roots.map { reader.values[$0] ?? .ids([]) }
        }
    }
}

/// Evaluates nodes over given fields and the nodes computed before them.
private struct ScratchReader: DerivedReader {
    let field: (FieldRef) -> FieldValue
    var values: [Int: DerivedValue] = [:]

    func field(_ ref: FieldRef) -> FieldValue { field(ref) }
    func node(_ index: Int) -> DerivedValue {
        guard let value = values[index] else { preconditionFailure("a derived node read node \(index), which it does not list as an input") }
        return value
    }
}

/// A view reading derived values: nodes of one graph, then record fields read directly (a row
/// view reads its record). Its output, compared by the harness, is the nodes' values in order,
/// then the fields' (as ``DerivedValue/field(_:)``).
public struct DerivedViewSpec: Sendable {
    public let graph: DerivedSpec
    /// The nodes the view reads, by index.
    public let nodes: [Int]
    /// Fields the view reads directly.
    public let fields: [FieldRef]
    /// The nodes the view's nodes read, directly or through others, themselves included, in graph
    /// order (``DerivedSpec/closure(of:)``): found once, when the view is described, as an app's
    /// code fixes what a view depends on when it is written, never on each of its runs (walking
    /// the graph on each run made a fan-out of W views O(W²) per write).
    public let closure: [Int]

    public init(graph: DerivedSpec, nodes: [Int], fields: [FieldRef] = []) {
        self.graph = graph
        self.nodes = nodes
        self.fields = fields
        closure = graph.closure(of: nodes)
    }

    /// Every field the view may read, through its nodes or directly, each once.
    public var allFields: [FieldRef] {
        var seen = Set<FieldRef>()
        return (graph.fields(of: nodes) + fields).filter { seen.insert($0).inserted }
    }

    /// Evaluates the view's nodes over `field`, each once and inputs first, counting every
    /// evaluation on `handle`, and returns what the view shows: a strategy's own derivation that
    /// evaluates the whole view at once (a selector, a pipeline's `map`) calls it.
    ///
    /// Its own cost is one output array and one lock for the counts; a view of one node that reads
    /// no other (a fan-out value) is evaluated without a table of node values.
    public func output(countingOn handle: DerivedViewHandle, field: (FieldRef) -> FieldValue) -> [DerivedValue] {
        withoutActuallyEscaping(field) { field in
            handle.recordEvaluations(ofNodes: closure)
            var output: [DerivedValue] = []
            output.reserveCapacity(nodes.count + fields.count)
            if closure.count == 1, nodes == closure {
                output.append(graph.nodes[closure[0]].evaluate(ScratchReader(field: field)))
            } else {
                var reader = ScratchReader(field: field)
                for index in closure { reader.values[index] = graph.nodes[index].evaluate(reader) }
                for index in nodes { output.append(reader.values[index] ?? .ids([])) }
            }
            for ref in fields { output.append(.field(field(ref))) }
            return output
        }
    }

    /// What the view must show when the store holds what `field` reads, computed from scratch.
    public func expectedOutput(field: (FieldRef) -> FieldValue) -> [DerivedValue] {
        graph.evaluate(nodes, field: field) + fields.map { .field(field($0)) }
    }
}

/// How a derived value is computed and held, where a strategy's users have more than one way.
/// A strategy lists the styles it offers (``ObservationStrategy/derivationStyles``), its usual
/// one first; a workload measures each, and names the rows of any but the first
/// `<workload>+<style>`.
public enum DerivationStyle: String, Sendable, Hashable, CaseIterable {
    /// Derived in the view body from the fields it read (the default for every strategy).
    case viewBody = "view-body"
    /// A computed property read inside the view's tracking scope: evaluated on every read, its
    /// dependencies tracked as they are read.
    case computed
    /// A value cached in an observable object of its own, re-evaluated when an input changes.
    case cached
    /// A Combine pipeline: `map` then `removeDuplicates` over the observed state.
    case pipeline
    /// A selector over the whole state: `map(select).removeDuplicates()` on the store's subject.
    case selector
    /// A SQL query under `ValueObservation`.
    case sql
}
