import Foundation

/// `obsbench merge`: joins the folders of a run's N shards (`--shard K/N`, ``RunShard``), made on
/// several machines, into the run folder one machine would have written: `results.csv`,
/// `rounds.csv`, `samples.csv`, `profile.csv`, `profiles/`, `run.json` and the `latest` link, which
/// `gate`, `report` and `export` read as any run.
///
/// Nothing is concatenated from the shards' `results.csv`: each job's whole output (`jobs/`,
/// ``JobRecord``) is recorded again through ``RunRecorder``, the path a run takes, so the rows
/// pooled over rounds and memory layouts, and the profiles' means over layouts, are computed over
/// every shard's rounds at once. Everything a report derives across strategies (× plain, the
/// harness's share) is then derived from those rows as for any run.
///
/// Shards are refused (``Failure`` with ``ExitStatus/usage``), naming the folders, when they do not
/// make one run: a shard missing or given twice, a folder that is not a shard, one interrupted or
/// still running, or shards made differently: another command line (apart from `--shard`,
/// `--output`, `--jobs`, `--format` and `--worker-timeout`, which do not change what is measured),
/// git revision, toolchain, build, CPU model, core count, allocator or instruction-counting set-up.
///
/// ```swift
/// let merged = try ShardMerge.merge(shards: ["shard-1/latest", "shard-2/latest"], output: "results")
/// print(merged.runDirectory.path)   // results/<run-id>, with results/latest pointing at it
/// ```
@MainActor
public enum ShardMerge {
    /// Why the shards were not merged.
    public struct Failure: Error, CustomStringConvertible {
        public var status: ExitStatus
        public var description: String
    }

    /// One shard as read from its folder.
    struct Shard {
        var folder: URL
        var metadata: RunMetadata
        var shard: RunShard
    }

    /// Options that may differ between shards: they do not change what a job measures.
    static let optionsThatMayDiffer: Set<String> = ["--shard", "--output", "--jobs", "--format", "--worker-timeout"]

