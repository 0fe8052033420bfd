import ArgumentParser
import Foundation
import ObsBenchKit

/// `obsbench merge SHARD_DIR... --output DIR`: joins the shards of a run spread over a CI matrix
/// (`--shard K/N`) into one run folder.
struct MergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the folders of a run's shards (run --shard K/N) into one run that gate, compare, report and export read.",
        discussion: """
            Example: a run cut in two, each half on its own machine (a CI matrix), then merged and gated:

              obsbench --suite latency --measure instructions --shard 1/2 --output s1
              obsbench --suite latency --measure instructions --shard 2/2 --output s2
              obsbench merge s1 s2 --output results
              obsbench gate --baseline results/baseline-instructions --current results/latest

            Each SHARD_DIR is a shard's run folder or the --output folder it was written to (its latest \
            link). Every shard 1...N must be given once, all made alike: the same command line apart \
            from --shard, --output, --jobs, --format and --worker-timeout, the same git revision, \
            toolchain, build, CPU model, core count, allocator and instruction counting; any difference \
            is refused and named. Each job's output (the shard's jobs/ folder) is recorded again as one \
            run records it, so rows pooled over rounds and memory layouts, and profiles' means over \
            layouts, are computed over all shards' rounds: the merged rows are those one unsharded run \
            would write. Exit status: \(ExitStatus.helpText([.success, .failure, .usage, .cannotWriteOutput])).
            """
    )

    @Argument(help: ArgumentHelp("The shards' folders: run folders, or the --output folders their runs wrote.", valueName: "shard-dir"))
    var shards: [String] = []

    @Option(help: ArgumentHelp("Folder for the merged run's folder and the `latest` link.", valueName: "dir"))
    var output: String

    func validate() throws {
        if shards.isEmpty { throw ValidationError("give the shards' folders: obsbench merge SHARD_DIR... --output DIR") }
    }

    @MainActor
    func run() async throws {
        let directory: ResultsDirectory
        do {
            directory = try ShardMerge.merge(shards: shards, output: output)
        } catch {
            Console.error("\(error)")
            throw error.status.exitCode
        }
        Console.standardError("merged \(shards.count) shards: \(directory.resultsFile.path) (\(output)/latest points here)\n")
        print(directory.runDirectory.path)
    }
}
