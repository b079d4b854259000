import Hummingbird
import Testing
@testable import UTIService

/// The request log line's pieces that are formatted by hand: the duration and the timestamp.
@Suite("The request log's formatting")
struct LogLineTests {
    @Test("a duration is whole milliseconds, a point and three digits of microseconds, truncated; never negative")
    func durations() {
        let cases: [(Duration, String)] = [
            (.zero, "0.000"), (.nanoseconds(999), "0.000"), (.microseconds(1), "0.001"), (.microseconds(999), "0.999"),
            (.microseconds(1000), "1.000"), (.microseconds(10_010), "10.010"), (.microseconds(1_234_567), "1234.567"),
            (.seconds(86_400), "86400000.000"), (.microseconds(-5), "0.000"), (.seconds(-3), "0.000"),
        ]
        for (duration, text) in cases {
            #expect(RequestLogMiddleware<BasicRequestContext>.milliseconds(duration) == text, "\(duration)")
        }
    }

    @Test("the timestamp is UTC to the millisecond, in ISO 8601's form")
    func timestamp() throws {
        let text = LogfmtLogHandler.timestamp()
        #expect(text.utf8.count == 24, "\(text)")
        let pattern = try Regex(#"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$"#)
        #expect(text.wholeMatch(of: pattern) != nil, "\(text)")
    }
}
