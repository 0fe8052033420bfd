import ArgumentParser

@testable import ObsBenchCLI

/// Runs obsbench's command line in this process (parsing validates) and returns its exit status:
/// 0 when the command returns, else the status its error maps to.
func obsbenchExitStatus(_ arguments: [String]) -> Int32 {
    do {
        var command = try ObsBenchCommand.parseAsRoot(arguments)
        try command.run()
        return 0
    } catch {
        return ObsBenchCommand.exitCode(for: error).rawValue
    }
}
