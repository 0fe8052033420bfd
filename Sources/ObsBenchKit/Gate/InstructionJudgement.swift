import Foundation

/// How the gate judges one instruction count (Ir/op), counted in memory layouts on both sides.
///
/// Two questions, each with an allowance known before the change: the row's fixed tolerance and
/// the baseline's own layout spread, never the run under test.
/// - **The mean.** The current mean may differ from the baseline's by the larger of the fixed
///   tolerance (``GatePolicy/instructionTolerance(strategy:asynchronous:)``, at least
///   ``GatePolicy/instructionToleranceFloor``) and ``GatePolicy/layoutAllowance(baseline:currentLayouts:)``.
/// - **The layouts.** No current layout may stray from the median of its run's layouts by more than
///   ``GatePolicy/layoutSpreadLimit(baseline:fixed:)``. One that does is named by layout (verdict
///   ``Verdict/spread``) when the mean stays within its allowance. That is a finding, not a failure:
///   the mean is the row's figure (a uniform change of the same mean passes), and runs of one
///   binary stray this far now and then.
///
/// ```swift
/// // results/baseline-instructions' observable write-unobserved: five layouts of 658 Ir/op.
/// // Layout 5 of the run multiplied by 1.5: mean 723.8, allowed ±3.3 (0.5%): a regression,
/// // and the reason names "layout 5 counted 987 Ir/op, beyond ±9.9 of its run's median 658".
/// ```
struct InstructionJudgement {
    var verdict: Verdict = .unchanged
    /// What decided, for the gate's "why" column.
    var reason: String
    /// How far the mean may move either way, Ir/op.
    var allowed: Double
    /// Whether a side had fewer layouts than a spread needs, so the single-layout tolerance applied.
    var singleLayout: Bool
    /// The current run's layouts that strayed from their run's median beyond what the baseline's
    /// layouts allow, with their values.
    var strayLayouts: [(layout: Int, value: Double)] = []

    init(_ old: RunComparison.Measured, _ new: RunComparison.Measured, policy: GatePolicy, asynchronous: Bool) {
        let strategy = old.row.strategy
        // A side without layouts (no samples of the row, or none that are the row's alone: the
        // gate's index decides) is judged on the single-layout tolerance.
        let base = old.roundMedians
        let current = new.roundMedians
        let counted = base.count == current.count ? "\(base.count) layout(s) a side" : "\(base.count) vs \(current.count) layouts"
        let kind = policy.instructionToleranceReason(strategy: strategy, asynchronous: asynchronous)
        singleLayout = base.count < 2 || current.isEmpty
        let tolerance =
            singleLayout
            ? policy.singleLayoutInstructionTolerance(strategy: strategy, asynchronous: asynchronous)
            : policy.instructionTolerance(strategy: strategy, asynchronous: asynchronous)
        // A floor for rows of a few Ir/op, where a few stray instructions of another thread in
        // a window would otherwise exceed a relative tolerance.
        let fixed = max(abs(old.value) * tolerance, GatePolicy.instructionToleranceFloor)
        // The allowance is the baseline's: as if the current run had the baseline's layouts, so
        // a run with fewer cannot widen its own.
        let spread = singleLayout ? 0 : GatePolicy.layoutAllowance(baseline: base, currentLayouts: base.count)
        allowed = max(fixed, spread)
        let share = old.value == 0 ? "" : String(format: " (%.2f%%)", allowed / abs(old.value) * 100)
        let amount = "±\(NumberFormat.irPerOperation(allowed)) \(old.row.unit)\(share)"
        var why =
            singleLayout
            ? "instructions, allowed \(amount) (±\(NumberFormat.percent(tolerance)), \(kind), \(counted): \(policy.singleLayoutReason(strategy: strategy, asynchronous: asynchronous)))"
            : spread > fixed
                ? "instructions, mean of layouts, allowed \(amount): the baseline's layouts spread (\(Int(GatePolicy.layoutStandardErrors)) standard errors; \(kind), \(counted))"
                : "instructions, allowed \(amount) (±\(NumberFormat.percent(tolerance)), \(kind), \(counted))"

        if !singleLayout, current.count >= 2 {
            let limit = GatePolicy.layoutSpreadLimit(baseline: base, fixed: fixed)
            let center = Statistics.percentile(current.sorted(), 0.5)
            let numbers = new.roundNumbers.count == current.count ? new.roundNumbers : Array(1...current.count)
            strayLayouts = zip(numbers, current).filter { abs($0.1 - center) > limit }.map { (layout: $0.0, value: $0.1) }
            if !strayLayouts.isEmpty {
                let named = strayLayouts.map { "layout \($0.layout) counted \(NumberFormat.irPerOperation($0.value))" }.joined(separator: ", ")
                why =
                    "\(named) \(old.row.unit), beyond ±\(NumberFormat.irPerOperation(limit)) of its run's median \(NumberFormat.irPerOperation(center)) "
                    + "that the baseline's layouts (\(NumberFormat.irPerOperation(base.min() ?? 0))–\(NumberFormat.irPerOperation(base.max() ?? 0))) allow: "
                    + "its layouts spread far more than the baseline's; " + why
            }
        }
        if new.value > old.value + allowed {
            verdict = .regression
        } else if !strayLayouts.isEmpty {
            verdict = .spread
        } else if new.value < old.value - allowed {
            verdict = .improvement
        }
        reason = why
    }
}
