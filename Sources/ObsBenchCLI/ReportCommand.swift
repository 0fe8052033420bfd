import ArgumentParser
import Foundation
import ObsBenchKit

/// `obsbench report RUN`: writes `report.md` and a self-contained `report.html` for a run.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write report.md and a self-contained report.html for a run: machine, guide, headline tables, charts, claims check.",
        discussion: """
            Charts come from the run's plots/ folder; when it has none, `python3 plot-scripts/plot.py RUN` \
            is run first (matplotlib: plot-scripts/requirements.txt), and the report says so if it cannot be. \
            Claims are read from claims/claims.json (add a claim there, no code needed); a report that judged \
            no claim (no claims file, or none of the claims' rows in the run) is written and ends with exit 3 \
            (--no-claims for a report without a claims check). \
            Exit status: \(ExitStatus.helpText([.success, .noClaimsJudged, .failure, .usage])).
            """
    )

    @Argument(help: ArgumentHelp("The run folder (or a `latest` link).", valueName: "run"))
    var runFolder = "results/latest"

    @Option(help: ArgumentHelp("The claims file.", valueName: "file"))
    var claims = ReportCommand.defaultClaims

    @Option(help: ArgumentHelp("Where to write report.md and report.html. Default: the run folder.", valueName: "dir"))
    var output: String?

    @Option(
        help: ArgumentHelp("An instruction run (--measure instructions) whose profile.csv gives \"Where the cost goes\". Default: the run's own, if it has one.", valueName: "run"))
    var profile: String?

    @Flag(name: .customLong("no-charts"), help: "Do not run plot-scripts/plot.py when the run has no charts yet.")
    var noCharts = false

    @Flag(name: .customLong("no-claims"), help: "Leave out the claims check (the report then ends with 0 though no claim was judged).")
    var noClaims = false

    func validate() throws {
        if noClaims, claims != Self.defaultClaims { throw ValidationError("--no-claims and --claims conflict") }
    }

    static let defaultClaims = "claims/claims.json"

    func run() throws {
        let folder = URL(fileURLWithPath: runFolder).resolvingSymlinksInPath()
        let rows: [ResultRow]
        do {
            rows = try RunResults.load(folder.path).rows
        } catch {
            Console.error("cannot report on \(runFolder): \(error)")
            throw ExitStatus.failure.exitCode
        }
        let metadata = (try? Data(contentsOf: folder.appendingPathComponent(ResultsDirectory.FileName.metadata))).flatMap { try? JSONDecoder().decode(RunMetadata.self, from: $0) }
        if let problem = metadata?.partialRunProblem { Console.error("WARNING: \(runFolder) is only part of a run; the report says so: \(problem)") }
        let chartNote = noCharts ? nil : drawChartsIfMissing(folder)
        let claimsFile: Result<ClaimsFile, ClaimsError>
        do {
            claimsFile = noClaims ? .failure(.leftOut) : .success(try ClaimsFile.load(claims))
        } catch {
            if FileManager.default.fileExists(atPath: claims) {
                Console.error("\(error)")
                throw ExitStatus.failure.exitCode
            }
            claimsFile = .failure(error)
        }
        let profileFolder = profile.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath() } ?? folder
        var profiles: (summary: ProfileSummary, source: URL)?
        if profile != nil || FileManager.default.fileExists(atPath: profileFolder.appendingPathComponent(ResultsDirectory.profileFileName).path) {
            do {
                profiles = (try ProfileSummary.load(profileFolder.path), profileFolder)
            } catch {
                Console.error("--profile \(profile ?? folder.path): \(error)")
                throw ExitStatus.failure.exitCode
            }
        }
        let report = RunReport(runDirectory: folder, rows: rows, metadata: metadata, claims: claimsFile, chartNote: chartNote, profiles: profiles)
        let destination = output.map { URL(fileURLWithPath: $0) } ?? folder
        do {
            try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
            try Data(report.markdown().utf8).write(to: destination.appendingPathComponent(ResultsDirectory.FileName.reportMarkdown), options: .atomic)
            try Data(report.html().utf8).write(to: destination.appendingPathComponent(ResultsDirectory.FileName.reportHTML), options: .atomic)
        } catch {
            Console.error("cannot write the report into \(destination.path): \(error.localizedDescription)")
            throw ExitStatus.failure.exitCode
        }
        print(destination.appendingPathComponent(ResultsDirectory.FileName.reportMarkdown).path)
        print(destination.appendingPathComponent(ResultsDirectory.FileName.reportHTML).path)
        if let chartNote { Console.error("\(chartNote)") }
        Console.error("claims: \(report.claimsSummary)")
        if report.claimsJudged == 0, !noClaims {
            Console.error("no claim was judged: the report is written, but its claims check is empty (--claims FILE, or --no-claims for a report without one)")
            throw ExitStatus.noClaimsJudged.exitCode
        }
    }

    /// Runs plot.py when the run has no SVG charts; returns what the report should say if it could not.
    private func drawChartsIfMissing(_ folder: URL) -> String? {
        let plots = folder.appendingPathComponent(ResultsDirectory.FileName.plots)
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: plots.path)) ?? []
        if existing.contains(where: { $0.hasSuffix(".svg") }) { return nil }
        let script = "plot-scripts/plot.py"
        guard FileManager.default.fileExists(atPath: script) else {
            return "Charts not drawn: \(script) not found here (run `obsbench report` from the obsbench checkout, or draw them with plot.py first)."
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, folder.path]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        do {
            try process.run()
        } catch {
            return "Charts not drawn: cannot start python3 (\(error.localizedDescription))."
        }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let last = message.split(separator: "\n").last.map(String.init) ?? "exit status \(process.terminationStatus)"
            return "Charts not drawn: `python3 \(script)` failed: \(last) (install matplotlib: `pip install -r plot-scripts/requirements.txt`)."
        }
        return nil
    }
}