    /// Checks the shards and writes the merged run into a new folder under `output`, pointing
    /// `<output>/latest` at it. `shards` are shard folders or the `--output` folders their runs
    /// wrote (then their `latest`).
    public static func merge(shards paths: [String], output: String) throws(Failure) -> ResultsDirectory {
        let shards = try load(paths)
        let problems = refusals(shards)
        guard problems.isEmpty else {
            throw Failure(
                status: .usage,
                description: "the shards do not make one run, so they were not merged:\n" + problems.map { "  - \($0)" }.joined(separator: "\n"))
        }
        let ordered = shards.sorted { $0.shard.index < $1.shard.index }
        let plan = ordered[0].metadata.jobs ?? []
        var records: [JobRecord] = []
        for shard in ordered {
            for (number, _) in plan.enumerated() where shard.shard.selects(jobNumber: number) {
                do {
                    records.append(try JobRecord.read(number: number, from: shard.folder.appendingPathComponent(ResultsDirectory.FileName.jobs)))
                } catch {
                    throw Failure(status: .usage, description: "shard \(shard.shard) (\(shard.folder.path)) lacks job \(number), \(plan[number]): \(error)")
                }
                if records.last?.job != plan[number] {
                    throw Failure(
                        status: .usage, description: "shard \(shard.shard) (\(shard.folder.path)): job \(number) is \(records.last!.job), its run.json says \(plan[number])")
                }
            }
        }
        let startTimes = ordered.map(\.metadata.time).sorted()
        let start = ISO8601DateFormatter().date(from: startTimes[0]) ?? Date()
        let runID = RunSession.newRunID(for: start, in: output)
        let directory: ResultsDirectory
        do {
            directory = try ResultsDirectory(output: output, runID: runID)
        } catch {
            throw Failure(status: .cannotWriteOutput, description: "\(error)")
        }
        let failures = record(records, plan: plan, runID: runID, into: directory)
        guard failures.isEmpty else {
            throw Failure(status: .cannotWriteOutput, description: "cannot write the merged run: " + failures.joined(separator: "; "))
        }
        var metadata = ordered[0].metadata
        metadata.runID = runID
        metadata.time = startTimes[0]
        metadata.finishedTime = ordered.compactMap(\.metadata.finishedTime).max()
        metadata.host = ordered.map(\.metadata.host).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }.joined(separator: ", ")
        metadata.status = ordered.contains { $0.metadata.status == .completedWithErrors } ? .completedWithErrors : .completed
        metadata.commandLine = removingOption("--shard", from: metadata.commandLine)
        metadata.shard = nil
        metadata.jobs = nil
        metadata.mergedShards = ordered.map(\.metadata.runID)
        do {
            try directory.writeMetadata(metadata)
            try directory.markLatest()
        } catch {
            throw Failure(status: .cannotWriteOutput, description: "cannot finish \(directory.runDirectory.path): \(error)")
        }
        return directory
    }

    /// Records every job through ``RunRecorder`` as one run would: suite by suite (each measure of
    /// it in turn), each suite's jobs round by round, then its rounds pooled. Returns what could
    /// not be written.
    static func record(_ records: [JobRecord], plan: [RunJob], runID: String, into directory: ResultsDirectory) -> [String] {
        let recorder = RunRecorder(directory: directory, keepsJobs: false)
        var failures: [String] = []
        var blocks: [(suite: String, measure: CostMeasure, jobs: [RunJob])] = []
        for job in plan {
            if let last = blocks.last, last.suite == job.suite, last.measure == job.measure {
                blocks[blocks.count - 1].jobs.append(job)
            } else {
                blocks.append((job.suite, job.measure, [job]))
            }
        }
        let byJob = Dictionary(records.map { ($0.job, $0) }, uniquingKeysWith: { first, _ in first })
        // Each shard's profiles name the stripped copy of its worker by a scratch path of its own
        // (and a machine may keep a library elsewhere): an object file is named as the first
        // profile names a file of its name, so the layouts' means add up the same functions.
        var objects: [String: String] = [:]
        func canonical(_ object: String) -> String {
            let name = URL(fileURLWithPath: object).lastPathComponent
            if let known = objects[name] { return known }
            objects[name] = object
            return object
        }
        for block in blocks {
            let strategies = block.jobs.map(\.strategyName).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            recorder.beginSuite(block.suite, strategies: strategies)
            // The order one run starts them in: round after round, the strategies taking turns.
            let order = block.jobs.sorted { ($0.round, strategies.firstIndex(of: $0.strategyName)!) < ($1.round, strategies.firstIndex(of: $1.strategyName)!) }
            for job in order {
                guard let record = byJob[job] else { continue }
                var output = record.output
                for index in output.rows.indices { output.rows[index].runID = runID }
                for index in output.samples.indices { output.samples[index].runID = runID }
                output.profiles = output.profiles.map { $0.renamingObjects(canonical) }
                do {
                    try recorder.record(job, number: record.number, output: output)
                } catch {
                    failures.append("\(job): \(error.localizedDescription)")
                }
            }
            failures += recorder.finishSuite()
        }
        return failures
    }

    /// Reads each folder's `run.json` (a folder, or the `latest` link in it).
    static func load(_ paths: [String]) throws(Failure) -> [Shard] {
        guard !paths.isEmpty else { throw Failure(status: .usage, description: "give the shards' folders: obsbench merge SHARD_DIR... --output DIR") }
        var shards: [Shard] = []
        for path in paths {
            var folder = URL(fileURLWithPath: path).resolvingSymlinksInPath()
            let latest = folder.appendingPathComponent(ResultsDirectory.FileName.latest)
            if !FileManager.default.fileExists(atPath: folder.appendingPathComponent(ResultsDirectory.FileName.metadata).path),
                FileManager.default.fileExists(atPath: latest.path)
            {
                folder = latest.resolvingSymlinksInPath()
            }
            let file = folder.appendingPathComponent(ResultsDirectory.FileName.metadata)
            guard let data = FileManager.default.contents(atPath: file.path) else {
                throw Failure(status: .failure, description: "\(path): no run.json (not a run folder, nor a folder with a latest link to one)")
            }
            let metadata: RunMetadata
            do {
                metadata = try JSONDecoder().decode(RunMetadata.self, from: data)
            } catch {
                throw Failure(status: .failure, description: "\(file.path): unreadable run.json: \(error)")
            }
            guard let shard = metadata.shard, metadata.jobs != nil else {
                throw Failure(status: .usage, description: "\(path) is not a shard: it was run without --shard K/N, so it is a whole run already")
            }
            shards.append(Shard(folder: folder, metadata: metadata, shard: shard))
        }
        return shards
    }

    /// Why `shards` do not make one run; empty when they do.
    static func refusals(_ shards: [Shard]) -> [String] {
        var problems: [String] = []
        let counts = Set(shards.map(\.shard.count))
        if counts.count > 1 {
            problems.append("the shards were cut in different numbers of parts: " + shards.map { "\($0.folder.path) is \($0.shard)" }.joined(separator: ", "))
        }
        let count = shards[0].shard.count
        let byIndex = Dictionary(grouping: shards, by: \.shard.index)
        let missing = (1...count).filter { byIndex[$0] == nil }
        if counts.count == 1, !missing.isEmpty {
            problems.append("shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)/\(count)" }.joined(separator: ", ")) missing: every one of the \(count) is needed")
        }
        for (index, given) in byIndex.sorted(by: { $0.key < $1.key }) where given.count > 1 {
            problems.append("shard \(index)/\(given[0].shard.count) given \(given.count) times: \(given.map(\.folder.path).joined(separator: ", "))")
        }
        for shard in shards where shard.metadata.status == .running || shard.metadata.status == .interrupted {
            problems.append("shard \(shard.shard) (\(shard.folder.path)) did not finish: run.json says \(shard.metadata.status.rawValue); run it again")
        }
        let first = shards.min { $0.shard.index < $1.shard.index }!
        for other in shards where other.folder != first.folder {
            for (fact, a, b) in zip(facts(first.metadata), facts(other.metadata)).map({ ($0.0.name, $0.0.value, $0.1.value) }) where a != b {
                problems.append("made differently: \(fact): shard \(first.shard) (\(first.folder.path)) has \(a), shard \(other.shard) (\(other.folder.path)) has \(b)")
            }
            let (a, b) = (first.metadata.jobs ?? [], other.metadata.jobs ?? [])
            if a != b {
                let number = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
                let (x, y) = (number < a.count ? "\(a[number])" : "none", number < b.count ? "\(b[number])" : "none")
                problems.append(
                    "made differently: the plan's jobs: shard \(first.shard) lists \(a.count), shard \(other.shard) \(b.count); job \(number) is \(x) in the one, \(y) in the other"
                )
            }
        }
        return problems
    }

    /// The facts of a shard's `run.json` that must be the same in every shard of one run.
    static func facts(_ run: RunMetadata) -> [(name: String, value: String)] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        func json(_ value: some Encodable) -> String {
            (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
        }
        var commandLine = Array(run.commandLine.dropFirst())
        for option in optionsThatMayDiffer { commandLine = removingOption(option, from: commandLine) }
        return [
            ("command line (apart from \(optionsThatMayDiffer.sorted().joined(separator: ", ")))", commandLine.joined(separator: " ")),
            ("git revision", run.gitRevision),
            ("Swift toolchain", run.toolchain ?? "unknown"),
            ("Swift version", run.swiftVersion),
            ("build configuration", run.buildConfiguration),
            ("CPU model", run.cpuModel),
            ("core count", String(run.coreCount)),
            ("allocator", run.allocator),
            ("measure", run.measuresOrDefault.map(\.rawValue).joined(separator: " and ")),
            ("--quick", String(run.quick)),
            ("worker rounds", json(run.rounds)),
            ("instruction counting", json(run.instructionCounting)),
            ("strategies", json(run.strategyDetails)),
        ]
    }

    /// `arguments` without `option` and its value (`--option V` or `--option=V`).
    static func removingOption(_ option: String, from arguments: [String]) -> [String] {
        var kept: [String] = []
        var skipNext = false
        for argument in arguments {
            if skipNext {
                skipNext = false
            } else if argument == option {
                skipNext = true
            } else if !argument.hasPrefix(option + "=") {
                kept.append(argument)
            }
        }
        return kept
    }
}
