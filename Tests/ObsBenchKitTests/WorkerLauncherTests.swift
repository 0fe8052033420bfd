import Foundation
import ObsBenchKit
import Testing

/// The launcher runs real processes: here small shell scripts standing in for a worker that
/// crashes, hangs, fails or prints garbage, and one that writes valid rows.
@Suite("Worker processes")
struct WorkerLauncherTests {
    /// Runs `script` as the worker; the launcher appends `--rows-file F --samples-file G`, which the
    /// script sees as $1..$4.
    func launch(_ script: String, timeout: Double = 20) async -> WorkerLauncher.Outcome {
        await WorkerLauncher().run(executable: "/bin/sh", arguments: ["-c", script, "worker"], timeoutSeconds: timeout)
    }

    func failure(_ outcome: WorkerLauncher.Outcome) -> String? {
        if case .failed(let message) = outcome { return message }
        return nil
    }

    @Test("a worker killed by a signal becomes a failure naming the signal")
    func crash() async {
        let message = await failure(launch("kill -SEGV $$"))
        #expect(message?.contains("crashed (signal 11, SIGSEGV)") == true, "\(message ?? "finished")")
    }

    @Test("a worker that exits non-zero becomes a failure with its status")
    func nonZeroExit() async {
        #expect(await failure(launch("exit 3")) == "worker exited with status 3")
    }

    @Test("a worker that hangs past its timeout is stopped and becomes a failure")
    func hang() async {
        let message = await failure(launch("sleep 30", timeout: 0.5))
        #expect(message == "worker timed out after 0.5 s and was stopped")
    }

    @Test("a worker that writes garbage becomes a failure naming the file and line")
    func garbage() async {
        let message = await failure(launch("printf 'not,a,header\\n' > \"$2\"; printf '' > \"$4\""))
        #expect(message?.contains("worker wrote unreadable results") == true)
        #expect(message?.contains("rows.csv:1") == true, "\(message ?? "finished")")
    }

    @Test("a worker's valid rows and samples are read back")
    func success() async throws {
        let row = ResultRow(
            runID: "r", suite: "latency", workload: "read-untracked", strategy: "plain", executor: "main-actor", objects: 10, subscribers: 0, concurrency: 1, metric: .latency,
            unit: "ns/op", statistics: Statistics([1, 2, 3]))
        let sample = SampleRow(runID: "r", suite: "latency", workload: "read-untracked", strategy: "plain", metric: .latency, unit: "ns/op", index: 0, value: 2)
        let rows = (CSV.line(ResultRow.columns) + CSV.line(row.fields)).replacingOccurrences(of: "'", with: "'\\''")
        let samples = (CSV.line(SampleRow.columns) + CSV.line(sample.fields)).replacingOccurrences(of: "'", with: "'\\''")
        let outcome = await launch("printf '%s' '\(rows)' > \"$2\"; printf '%s' '\(samples)' > \"$4\"")
        guard case .finished(let output) = outcome else {
            Issue.record("expected rows, got \(outcome)")
            return
        }
        #expect(output.rows == [row])
        #expect(output.samples == [sample])
    }
}
