/// Where a JSON document is written, value by value, in order: as bytes (`JSONBytes`, what a server sends and
/// `uti identify --json` prints) or as a `JSONValue` tree (`JSONTreeBuilder`, for a caller that adds members or
/// nests the document in another). A report written once against this protocol is both, and its bytes are made
/// without a tree: a tree of a small object cost more to build and free than to render.
package protocol JSONWriter: ~Copyable {
    mutating func beginObject()
    mutating func endObject()
    mutating func beginArray()
    mutating func endArray()
    /// A member's key, inside an object; its value is what is written next.
    mutating func key(_ key: String)
    /// A key quoted beforehand (a report's own keys, the same in every document).
    mutating func key(_ key: JSONKey)
    mutating func string(_ value: String)
    mutating func integer(_ value: Int)
    /// A finite number; `null` for one that is not.
    mutating func number(_ value: Double)
    mutating func boolean(_ value: Bool)
    mutating func null()
    /// A value made beforehand.
    mutating func value(_ value: JSONValue)
    /// Members made beforehand (`JSONMembers`), inside an object: as if each key and value were written in turn.
    mutating func members(_ members: JSONMembers)
}

/// Members of an object made once and written into many documents as they are: their keys and values, and
/// their compact rendering (`"a":1,"b":[]`), which a writer of bytes copies at once.
package struct JSONMembers: Sendable {
    package let members: [(key: JSONKey, value: JSONValue)]
    /// The members rendered, separated by commas, with no comma before the first or after the last.
    package let encoded: [UInt8]

    package init(_ members: [(key: JSONKey, value: JSONValue)]) {
        self.members = members
        var encoded: [UInt8] = []
        for (index, member) in members.enumerated() {
            if index > 0 { encoded.append(UInt8(ascii: ",")) }
            encoded.append(contentsOf: member.key.encoded)
            encoded.append(contentsOf: member.value.renderedUTF8)
        }
        self.encoded = encoded
    }
}

/// A member's key and its quoted form (`"path":`), made once: a report writes the same keys into every
/// document, and copies them as they are.
package struct JSONKey: Sendable, ExpressibleByStringLiteral {
    package let text: String
    /// The key quoted, with the colon after it.
    package let encoded: [UInt8]

    package init(_ text: String) {
        self.text = text
        var encoded: [UInt8] = []
        JSONValue.quote(text, into: &encoded)
        encoded.append(UInt8(ascii: ":"))
        self.encoded = encoded
    }

    package init(stringLiteral value: String) {
        self.init(value)
    }
}

extension JSONWriter where Self: ~Copyable {
    /// The string, or `null`.
    package mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    /// A member whose value is a string, or `null`.
    package mutating func member(_ key: JSONKey, _ value: String?) {
        self.key(key)
        string(value)
    }

    /// A member whose value is `true` or `false`.
    package mutating func member(_ key: JSONKey, _ value: Bool) {
        self.key(key)
        boolean(value)
    }

    /// An array of strings.
    package mutating func strings(_ values: some Sequence<String>) {
        beginArray()
        for value in values { string(value) }
        endArray()
    }

    package mutating func members(_ members: JSONMembers) {
        for index in members.members.indices {
            key(members.members[index].key)
            value(members.members[index].value)
        }
    }

    package mutating func value(_ value: JSONValue) {
        switch value {
        case .string(let string): self.string(string)
        case .integer(let number): integer(number)
        case .number(let number): self.number(number)
        case .boolean(let flag): boolean(flag)
        case .null: null()
        case .array(let values):
            beginArray()
            // By index: the elements are read in place, not copied out (and retained) one by one.
            for index in values.indices { self.value(values[index]) }
            endArray()
        case .object(let members):
            beginObject()
            for index in members.indices {
                key(members[index].0)
                self.value(members[index].1)
            }
            endObject()
        }
    }
}

