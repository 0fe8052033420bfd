import Foundation

/// Swift symbol names made readable, with the demangler `swift demangle` uses (the Swift runtime's
/// `swift_demangle`), and the module a demangled name's code comes from.
///
/// ```swift
/// Demangler.demangle("$s11ObsBenchKit6CanaryV4spinyySiFZ")  // "static ObsBenchKit.Canary.spin(Swift.Int) -> ()"
/// Demangler.module(of: "generic specialization <…> of Observation.ObservationRegistrar.access<…>")  // "Observation"
/// ```
public enum Demangler {
    /// The demangled form of a Swift symbol; any other name (C, C++, an address) unchanged.
    public static func demangle(_ symbol: String) -> String {
        guard symbol.hasPrefix("$s") || symbol.hasPrefix("_$s") || symbol.hasPrefix("$S") || symbol.hasPrefix("_T0") else { return symbol }
        guard let result = Array(symbol.utf8).withUnsafeBufferPointer({ runtimeDemangle($0.baseAddress, $0.count, nil, nil, 0) }) else { return symbol }
        defer { free(result) }
        return String(cString: result)
    }

    /// The module whose code a demangled name is: for a specialisation, the generic's; for a
    /// closure or a witness, the function or conformance it belongs to; nil for a C symbol.
    public static func module(of name: String) -> String? {
        var text = Substring(name)
        // "generic specialization <Types…> of Module.function": the types are not the code's module.
        while let marker = text.range(of: "specialization <"), marker.lowerBound < (text.firstIndex(of: "(") ?? text.endIndex) {
            var depth = 0
            var index = text.index(before: marker.upperBound)
            while index < text.endIndex {
                if text[index] == "<" { depth += 1 } else if text[index] == ">" { depth -= 1; if depth == 0 { break } }
                index = text.index(after: index)
            }
            guard index < text.endIndex, let of = text[index...].range(of: " of ") else { return nil }
            text = text[of.upperBound...]
        }
        // "closure #1 (…) in Module.f", "protocol witness for P.f in conformance T : P in Module".
        if text.contains("closure #") || text.contains(" in conformance "), let last = text.range(of: " in ", options: .backwards) {
            text = text[last.upperBound...]
            if text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) { return String(text) }
        }
        if text.hasPrefix("(extension in "), let close = text.firstIndex(of: ")") {
            return String(text[text.index(text.startIndex, offsetBy: "(extension in ".count)..<close])
        }
        // The first `Identifier.` at the start of a word, where identifiers of modules begin with a
        // capital or an underscore (obsbench's own executable module excepted).
        var start = text.startIndex
        while start < text.endIndex {
            let atWordStart = start == text.startIndex || " (<[:,".contains(text[text.index(before: start)])
            if atWordStart, let first = text[start].unicodeScalars.first, first.properties.isUppercase || first == "_" || text[start...].hasPrefix("obsbench.") {
                var end = start
                while end < text.endIndex, text[end].isLetter || text[end].isNumber || text[end] == "_" { end = text.index(after: end) }
                if end < text.endIndex, text[end] == ".", end > start { return String(text[start..<end]) }
            }
            start = text.index(after: start)
        }
        return nil
    }
}

/// The Swift runtime's demangler (exported by libswiftCore, the one `swift demangle` links):
/// returns a malloc'd C string, or nil when the name is not a Swift symbol.
@_silgen_name("swift_demangle")
private func runtimeDemangle(
    _ mangledName: UnsafePointer<UInt8>?, _ mangledNameLength: Int, _ outputBuffer: UnsafeMutablePointer<CChar>?,
    _ outputBufferSize: UnsafeMutablePointer<Int>?, _ flags: UInt32
) -> UnsafeMutablePointer<CChar>?
