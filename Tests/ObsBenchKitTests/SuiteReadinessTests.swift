import BuiltInStrategies
import Foundation
import ObservationStrategies
import Testing

@testable import ObsBenchKit

/// When a run prints a suite's tables (``SuiteReadiness``): once every job of the suite is done
/// and every suite before it printed, whatever order the jobs end in; each suite once, in the
/// plan's order.
@Suite("Suite readiness")
struct SuiteReadinessTests {
    /// The jobs of one suite: every measure × strategy × round.
    static func jobs(_ suite: String, strategies: [String?] = ["plain", "observable"], rounds: Int = 2, measures: [CostMeasure] = [.time]) -> [RunJob] {
        measures.flatMap { measure in
            strategies.flatMap { strategy in (1...rounds).map { RunJob(suite: suite, measure: measure, strategy: strategy, round: $0, rounds: rounds) } }
        }
    }

    @Test("a suite is released only once every strategy, round and measure of it has finished")
    func waitsForEveryJob() {
        let latency = Self.jobs("latency", measures: [.time, .instructions])
        var readiness = SuiteReadiness(suites: ["latency"], jobs: latency)
        for job in latency.dropLast() {
            readiness.finished(job)
            #expect(readiness.release().isEmpty, "released with \(latency.last!) still running")
            #expect(!readiness.isReady("latency"))
        }
        readiness.finished(latency.last!)
        #expect(readiness.isReady("latency"))
        #expect(readiness.release() == ["latency"])
        #expect(readiness.release().isEmpty)
        #expect(readiness.isComplete)
    }

    @Test("a suite done before an earlier one waits for it, and both come out in the plan's order")
    func keepsPlanOrder() {
        let latency = Self.jobs("latency"), hops = Self.jobs("hops", strategies: [nil]), consistency = Self.jobs("consistency")
        var readiness = SuiteReadiness(suites: ["latency", "hops", "consistency"], jobs: latency + hops + consistency)
        for job in hops + consistency { readiness.finished(job) }
        #expect(readiness.isReady("hops") && readiness.isReady("consistency"))
        #expect(readiness.release().isEmpty)
        for job in latency { readiness.finished(job) }
        #expect(readiness.release() == ["latency", "hops", "consistency"])
        #expect(readiness.isComplete)
    }

    @Test("suites run in interleaved rounds: each is released when its own last job ends, if those before it were")
    func interleavedRounds() {
        let latency = Self.jobs("latency", rounds: 3), scaling = Self.jobs("scaling", rounds: 3)
        var readiness = SuiteReadiness(suites: ["latency", "scaling"], jobs: latency + scaling)
        // Round 1 of both, round 2 of both, latency's round 3 (its last), then scaling's.
        let byRound = { (jobs: [RunJob], round: Int) in jobs.filter { $0.round == round } }
        for round in 1...2 {
            for job in byRound(latency, round) + byRound(scaling, round) { readiness.finished(job) }
            #expect(readiness.release().isEmpty, "round \(round)")
        }
        for job in byRound(latency, 3) { readiness.finished(job) }
        #expect(readiness.release() == ["latency"])
        for job in byRound(scaling, 3).dropLast() { readiness.finished(job) }
        #expect(readiness.release().isEmpty)
        readiness.finished(byRound(scaling, 3).last!)
        #expect(readiness.release() == ["scaling"])
    }

    @Test("a suite with no job to run is released as soon as every suite before it is, at the start if it leads")
    func joblessSuites() {
        let latency = Self.jobs("latency")
        var readiness = SuiteReadiness(suites: ["memory", "latency", "hops", "pool"], jobs: latency)
        #expect(readiness.isReady("memory") && readiness.isReady("hops"))
        #expect(readiness.release() == ["memory"])
        for job in latency { readiness.finished(job) }
        #expect(readiness.release() == ["latency", "hops", "pool"])
    }

    @Test("a suite whose tables read a later suite's rows waits for that suite, then both come out in order")
    func waitsForSuitesItReads() {
        let scaling = Self.jobs("scaling"), hops = Self.jobs("hops", strategies: [nil]), memory = Self.jobs("memory")
        var readiness = SuiteReadiness(suites: ["scaling", "hops", "memory"], jobs: scaling + hops + memory, reads: ["scaling": ["memory"]])
        for job in scaling + hops { readiness.finished(job) }
        #expect(!readiness.isReady("scaling") && readiness.isReady("hops"))
        #expect(readiness.release().isEmpty)
        for job in memory { readiness.finished(job) }
        #expect(readiness.release() == ["scaling", "hops", "memory"])
    }

    @Test("a suite that reads another suite's rows waits for them however the jobs interleave; one the run does not run is no wait")
    func readsWithInterleavedJobs() {
        let memory = Self.jobs("memory", rounds: 1), isolation = Self.jobs("store-isolation", strategies: [nil], rounds: 3)
        let reads = ["store-isolation": ["memory"]]
        // Suites side by side: store-isolation's jobs all end before memory's last one.
        var readiness = SuiteReadiness(suites: ["store-isolation", "memory"], jobs: memory + isolation, reads: reads)
        for job in isolation + memory.dropLast() { readiness.finished(job) }
        #expect(readiness.release().isEmpty)
        readiness.finished(memory.last!)
        #expect(readiness.release() == ["store-isolation", "memory"])
        // A run of store-isolation alone.
        var alone = SuiteReadiness(suites: ["store-isolation"], jobs: isolation, reads: reads)
        for job in isolation { alone.finished(job) }
        #expect(alone.release() == ["store-isolation"])
    }

