import ArgumentParser
import Foundation

/// The process entry point: parses the command line, then runs the command with the main thread
/// in `RunLoop.main`, as an app's main thread is.
///
/// An `AsyncParsableCommand` as `@main` would drain the main queue with `dispatch_main()`, which on
/// Linux hands main-actor jobs to dispatch's worker threads: main-actor work would not run on the
/// main thread, and Valgrind 3.19 crashes under it (the instruction mode needs it not to). Here
/// the main thread runs the run loop, which drains the main queue itself, so every main-actor job
/// (the worker's workloads, the strategies' views, hops to the main actor) runs on the main thread.
@main
enum MainRunLoop {
    static func main() {
        Task { @MainActor in
            do {
                var command = try ObsBench.parseAsRoot()
                if var asyncCommand = command as? any AsyncParsableCommand {
                    try await asyncCommand.run()
                } else {
                    try command.run()
                }
                ObsBench.exit()
            } catch {
                ObsBench.exit(withError: error)
            }
        }
        while true {
            _ = RunLoop.main.run(mode: .default, before: .distantFuture)
        }
    }
}
