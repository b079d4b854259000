import HTTPTypes

extension StringProtocol {
    /// The text without the spaces and tabs (HTTP's optional white space, RFC 9110 5.6.3) at either end, by
    /// bytes: header values are parsed on every request, and trimming them by characters cost a tenth of a
    /// small request's time.
    func trimmingHeaderWhitespace() -> String {
        let bytes = Substring(self).utf8
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }),
              let last = bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return "" }
        // Only ASCII bytes are dropped: what is left is whole scalars.
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}

extension HTTPFields {
    /// What `self[name]` answers (the values of every field named `name`, joined by commas), without the generic
    /// join of a lazy sequence for the one field a request usually has: read a few times on every request.
    func value(_ name: HTTPField.Name) -> String? {
        guard let first = firstIndex(where: { $0.name == name }) else { return nil }
        guard self[index(after: first)...].contains(where: { $0.name == name }) else { return self[first].value }
        return self[name]
    }
}
