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
    package func xmlDocument(readableWithin limits: PropertyListLimits) throws(PropertyListError) -> [UInt8] {
        let document = xmlDocument
        _ = try PropertyListParser.parse(document, limits: limits)
        return document
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
        case .data(let value): text += tabs + "<data>" + Base64.encode(Array(value)) + "</data>\n"
        case .date(let value): text += tabs + "<date>" + Self.iso8601(value.timeIntervalSince1970) + "</date>\n"
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

    /// `YYYY-MM-DDTHH:MM:SSZ` for seconds since 1970 (the proleptic Gregorian calendar, UTC).
    private static func iso8601(_ seconds: Double) -> String {
        let time = CivilTime(secondsSince1970: seconds)
        let year = time.year >= 0 && time.year < 10_000 ? String(repeating: "0", count: 4 - String(time.year).count) + String(time.year) : String(time.year)
        return "\(year)-\(CivilTime.twoDigits(time.month))-\(CivilTime.twoDigits(time.day))T\(CivilTime.twoDigits(time.hour)):"
            + "\(CivilTime.twoDigits(time.minute)):\(CivilTime.twoDigits(time.second))Z"
    }
}

/// A moment as a date and a time of day in UTC, in the proleptic Gregorian calendar, without Foundation's
/// calendars (Howard Hinnant's days-to-civil).
package struct CivilTime: Sendable, Hashable {
    package var year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64

    package init(secondsSince1970 seconds: Double) {
        let whole = Int64(seconds.rounded(.down))
        let days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let secondOfDay = whole - days * 86_400
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        hour = secondOfDay / 3_600
        minute = secondOfDay % 3_600 / 60
        second = secondOfDay % 60
    }

    /// `7` as `07`.
    package static func twoDigits(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// Seconds since 1970 of a date and time of day in UTC, in the proleptic Gregorian calendar (Howard
    /// Hinnant's days-from-civil); a date that does not exist (30 February) comes out as another.
    package static func secondsSince1970(year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * 86_400 + hour * 3_600 + minute * 60 + second
    }
}
