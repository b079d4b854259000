import Hummingbird
import Testing
import UTIReports
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

    @Test("the request's line is the general line of the same fields: metadata merged where its keys fall, numbers in decimal, values quoted alike")
    func requestLine() {
        var handler = LogfmtLogHandler(label: "uti/test")
        handler.metadata = ["hb.request.id": "0123abcd", "a.first": "x y", "zz.last": "q\"uote", "method2": "=", "requestID": "shadow"]
        let metadata = handler.metadata.map { (key: $0.key, value: $0.value.description) }
        let fields: [(key: String, value: LogfmtLogHandler.RequestValue)] = [
            ("bytesIn", .number(4228)), ("bytesOut", .number(0)), ("durationMs", .text("0.250")), ("method", .text("PUT")),
            ("requestID", .text("0123abcd")), ("route", .text("/identify")), ("status", .number(-1)),
        ]
        var request = ByteWriter(capacity: 16), general = ByteWriter(capacity: 16)
        handler.renderRequest(fields, metadata: metadata, into: &request)
        handler.render(level: .info, message: "request", fields: metadata + fields.map { field in
            switch field.value {
            case .text(let text): (field.key, text)
            case .number(let number): (field.key, String(number))
            }
        }, into: &general)
        /// The line without its timestamp, which the two calls took apart.
        func untimed(_ line: borrowing ByteWriter) -> String {
            line.withBytes { String(decoding: $0, as: UTF8.self) }.split(separator: " ", maxSplits: 1).last.map(String.init) ?? ""
        }
        #expect(untimed(request) == untimed(general))
        #expect(untimed(request) == "level=info logger=uti/test msg=request a.first=\"x y\" bytesIn=4228 bytesOut=0 durationMs=0.250 "
                + "hb.request.id=0123abcd method=PUT method2=\"=\" requestID=shadow requestID=0123abcd route=/identify status=-1 "
                + "zz.last=\"q\\\"uote\"\n")
    }
}
