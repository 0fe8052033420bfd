import Foundation
import ObservationStrategies

/// Runs one worker process (the obsbench binary's hidden `worker` command, or any executable in
/// tests), enforces its timeout, and reads back the rows it wrote. A crash, a hang past the
/// timeout, a non-zero exit or unreadable output becomes a failure with a clear message, never a
/// crash of the parent.
public final class WorkerLauncher: Sendable {
    public enum Outcome: Sendable {
        case finished(WorkloadOutput)
        case failed(String)
    }

    /// The workers running now (instruction workers may run side by side), so that a signal
    /// handler can stop them.
    private let running = Locked<[Int32: Process]>([:])

    public init() {}

    /// Runs `executable arguments… --rows-file F --samples-file G` and reads F and G.
    public func run(executable: String, arguments: [String], timeoutSeconds: Double, environment: [String: String]? = nil) async -> Outcome {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("obsbench-worker-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        } catch {
            return .failed("cannot create a scratch folder for the worker: \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(at: scratch) }
        let rowsFile = scratch.appendingPathComponent("rows.csv")
        let samplesFile = scratch.appendingPathComponent(ResultsDirectory.FileName.samples)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments + ["--rows-file", rowsFile.path, "--samples-file", samplesFile.path]
        if let environment { process.environment = environment }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.standardError

        let exited = ExitWaiter()
        process.terminationHandler = { _ in exited.exited() }
        do {
            try process.run()
        } catch {
            return .failed("cannot start worker \(executable): \(error.localizedDescription)")
        }
        let pid = process.processIdentifier
        running.withLock { $0[pid] = process }
        defer { running.withLock { $0[pid] = nil } }

        let timedOut = await exited.wait(timeoutSeconds: timeoutSeconds) == false
        if timedOut {
            process.terminate()
            if await exited.wait(timeoutSeconds: 2) == false {
                kill(process.processIdentifier, SIGKILL)
                _ = await exited.wait(timeoutSeconds: 5)
            }
            return .failed("worker timed out after \(NumberFormat.seconds(timeoutSeconds)) s and was stopped")
        }
        if process.terminationReason == .uncaughtSignal {
            return .failed("worker crashed (signal \(process.terminationStatus)\(Self.signalName(process.terminationStatus)))")
        }
        guard process.terminationStatus == 0 else {
            return .failed("worker exited with status \(process.terminationStatus)")
        }
        do {
            let rows = try ResultsReader.read(file: rowsFile.path)
            let samples = try SamplesReader.read(file: samplesFile.path)
            return .finished(WorkloadOutput(rows: rows, samples: samples))
        } catch {
            return .failed("worker wrote unreadable results: \(error)")
        }
    }

    /// Stops the running workers, if any (for SIGINT/SIGTERM in the parent).
    public func terminateCurrentWorker() {
        running.withLock { processes in
            for process in processes.values where process.isRunning { process.terminate() }
        }
    }

    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGSEGV: ", SIGSEGV"
        case SIGABRT: ", SIGABRT"
        case SIGILL: ", SIGILL: a Swift runtime trap"
        case SIGTRAP: ", SIGTRAP: a Swift runtime trap"
        case SIGKILL: ", SIGKILL"
        case SIGTERM: ", SIGTERM"
        case SIGINT: ", SIGINT"
        case SIGBUS: ", SIGBUS"
        default: ""
        }
    }
}

/// Waits for a process's termination handler, with a timeout, without blocking a thread.
final class ExitWaiter: Sendable {
    private struct State {
        var hasExited = false
        var waiters: [UUID: CheckedContinuation<Bool, Never>] = [:]
    }

    private let state = Locked(State())

    func exited() {
        let waiters = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.hasExited = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: true) }
    }

    /// True when the process exited, false when the timeout passed first.
    func wait(timeoutSeconds: Double) async -> Bool {
        let key = UUID()
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let done = state.withLock { state -> Bool in
                if state.hasExited { return true }
                state.waiters[key] = continuation
                return false
            }
            if done {
                continuation.resume(returning: true)
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeoutSeconds) { [self] in
                let waiter = state.withLock { $0.waiters.removeValue(forKey: key) }
                waiter?.resume(returning: false)
            }
        }
    }
}
