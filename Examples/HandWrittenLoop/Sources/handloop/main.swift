import Observation
import OpenCombine

// Each record type has its loops written out, as an app's code has them: a loop generic over a
// protocol of the three would call the property through a witness table (+22 Ir a read, measured
// for obsbench's own concrete loops, Sources/ObservationStrategies/ConcreteLoops.swift), which is
// what this yardstick must not pay.

@Observable
final class ObservedRecord {
    var title: String
    var isComplete: Bool
    var priority: Int
    init(id: Int) {
        title = "Task \(id)"
        isComplete = id % 3 == 0
        priority = id % 5
    }
}

final class PublishedRecord: ObservableObject {
    @Published var title: String
    @Published var isComplete: Bool
    @Published var priority: Int
    init(id: Int) {
        title = "Task \(id)"
        isComplete = id % 3 == 0
        priority = id % 5
    }
}

@inline(never)
func writePublished(_ records: [PublishedRecord], _ iterations: Int) {
    let count = records.count
    for index in 0..<iterations { records[index % count].priority = 1_000 &+ index }
}

@inline(never)
func readPublished(_ records: [PublishedRecord], _ iterations: Int) -> Int {
    let count = records.count
    var sum = 0
    for index in 0..<iterations { sum &+= records[index % count].priority }
    return sum
}

final class PlainRecord {
    var title: String
    var isComplete: Bool
    var priority: Int
    init(id: Int) {
        title = "Task \(id)"
        isComplete = id % 3 == 0
        priority = id % 5
    }
}

@inline(never)
func writeObserved(_ records: [ObservedRecord], _ iterations: Int) {
    let count = records.count
    for index in 0..<iterations { records[index % count].priority = 1_000 &+ index }
}

@inline(never)
func readObserved(_ records: [ObservedRecord], _ iterations: Int) -> Int {
    let count = records.count
    var sum = 0
    for index in 0..<iterations { sum &+= records[index % count].priority }
    return sum
}

@inline(never)
func writePlain(_ records: [PlainRecord], _ iterations: Int) {
    let count = records.count
    for index in 0..<iterations { records[index % count].priority = 1_000 &+ index }
}

@inline(never)
func readPlain(_ records: [PlainRecord], _ iterations: Int) -> Int {
    let count = records.count
    var sum = 0
    for index in 0..<iterations { sum &+= records[index % count].priority }
    return sum
}

// handloop OPERATION ITERATIONS: one loop, after one warm-up pass over every record.
let arguments = CommandLine.arguments
let operation = arguments[1], iterations = Int(arguments[2])!
var sink = 0
let observed = (1...1_000).map(ObservedRecord.init)
let plain = (1...1_000).map(PlainRecord.init)
let published = (1...1_000).map(PublishedRecord.init)
// Warm-up: one pass of the operation measured over every record (a record read is never written,
// as in obsbench's read loops: a @Published field makes its subject on its first write).
switch operation {
case "observable-write": writeObserved(observed, 1_000)
case "observable-read": sink &+= readObserved(observed, 1_000)
case "published-write": writePublished(published, 1_000)
case "published-read": sink &+= readPublished(published, 1_000)
case "plain-write": writePlain(plain, 1_000)
default: sink &+= readPlain(plain, 1_000)
}
switch operation {
case "observable-write": writeObserved(observed, iterations)
case "observable-read": sink &+= readObserved(observed, iterations)
case "published-write": writePublished(published, iterations)
case "published-read": sink &+= readPublished(published, iterations)
case "plain-write": writePlain(plain, iterations)
case "plain-read": sink &+= readPlain(plain, iterations)
default: fatalError("unknown operation \(operation)")
}
if sink == 42 { print(sink) }
