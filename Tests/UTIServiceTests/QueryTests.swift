import Testing
@testable import UTIService

/// The query parameters the handlers read: split as Hummingbird's `URI.queryParameters` splits them, looked up
/// by comparing the keys themselves.
@Suite("A request's query parameters")
struct QueryTests {
    @Test("values are percent-decoded, a malformed escape keeps the value as it came, bytes that are not UTF-8 become U+FFFD")
    func decoding() {
        let query = Responses.Query("name=caf%C3%A9%20menu.png&raw=100%&half=%4&hex=%4a%4B&plus=a+b&bad=caf%E9")
        #expect(query.get("name") == "café menu.png")
        #expect(query.get("raw") == "100%")
        #expect(query.get("half") == "%4")
        #expect(query.get("hex") == "JK")
        #expect(query.get("plus") == "a+b")
        #expect(query.get("bad") == "caf\u{FFFD}")
    }

    @Test("the first pair with the key wins; a key without = has an empty value; absent keys and empty queries give nil")
    func lookup() {
        let query = Responses.Query("mode=first&flag&mode=second&=orphan&empty=")
        #expect(query.get("mode") == "first")
        #expect(query.get("flag") == "")
        #expect(query.get("empty") == "")
        #expect(query.get("") == "orphan")
        #expect(query.get("missing") == nil)
        #expect(query.get("mod") == nil)
        #expect(Responses.Query("").get("mode") == nil)
        #expect(Responses.Query("").pairs.isEmpty)
        #expect(Responses.Query("a=1&&b=2").pairs.map(\.key) == ["a", "b"])
    }

    @Test("split on the byte &, as Hummingbird's parser splits: a combining mark after it does not hide it, leading and trailing ones make no pair")
    func splitOnBytes() {
        let query = Responses.Query("a=1&\u{301}b=2&")
        #expect(query.pairs.map(\.key) == ["a", "\u{301}b"])
        #expect(query.get("a") == "1")
        #expect(Responses.Query("&name=x.png").pairs.map(\.key) == ["name"])
    }

    @Test("an = inside the value belongs to the value")
    func equalsInValue() {
        #expect(Responses.Query("expr=a=b=c").get("expr") == "a=b=c")
    }

    @Test("Accept names text/plain among its media ranges, in any case, with parameters and white space; nothing else does")
    func acceptsPlainText() {
        #expect(Responses.acceptsPlainText(accept: "text/plain"))
        #expect(Responses.acceptsPlainText(accept: "application/json, Text/Plain; charset=utf-8"))
        #expect(Responses.acceptsPlainText(accept: "*/*;q=0.1,\ttext/plain ;q=0.9"))
        #expect(!Responses.acceptsPlainText(accept: nil))
        #expect(!Responses.acceptsPlainText(accept: "*/*"))
        #expect(!Responses.acceptsPlainText(accept: "text/plainer, text/html"))
        #expect(!Responses.acceptsPlainText(accept: "text/plai"))
        #expect(!Responses.acceptsPlainText(accept: ""))
        #expect(Responses.acceptsPlainText(accept: "text/plain,"))
        #expect(!Responses.acceptsPlainText(accept: ";text/plain"))
    }

    @Test("a weight of zero says text/plain is not acceptable; a quoted parameter's commas and semicolons separate nothing")
    func acceptWeights() {
        #expect(!Responses.acceptsPlainText(accept: "text/plain;q=0, application/json"))
        #expect(!Responses.acceptsPlainText(accept: "TEXT/PLAIN ; Q=0.000"))
        #expect(!Responses.acceptsPlainText(accept: "text/plain;q=0."))
        #expect(Responses.acceptsPlainText(accept: "text/plain;q=0.001"))
        #expect(Responses.acceptsPlainText(accept: "text/plain;q=1"))
        #expect(Responses.acceptsPlainText(accept: "text/plain;charset=utf-8;q=0.5"))
        #expect(!Responses.acceptsPlainText(accept: "application/json;x=\"1, text/plain, 2\""))
        #expect(!Responses.acceptsPlainText(accept: "application/json;x=\"a\\\", text/plain, b\""))
        #expect(Responses.acceptsPlainText(accept: "application/json;x=\"a;b\", text/plain"))
    }
}
