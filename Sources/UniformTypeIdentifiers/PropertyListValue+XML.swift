#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif

extension PropertyListValue {
    /// The value as an XML property-list document, as Apple's tools write one (the `plist` DOCTYPE, tabs,
    /// dictionary keys in byte order so that the same value is always the same bytes), which
    /// `PropertyListParser` reads back to the same value. A date is written to the second, in UTC, as the
    /// format has it; a real that is not finite as `nan`, `+infinity` or `-infinity`.
    package var xmlDocument: [UInt8] {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """
        write(into: &text, indent: 0)
        text += "</plist>\n"
        return Array(text.utf8)
    }

    /// `xmlDocument`, refused with the reader's own words when `PropertyListParser` would refuse it under
    /// `limits` (too large, too deep, too many values): what a writer checks before it replaces a file that a
    /// reader with those limits reads, so that nothing it writes is a file nobody can read again.
    /// A date outside the years 1 to 9999 (which an XML property list's four-digit years cannot hold, though
    /// a binary one can) is refused too: written, it would read back as another date or not at all.
    package func xmlDocument(readableWithin limits: PropertyListLimits) throws(PropertyListError) -> [UInt8] {
        if let date = unwritableDate {
            throw PropertyListError("a date \(date.timeIntervalSinceReferenceDate) s from 2001 is outside the years 1 to 9999 that an XML property list holds")
        }
        let document = xmlDocument
        _ = try PropertyListParser.parse(document, limits: limits)
        return document
    }

    /// The first date in the value that `ISO8601Dates.string` cannot write so that it reads back.
    private var unwritableDate: Date? {
        switch self {
        case .date(let date): ISO8601Dates.writable.contains(date) ? nil : date
        case .array(let values): values.lazy.compactMap(\.unwritableDate).first
        case .dictionary(let values): values.values.lazy.compactMap(\.unwritableDate).first
        case .string, .integer, .real, .boolean, .data: nil
        }
    }

    private func write(into text: inout String, indent: Int) {
        let tabs = String(repeating: "\t", count: indent)
        switch self {
        case .string(let value): text += tabs + "<string>" + Self.escaped(value) + "</string>\n"
        case .integer(let value): text += tabs + "<integer>\(value)</integer>\n"
        case .real(let value):
            let written = value.isNaN ? "nan" : value.isInfinite ? (value > 0 ? "+infinity" : "-infinity") : "\(value)"
            text += tabs + "<real>" + written + "</real>\n"
        case .boolean(let value): text += tabs + (value ? "<true/>\n" : "<false/>\n")
        case .data(let value): text += tabs + "<data>" + Data(value).base64EncodedString() + "</data>\n"
        case .date(let value): text += tabs + "<date>" + ISO8601Dates.string(value) + "</date>\n"
        case .array(let values):
            if values.isEmpty {
                text += tabs + "<array/>\n"
                return
            }
            text += tabs + "<array>\n"
            for value in values { value.write(into: &text, indent: indent + 1) }
            text += tabs + "</array>\n"
        case .dictionary(let values):
            if values.isEmpty {
                text += tabs + "<dict/>\n"
                return
            }
            text += tabs + "<dict>\n"
            for key in values.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                text += tabs + "\t<key>" + Self.escaped(key) + "</key>\n"
                values[key]?.write(into: &text, indent: indent + 1)
            }
            text += tabs + "</dict>\n"
        }
    }

    /// `&`, `<` and `>` as entities; a carriage return as a character reference (a parser folds a bare one).
    private static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\r": result += "&#13;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
