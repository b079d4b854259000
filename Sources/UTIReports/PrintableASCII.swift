/// Whether bytes are printable ASCII (0x20 to 0x7E), eight at a time: a line the command line writes is looked at
/// whole before it is written, and a JSON string is written as it is when none of its bytes needs an escape.
package enum PrintableASCII {
    /// Whether every byte of `bytes` is printable ASCII, and, unless `quotes` allows them, none is `"` or `\`.
    @inline(__always)
    package static func test(_ bytes: UnsafeBufferPointer<UInt8>, allowingQuotes quotes: Bool) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let ones: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080
        var index = 0
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            // A byte below 0x20 borrows into its high bit when 0x20 is taken from each; a byte above 0x7E
            // carries into it when one is added, or has it already; a byte equal to one looked for is a zero
            // byte once that one is taken away, and borrows. Each answer is exact for the word.
            var flagged = ((word &- ones &* 0x20) & ~word) | (word &+ ones) | word
            if !quotes {
                let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5C)
                flagged |= ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
            }
            if flagged & high != 0 { return false }
            index += 8
        }
        while index < bytes.count {
            let byte = base[index]
            if byte < 0x20 || byte >= 0x7F || (!quotes && (byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\"))) { return false }
            index += 1
        }
        return true
    }
}
