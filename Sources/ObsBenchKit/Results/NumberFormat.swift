import Foundation

/// Every number obsbench writes as text: in `results.csv`, the summary tables, the gate's report,
/// the claims check and rows' notes. One function per kind of number; each says what it prints.
public enum NumberFormat {
    /// A value in `results.csv` and `samples.csv`: whole numbers without a fraction, others with
    /// enough digits to read back the same value, no exponent for ordinary magnitudes (spreadsheets
    /// and pandas read them alike). `csv(42)` is "42", `csv(6.140686)` is "6.140686".
    static func csv(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// A fraction as a percentage, whole where it is: `percent(0.25)` is "25%", `percent(0.005)` is "0.5%".
    /// (Rounded to 4 decimals of a percent, so that 0.03 prints "3%", not its binary neighbour.)
    public static func percent(_ fraction: Double) -> String {
        let percent = (fraction * 100 * 10_000).rounded() / 10_000
        return percent == percent.rounded() ? "\(Int(percent))%" : "\(percent)%"
    }

    /// A fraction as a percentage to two significant figures, for how small a change a verdict
    /// could see: `sensitivity(0.00512)` is "0.51%", `sensitivity(0.8347)` is "83%".
    public static func sensitivity(_ fraction: Double) -> String {
        let percent = fraction * 100
        let text =
            switch abs(percent) {
            case 10...: String(format: "%.0f", percent)
            case 1..<10: String(format: "%.1f", percent)
            default: String(format: "%.2f", percent)
            }
        let trimmed = text.contains(".") ? String(text.reversed().drop { $0 == "0" }.reversed()).trimmingSuffix(".") : text
        return trimmed + "%"
    }

    /// A relative change, signed, one decimal: `change(0.0713)` is "+7.1%", `change(-0.1)` is "-10.0%".
    public static func change(_ fraction: Double) -> String {
        // A change too small for one decimal, but not none, keeps two significant digits: a
        // store's 16 more bytes over 1,000 records is +0.039%, not "+0.0%".
        if fraction != 0, abs(fraction) < 0.0005 { return String(format: "%+.2g%%", fraction * 100) }
        return String(format: "%+.1f%%", fraction * 100)
    }

    /// Nanoseconds, scaled to ns, µs or ms: `nanoseconds(6.14)` is "6.14 ns", `nanoseconds(1_234)` is "1.23 µs".
    static func nanoseconds(_ nanoseconds: Double) -> String {
        switch nanoseconds {
        case ..<10: String(format: "%.2f ns", nanoseconds)
        case ..<1_000: String(format: "%.1f ns", nanoseconds)
        case ..<1_000_000: String(format: "%.2f µs", nanoseconds / 1_000)
        default: String(format: "%.2f ms", nanoseconds / 1_000_000)
        }
    }

    /// A difference in nanoseconds, signed, scaled as ``nanoseconds(_:)`` scales its magnitude:
    /// `signedNanoseconds(52.1)` is "+52.1 ns", `signedNanoseconds(-1_234)` is "-1.23 µs".
    static func signedNanoseconds(_ difference: Double) -> String {
        (difference < 0 ? "-" : "+") + nanoseconds(abs(difference))
    }

    /// A difference in instructions, signed: `signedInstructions(214)` is "+214 Ir", `signedInstructions(-3.5)` is "-3.5 Ir".
    static func signedInstructions(_ difference: Double) -> String {
        (difference < 0 ? "-" : "+") + instructions(abs(difference))
    }

    /// A small cost per unit (ns per view), signed where negative, with two significant digits
    /// below 0.01 ns so that no figure prints as zero: `smallNanoseconds(-0.0017)` is "-0.0017 ns",
    /// `smallNanoseconds(1_940)` is "1.94 µs".
    static func smallNanoseconds(_ value: Double) -> String {
        let magnitude = abs(value)
        guard magnitude < 0.01, magnitude > 0 else { return value < 0 ? signedNanoseconds(value) : nanoseconds(value) }
        let digits = min(9, Int(-log10(magnitude).rounded(.down)) + 2)
        return (value < 0 ? "-" : "") + String(format: "%.\(digits)f ns", magnitude)
    }

    /// Instructions, in Ir or kIr: `instructions(42.5)` is "42.5 Ir", `instructions(824)` is "824 Ir", `instructions(123_456)` is "123.5 kIr".
    public static func instructions(_ instructions: Double) -> String {
        switch abs(instructions) {
        case ..<100: String(format: "%.1f Ir", instructions)
        case ..<100_000: String(format: "%.0f Ir", instructions)
        default: String(format: "%.1f kIr", instructions / 1_000)
        }
    }

    /// Ir/op in a column whose header names the unit: `irPerOperation(42.54)` is "42.5", `irPerOperation(1234.4)` is "1234".
    public static func irPerOperation(_ value: Double) -> String {
        abs(value) < 100 ? String(format: "%.1f", value) : String(format: "%.0f", value)
    }

    /// The same with its sign: "+12.0", "-3.5".
    public static func signedIrPerOperation(_ value: Double) -> String {
        (value >= 0 ? "+" : "") + irPerOperation(value)
    }

    /// Bytes to a tenth, whole without a fraction: `bytes(64)` is "64 B", `bytes(212.46)` is "212.5 B".
    public static func bytes(_ bytes: Double) -> String {
        let rounded = (bytes * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(format: "%.0f B", rounded) : String(format: "%.1f B", rounded)
    }

    /// Bytes in MiB, one decimal: `mebibytes(1_572_864)` is "1.5 MiB".
    static func mebibytes(_ bytes: Double) -> String {
        String(format: "%.1f MiB", bytes / 1_048_576)
    }

    /// A count, whole or to two decimals: `count(3)` is "3", `count(1.234)` is "1.23".
    public static func count(_ count: Double) -> String {
        count == count.rounded() ? String(format: "%.0f", count) : String(format: "%.2f", count)
    }

    /// A ratio, two decimals below 10: `ratio(3.4)` is "3.40", `ratio(12.3)` is "12".
    static func ratio(_ ratio: Double) -> String {
        ratio < 10 ? String(format: "%.2f", ratio) : String(format: "%.0f", ratio)
    }

    /// A fixed number of decimals: `fixed(0.98765, digits: 3)` is "0.988".
    static func fixed(_ value: Double, digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }

    /// A value in the gate's report: whole numbers whole, 4 significant digits below 10, else one
    /// decimal: `compared(2)` is "2", `compared(0.88512)` is "0.8851", `compared(1234.56)` is "1234.6".
    static func compared(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e12 { return String(Int64(value)) }
        return String(format: abs(value) < 10 ? "%.4g" : "%.1f", value)
    }

    /// A baseline and a current value, each as ``compared(_:)`` prints it, unless that prints two
    /// different values alike: then both with as many significant digits as tell them apart (at
    /// most 12). `compared(41.2, 41.216)` is ("41.2", "41.216"), not "41.2" twice.
    static func compared(_ baseline: Double, _ current: Double) -> (baseline: String, current: String) {
        let pair = (compared(baseline), compared(current))
        guard pair.0 == pair.1, baseline != current else { return pair }
        for digits in 5...12 {
            let (a, b) = (String(format: "%.\(digits)g", baseline), String(format: "%.\(digits)g", current))
            if a != b { return (a, b) }
        }
        return pair
    }

    /// A value in the claims check: whole numbers whole, else 0 decimals from 100, 1 from 10, 2
    /// below: `claimed(5)` is "5", `claimed(123.4)` is "123", `claimed(12.34)` is "12.3", `claimed(1.234)` is "1.23".
    static func claimed(_ value: Double) -> String {
        let magnitude = abs(value)
        if value == value.rounded() && magnitude < 1e9 { return String(Int(value)) }
        if magnitude >= 100 { return String(format: "%.0f", value) }
        if magnitude >= 10 { return String(format: "%.1f", value) }
        return String(format: "%.2f", value)
    }

    /// A p-value or significance level, to 4 decimals: `pValue(0.0123456)` is "0.0123", `pValue(0.00001)` is "<0.0001".
    static func pValue(_ p: Double) -> String {
        p < 0.0001 ? "<0.0001" : String((p * 10_000).rounded() / 10_000)
    }

    /// Seconds, whole without a fraction: `seconds(60)` is "60", `seconds(1.5)` is "1.5".
    static func seconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

extension String {
    /// The string without one trailing `suffix`, if it ends with it.
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
