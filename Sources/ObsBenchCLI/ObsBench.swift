import ArgumentParser
import BuiltInStrategies
import Foundation
import ObsBenchKit
import ObservationStrategies

/// The whole obsbench tool, for any set of strategies: `run`, `list`, `compare`, `gate`,
/// `report`, `export`, `merge`, and the hidden `worker` every run starts (this same binary).
///
/// obsbench's own executable is one line; a package with a store of its own gets the same tool
/// by naming its strategy beside the built-in ones:
///
/// ```swift
/// // Sources/my-bench/main.swift, in a package depending on obsbench's `ObsBenchCLI` product
/// import ObsBenchCLI
/// import ObservationStrategies
///
/// ObsBench.main(strategies: StrategyRegistry.all + [StrategyEntry(MyStore.self)])
/// ```
///
/// `swift run my-bench --suite latency --quick` then measures `MyStore` next to the built-in
/// strategies, each in its own worker process, and `compare`, `gate` and `report` read the
/// strategy's capabilities from the run's `run.json`.
public enum ObsBench {
    /// Parses the command line and runs the command with the main thread in `RunLoop.main`, as
    /// an app's main thread is; never returns.
    ///
    /// An `AsyncParsableCommand` as `@main` would drain the main queue with `dispatch_main()`,
    /// which on Linux hands main-actor jobs to dispatch's worker threads: main-actor work would
    /// not run on the main thread, and Valgrind 3.19 crashes under it (the instruction mode needs
    /// it not to). Here the main thread runs the run loop, which drains the main queue itself, so
    /// every main-actor job (workloads, views, hops to the main actor) runs on the main thread.
    ///
    /// - Parameters:
    ///   - strategies: the strategies this binary measures, in the order tables list them. Names
    ///     must be unique.
    ///   - file: the caller's source file, left to its default: a debug build finds the package
    ///     it belongs to from it, to build and hand over to the release binary (a debug binary
    ///     moved away from its sources refuses, printing the command to run instead).
    public static func main(strategies: [StrategyEntry], file: StaticString = #filePath) -> Never {
        if let duplicate = Dictionary(grouping: strategies, by: \.name).first(where: { $0.value.count > 1 })?.key {
            Console.error("two strategies are called '\(duplicate)'; every strategy needs its own name")
            exit(ExitStatus.usage.rawValue)
        }
        if strategies.isEmpty {
            Console.error("no strategies to measure")
            exit(ExitStatus.usage.rawValue)
        }
        Registered.strategies = strategies
        ReleaseRedirect.callerFile = "\(file)"
        Task { @MainActor in
            do {
                var command = try ObsBenchCommand.parseAsRoot()
                if var asyncCommand = command as? any AsyncParsableCommand {
                    try await asyncCommand.run()
                } else {
                    try command.run()
                }
                ObsBenchCommand.exit()
            } catch {
                ObsBenchCommand.exit(withError: error)
            }
        }
        // A worker given a memory layout (OBSBENCH_LAYOUT) runs its main thread on a moved stack;
        // any other process on a stack moved by 0 bytes.
        LayoutSeed.runOnShiftedStack {
            while true {
                _ = RunLoop.main.run(mode: .default, before: .distantFuture)
            }
        }
    }
}

/// The strategies this process measures: the built-in ones unless `ObsBench.main` was given others.
enum Registered {
    private static let storage = Locked(StrategyRegistry.all)

    /// Setting it sets ``KnownStrategies`` too: the harness reads runs with these descriptors.
    static var strategies: [StrategyEntry] {
        get { storage.withLock { $0 } }
        set {
            storage.withLock { $0 = newValue }
            KnownStrategies.descriptors = newValue.map(\.descriptor)
        }
    }

    static var names: [String] { strategies.map(\.name) }

    static func entry(named name: String) -> StrategyEntry? {
        strategies.first { $0.name == name }
    }
}

/// The root command: parses into one of the subcommands.
struct ObsBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: Console.commandName,
        abstract:
            "Measure what observation strategies cost: latency, memory, subscriber scaling, consistency, actor hops, store isolation, the cooperative pool; gate CI on regressions.",
        discussion: """
            Every suite runs each strategy in its own worker process (a release build of this binary), \
            appends rows to <output>/<run-id>/results.csv as each worker finishes, and points \
            <output>/latest at the newest run. Run `list` for suites and strategies.

            Exit status: \(ExitStatus.helpText)
            """,
        subcommands: [
            RunCommand.self, ListCommand.self, CompareCommand.self, GateCommand.self, ProfileCommand.self, ReportCommand.self, ExportCommand.self, MergeCommand.self,
            WorkerCommand.self, SelfCheckCommand.self,
        ],
        defaultSubcommand: RunCommand.self
    )
}