    @Test("a job finished twice, or one the run does not run, changes nothing")
    func repeatedAndForeignJobs() {
        let latency = Self.jobs("latency"), hops = Self.jobs("hops", strategies: [nil])
        var readiness = SuiteReadiness(suites: ["latency", "hops"], jobs: latency + hops)
        readiness.finished(latency[0])
        readiness.finished(latency[0])
        readiness.finished(RunJob(suite: "latency", measure: .time, strategy: "published", round: 1, rounds: 2))
        readiness.finished(RunJob(suite: "scaling", measure: .time, strategy: "plain", round: 1, rounds: 1))
        #expect(!readiness.isReady("latency"))
        #expect(readiness.release().isEmpty)
        for job in latency.dropFirst() { readiness.finished(job) }
        #expect(readiness.release() == ["latency"])
    }

    @Test("in any order the jobs end: each suite once, in order, only when done, and as soon as it may be")
    func anyOrder() {
        let suites = ["latency", "memory", "scaling", "consistency", "hops", "pool"]
        let jobs =
            Self.jobs("latency", rounds: 3, measures: [.time, .instructions]) + Self.jobs("scaling", rounds: 1) + Self.jobs("consistency", rounds: 2)
            + Self.jobs("hops", strategies: [nil], rounds: 4) + Self.jobs("pool", strategies: [nil], rounds: 1)  // memory: none (a shard's)
        // consistency's tables read a later suite's rows, pool's an earlier one's.
        let reads = ["consistency": ["hops"], "pool": ["scaling"]]
        /// Whether `suite`'s jobs, and those of the suites it reads, are all in `finished`.
        func done(_ suite: String, _ finished: Set<RunJob>) -> Bool {
            jobs.filter { ([suite] + (reads[suite] ?? [])).contains($0.suite) }.allSatisfy(finished.contains)
        }
        var generator = SplitMix64(seed: 46)
        for _ in 0..<200 {
            var readiness = SuiteReadiness(suites: suites, jobs: jobs, reads: reads)
            var released = readiness.release()
            var finished: Set<RunJob> = []
            for job in jobs.shuffled(using: &generator) {
                readiness.finished(job)
                finished.insert(job)
                released += readiness.release()
                // In order, each once.
                #expect(Array(suites.prefix(released.count)) == released)
                // Only when done.
                for suite in released {
                    #expect(done(suite, finished), "\(suite) released early")
                }
                // As soon as it may be: the next suite, or one it reads, still has a job running.
                if released.count < suites.count {
                    let next = suites[released.count]
                    #expect(!done(next, finished), "\(next) done but held back")
                }
            }
            #expect(released == suites)
            #expect(readiness.isComplete)
        }
    }

    @Test("from a shard's plan: a suite whose jobs all went to other shards comes first, at once")
    func shardPlan() throws {
        let strategies = StrategyRegistry.all.filter { ["plain", "observable"].contains($0.name) }
        // hops: 1 job (no strategy), numbered 0; consistency: 2 (plain, observable), numbered 1 and 2.
        let plan = RunPlan(
            suites: [.hops, .consistency], strategies: strategies, quick: true, objects: nil, rounds: 1, workerTimeoutSeconds: 60, shard: try RunShard(parsing: "2/3"))
        #expect(plan.jobs.count == 3)
        #expect(plan.selectedJobs.map(\.suite) == ["consistency"])
        var readiness = SuiteReadiness(suites: plan.suites.map(\.name), jobs: plan.selectedJobs)
        #expect(readiness.release() == ["hops"])
        readiness.finished(plan.selectedJobs[0])
        #expect(readiness.release() == ["consistency"])
    }

    @Test("the run's last progress line gives each suite's wall time and its longest worker, and says \"1 worker\" for a suite of one")
    @MainActor
    func timeBySuite() {
        let line = ProgressReporter.timeBySuite([
            .init(suite: "latency", started: 0, ended: 96.4, workers: 80, longestWorker: "grdb-pool (round 3/8)", longestSeconds: 2.2),
            .init(suite: "pool", started: 96.4, ended: 111.6, workers: 1, longestWorker: "pool", longestSeconds: 15.2),
        ])
        #expect(line == "time by suite: latency 1 min 36 s (80 workers, longest grdb-pool (round 3/8) 2 s), pool 15 s (1 worker)")
    }

    @Test("time left weighs each suite's jobs by its budget: half of a quick run's latency workers done leaves the memory suite's few long ones")
    @MainActor
    func timeLeftFromBudgets() {
        let budgets = ["latency": ProgressReporter.Budget(jobs: 88, secondsPerJob: 0.64), "memory": ProgressReporter.Budget(jobs: 11, secondsPerJob: 4.5)]
        // 44 latency workers took 30 s: 44 more at their pace (30 s), and memory at its budget
        // times the run's pace against its budget so far (30 / (44 × 0.64)).
        let left = ProgressReporter.remaining(budgets: budgets, finished: ["latency": 44], suiteSeconds: ["latency": 30], elapsed: 30)
        #expect(abs(left - (30 + 11 * 4.5 * 30 / (44 * 0.64))) < 1e-9)
        // Every job alike would say 30 / 44 × 55 = 37.5 s.
        #expect(left > 80)
        #expect(ProgressReporter.remaining(budgets: budgets, finished: ["latency": 88, "memory": 11], suiteSeconds: [:], elapsed: 100) == 0)
    }
}
