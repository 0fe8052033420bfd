import Foundation
import Testing

@testable import ObsBenchKit

/// The memory layouts of the instruction mode (`OBSBENCH_LAYOUT`, ``LayoutSeed``): a seed decides
/// where the heap's objects, the main thread's stack and, under Valgrind, the executable lie, and
/// the same seed decides it the same way every time.
@Suite("Layout seeds")
struct LayoutSeedTests {
    /// What `obsbench self-check layout` reports, by name: `seed`, `heap-padding`, `object`, `stack`, `image`, `hash-tables`.
    static func layout(seed: Int?, underCallgrind: Bool = false, environment extra: [String: String] = [:]) throws -> [String: String] {
        let output: String
        if underCallgrind {
            output = try InstructionCountTests.selfCheck(["layout"], underCallgrind: true, layout: seed ?? 1)
        } else {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            // Address randomisation off, as under Callgrind: only the seed moves things.
            process.arguments = ["setarch", "-R", InstructionCountTests.obsbench, "self-check", "layout"]
            var environment = ProcessInfo.processInfo.environment
            environment[LayoutSeed.environmentVariable] = seed.map(String.init)
            process.environment = environment.merging(extra) { $1 }
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let words = output.split(whereSeparator: \.isWhitespace).map(String.init)
        return Dictionary(stride(from: 0, to: words.count - 1, by: 2).map { (words[$0], words[$0 + 1]) }) { $1 }
    }

    @Test(
        "a layout seed moves the main thread's stack: the address differs between seeds 1 and 2, and is equal for the same seed",
        .enabled(if: Command.run(["setarch", "-R", "/bin/true"]) != nil, "needs setarch (util-linux)"))
    func seedMovesTheStack() throws {
        // Outside Valgrind a heap address also depends on which thread allocated first, so the
        // heap is checked under Callgrind (below), whose serialised threads repeat.
        let first = try Self.layout(seed: 1), again = try Self.layout(seed: 1), second = try Self.layout(seed: 2)
        #expect(first["seed"] == "1" && second["seed"] == "2")
        let stack = try #require(first["stack"])
        #expect(stack == again["stack"], "the same seed, the same address")
        #expect(stack != second["stack"], "another seed, another address")
        #expect(first["heap-padding"] == String(LayoutSeed.heapPadding(seed: 1)) && second["heap-padding"] == String(LayoutSeed.heapPadding(seed: 2)))
    }

    @Test("the plan of a seed is fixed, within its bounds, and differs between seeds")
    func plans() {
        let plans = (1...16).map { (heap: LayoutSeed.heapPadding(seed: $0), stack: LayoutSeed.stackPadding(seed: $0), address: LayoutSeed.minimumAddress(seed: $0)) }
        #expect(plans.allSatisfy { (16...125 * 1_024).contains($0.heap) && (16...4_096).contains($0.stack) && $0.address % 0x1000 == 0 })
        #expect(Set(plans.map(\.address)).count == plans.count, "each seed maps the executable elsewhere")
        #expect(LayoutSeed.heapPadding(seed: 3) == LayoutSeed.heapPadding(seed: 3))
    }

    @Test(
        "under Callgrind, where counts are made, a layout seed moves the heap and the code: an object's address and the image's differ between layouts 1 and 2, and are equal for layout 1 twice",
        .enabled(if: InstructionCountTests.canCount, "needs valgrind"))
    func layoutMovesHeapAndImage() throws {
        let first = try Self.layout(seed: 1, underCallgrind: true), again = try Self.layout(seed: 1, underCallgrind: true)
        let second = try Self.layout(seed: 2, underCallgrind: true)
        let object = try #require(first["object"]), image = try #require(first["image"])
        #expect(object == again["object"] && image == again["image"], "the same seed, the same addresses")
        #expect(object != second["object"] && image != second["image"], "another seed, other addresses")
    }

    @Test(
        "instruction workers hash as a normal run does, from a fixed seed: SWIFT_DETERMINISTIC_HASHING=1 alone gives every table of one size one seed; OBSBENCH_TABLE_SEEDS=address seeds each table by its address again",
        .enabled(if: Command.run(["setarch", "-R", "/bin/true"]) != nil, "needs setarch (util-linux)"))
    func tablesSeededByAddress() throws {
        let normal = try Self.layout(seed: 1)
        let deterministic = try Self.layout(seed: 1, environment: ["SWIFT_DETERMINISTIC_HASHING": "1"])
        let worker = try Self.layout(seed: 1, environment: CallgrindInvocation.deterministicEnvironment)
        #expect(normal["hash-tables"] == "address")
        #expect(deterministic["hash-tables"] == "size")
        #expect(worker["hash-tables"] == "address")
        if InstructionCountTests.canCount {
            #expect(try Self.layout(seed: 1, underCallgrind: true)["hash-tables"] == "address", "what the instruction mode's workers get")
        }
    }
}
