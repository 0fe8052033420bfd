import ArgumentParser

/// The `obsbench` command: runs observation-strategy benchmarks and lists what it can run.
///
/// Not `@main` itself: see `MainRunLoop`, which parses it and runs it with the process's main
/// thread in a run loop.
struct ObsBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "obsbench",
        abstract: "Measure what observation strategies cost: latency, memory, subscriber scaling, consistency, actor hops; gate CI on regressions.",
        discussion: """
        Every suite runs each strategy in its own worker process (a release build of this binary), \
        appends rows to <output>/<run-id>/results.csv as each worker finishes, and points \
        <output>/latest at the newest run. Run `obsbench list` for suites and strategies.

        Exit status: 0 all measured; 1 some workers failed (their error rows are in the CSV) or \
        another failure; 64 bad usage (unknown suite, strategy or format; bad sizes); \
        69 --measure instructions without Valgrind (nothing measured); \
        73 the output folder cannot be written; 130/143 interrupted by SIGINT/SIGTERM. \
        `report`: 0 written, 1 the run cannot be read or the report written. \
        `compare` and `gate`: 0 no regression, 2 regression or a judged baseline metric missing, \
        4 only improvements, 5 baseline missing or unreadable, or made differently (another measure, \
        allocator, toolchain, Valgrind, CPU model, --quick), 64 bad options, 1 any other failure.
        """,
        subcommands: [RunCommand.self, ListCommand.self, CompareCommand.self, GateCommand.self, ReportCommand.self, WorkerCommand.self, SelfCheckCommand.self],
        defaultSubcommand: RunCommand.self
    )
}
