@testable import ContainerSync
import Testing

/// rclone 1.60's bisync listings, as the sync reads what a dead run listed before its first transfer: each
/// line's size, time and path (quoted as Go's `%q` quotes), against lines written as rclone writes them.
@Suite("rclone's listings, read back")
struct DeadRunListingsTests {
    @Test("a listing line: size, time with its zone, and the path", arguments: [
        (#"-        2 md5:60b725f10c9c85c70d97880dfe8191b3 - 2026-11-26T21:54:16.241755375+0000 "a.txt""#, "a.txt", 2, Int64(1_795_730_056)),
        (#"-   300000 - - 2026-11-26T22:54:16.000000000+0100 "Documents/notes.txt""#, "Documents/notes.txt", 300_000, Int64(1_795_730_056)),
        (#"-        0 - - 1970-01-01T00:00:00.000000000-0130 "x""#, "x", 0, Int64(5_400)),
        (#"-        7 - - 2024-02-29T12:00:00.5+0000 "with \"quotes\" and \\ and \n and \t""#, "with \"quotes\" and \\ and \n and \t", 7, Int64(1_709_208_000)),
        (#"-        7 - - 2024-02-29T12:00:00.5+0000 "caf\u00e9 \U0001f600 \xff \101""#, "café 😀 \u{FFFD} A", 7, Int64(1_709_208_000)),
    ] as [(String, String, Int, Int64)])
    func line(text: String, path: String, size: Int, seconds: Int64) throws {
        let (parsedPath, entry) = try #require(DeadRunListings.parse(Array(text.utf8)[...]))
        #expect(parsedPath == path)
        #expect(entry == DeadRunListings.Entry(size: size, seconds: seconds))
    }

    @Test("what is not a listing line is left alone", arguments: [
        "# bisync listing v1 from 2026-11-26T21:54:16.348165709+0000",
        #"-        2 - - 2026-11-26T21:54:16+0000 "unterminated"#,
        #"-       -2 - - 2026-11-26T21:54:16+0000 "negative""#,
        #"-        2 - - 2026-13-26T21:54:16+0000 "month 13""#,
        #"-        2 - - 2026-11-26T21:54:16Z "no offset""#,
        #"-        2 - - 2026-11-26T21:54:16+0000 "bad \q escape""#,
        #"-        2 - - 2026-11-26T21:54:16+0000 "cut \x4""#,
        #"-        2 - 2026-11-26T21:54:16+0000 "four fields""#,
        "",
    ])
    func notALine(text: String) {
        #expect(DeadRunListings.parse(Array(text.utf8)[...]) == nil)
    }
}
