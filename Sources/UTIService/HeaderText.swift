import HTTPTypes

extension StringProtocol {
    /// The text without the spaces and tabs (HTTP's optional white space, RFC 9110 5.6.3) at either end, by
    /// bytes: header values are parsed on every request, and trimming them by characters cost a tenth of a
    /// small request's time.
    func trimmingHeaderWhitespace() -> String {
        let bytes = Substring(self).utf8
        // Only ASCII bytes are dropped: what is left is whole scalars.
        return String(decoding: bytes[HeaderText.trimmed(bytes, bytes.startIndex..<bytes.endIndex)], as: UTF8.self)
    }
}

enum HeaderText {
    /// `range` of `bytes` without the spaces and tabs at either end (HTTP's optional white space).
    static func trimmed<Bytes: BidirectionalCollection<UInt8>>(_ bytes: Bytes, _ range: Range<Bytes.Index>) -> Range<Bytes.Index> {
        var first = range.lowerBound, last = range.upperBound
        while first < last, bytes[first] == 0x20 || bytes[first] == 0x09 { first = bytes.index(after: first) }
        while last > first, bytes[bytes.index(before: last)] == 0x20 || bytes[bytes.index(before: last)] == 0x09 { last = bytes.index(before: last) }
        return first..<last
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