/// A JSON document written as compact UTF-8 bytes (no spaces, no newline).
package struct JSONBytes: JSONWriter, ~Copyable {
    private var output: ByteWriter
    /// Whether the next value or key follows another in its container, and needs a comma.
    private var follows = false

    /// A writer whose bytes hold `capacity` before they grow.
    package init(capacity: Int = 1024) {
        output = ByteWriter(capacity: capacity)
    }

    /// The document's bytes, as an array.
    package var bytes: [UInt8] { output.bytes }

    /// The document's bytes, to read while the writer lives.
    package func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try output.withBytes(body)
    }

    private mutating func separate() {
        if follows { output.append(UInt8(ascii: ",")) }
    }

    private mutating func open(_ bracket: UInt8) {
        separate()
        output.append(bracket)
        follows = false
    }

    private mutating func close(_ bracket: UInt8) {
        output.append(bracket)
        follows = true
    }

    package mutating func beginObject() { open(UInt8(ascii: "{")) }
    package mutating func endObject() { close(UInt8(ascii: "}")) }
    package mutating func beginArray() { open(UInt8(ascii: "[")) }
    package mutating func endArray() { close(UInt8(ascii: "]")) }

    package mutating func key(_ key: String) {
        separate()
        JSONValue.quote(key, into: &output)
        output.append(UInt8(ascii: ":"))
        follows = false
    }

    package mutating func key(_ key: JSONKey) {
        separate()
        output.append(bytes: key.encoded)
        follows = false
    }

    package mutating func members(_ members: JSONMembers) {
        guard !members.encoded.isEmpty else { return }
        separate()
        output.append(bytes: members.encoded)
        follows = true
    }

    package mutating func string(_ value: String) {
        separate()
        JSONValue.quote(value, into: &output)
        follows = true
    }

    package mutating func integer(_ value: Int) {
        separate()
        output.append(utf8: String(value))
        follows = true
    }

    package mutating func number(_ value: Double) {
        separate()
        output.append(utf8: value.isFinite ? String(value) : "null")
        follows = true
    }

    package mutating func boolean(_ value: Bool) {
        separate()
        output.append(utf8: value ? "true" : "false")
        follows = true
    }

    package mutating func null() {
        separate()
        output.append(utf8: "null")
        follows = true
    }
}

/// A JSON document written as a `JSONValue` tree (`value`, once the outermost container has ended).
package struct JSONTreeBuilder: JSONWriter {
    private enum Container {
        case object([(String, JSONValue)])
        case array([JSONValue])
    }

    /// The document: the outermost value written.
    package private(set) var value: JSONValue = .null
    /// The containers begun and not yet ended, innermost last, each with the key it is the value of.
    private var open: [(container: Container, key: String?)] = []
    /// The key of the value written next, inside an object.
    private var pendingKey: String?

    package init() {}

    private mutating func add(_ value: JSONValue) {
        guard var top = open.popLast() else {
            self.value = value
            return
        }
        // The container lets go of its elements first, so that they grow in place, not as a copy.
        switch top.container {
        case .object(var members):
            top.container = .array([])
            members.append((pendingKey ?? "", value))
            top.container = .object(members)
        case .array(var values):
            top.container = .array([])
            values.append(value)
            top.container = .array(values)
        }
        pendingKey = nil
        open.append(top)
    }

    package mutating func beginObject() {
        open.append((.object([]), pendingKey))
        pendingKey = nil
    }

    package mutating func beginArray() {
        open.append((.array([]), pendingKey))
        pendingKey = nil
    }

    package mutating func endObject() { end() }
    package mutating func endArray() { end() }

    private mutating func end() {
        guard let (container, key) = open.popLast() else { return }
        pendingKey = key
        switch container {
        case .object(let members): add(.object(members))
        case .array(let values): add(.array(values))
        }
    }

    package mutating func key(_ key: String) { pendingKey = key }
    package mutating func key(_ key: JSONKey) { pendingKey = key.text }
    package mutating func string(_ value: String) { add(.string(value)) }
    package mutating func integer(_ value: Int) { add(.integer(value)) }
    package mutating func number(_ value: Double) { add(.number(value)) }
    package mutating func boolean(_ value: Bool) { add(.boolean(value)) }
    package mutating func null() { add(.null) }
    package mutating func value(_ value: JSONValue) { add(value) }
}
