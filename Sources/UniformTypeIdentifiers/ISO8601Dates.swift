#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// Dates as property lists and uti's output write them (`2026-11-26T10:00:00Z`, whole seconds, UTC), and the
/// forms other programs write that uti reads: Foundation's ISO 8601 format styles, each named once.
package enum ISO8601Dates {
    private static let plain = Date.ISO8601FormatStyle()

    /// `date` as `YYYY-MM-DDTHH:MM:SSZ`.
    package static func string(_ date: Date) -> String { plain.format(date) }

    /// The dates `string` writes so that `date` reads them back (to the second): the years 1 to 9999, as the
    /// form's four digits hold them (0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z).
    package static let writable = Date(timeIntervalSinceReferenceDate: -63_114_076_800)...Date(timeIntervalSinceReferenceDate: 252_423_993_599.999_9)

    /// The date `text` writes in exactly the form `string` makes; `nil` for anything else (another form, a
    /// fraction of a second, a zone other than `Z`, a day that does not exist such as 30 February).
    package static func date(_ text: String) -> Date? {
        guard let date = try? plain.parse(text), plain.format(date) == text else { return nil }
        return date
    }

    /// What `rclone lsf --format "pst"` writes (`2026-11-26T21:54:16.241755375+0000`, always with its zone as
    /// ±HHMM), to the second below.
    package static func rcloneSeconds(_ text: String) -> Int64? {
        guard let sign = text.utf8.dropLast(4).last, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
              text.utf8.suffix(4).allSatisfy({ (0x30...0x39).contains($0) }),
              let date = try? rclone.parse(text) else { return nil }
        return Int64(date.timeIntervalSince1970.rounded(.down))
    }

    /// `now` as a conflict version's name has it, `2026-11-26 101500` (UTC).
    package static func conflictStamp(_ now: Date) -> String {
        conflict.format(now)
    }

    private static let rclone = Date.ISO8601FormatStyle(timeZoneSeparator: .omitted, includingFractionalSeconds: true)
    private static let conflict = Date.ISO8601FormatStyle(dateSeparator: .dash, dateTimeSeparator: .space, timeSeparator: .omitted,
                                                          timeZone: .gmt).year().month().day().time(includingFractionalSeconds: false)
}
