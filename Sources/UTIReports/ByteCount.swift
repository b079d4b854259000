/// A number of bytes as the options that take one read it (`--below-free 2G`, `uti-server --max-body 10M`):
/// digits, or a number with K, M, G or T (powers of 1,024; `KiB`, `KB` and `k` alike); and how every command
/// prints one.
package struct ByteCount: Sendable, CustomStringConvertible {
    package var bytes: Int64

    package init(bytes: Int64) { self.bytes = bytes }

    /// The count `argument` writes, `nil` for anything else (a negative number, a fraction of a byte, an unknown
    /// unit, more than 2⁶³ bytes).
    package init?(argument: String) {
        let text = argument.lowercased()
        let number = text.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        var unit = Substring(text.dropFirst(number.count))
        if unit.hasSuffix("ib") { unit = unit.dropLast(2) } else if unit.hasSuffix("b") { unit = unit.dropLast() }
        let shifts: [Substring: Int64] = ["": 0, "k": 10, "m": 20, "g": 30, "t": 40]
        guard !number.isEmpty, let shift = shifts[unit], let value = Double(number), value.isFinite else { return nil }
        guard shift > 0 || !number.contains(".") else { return nil }
        let product = value * Double(Int64(1) << shift)
        guard product < 9.2e18 else { return nil }
        bytes = Int64(product)
    }

    /// The shortest way to write the count that reads back the same (`4G`, `32M`, `500`): how a default is shown.
    package var description: String {
        for (suffix, shift) in [("T", 40), ("G", 30), ("M", 20), ("K", 10)] where bytes > 0 && bytes % (Int64(1) << shift) == 0 {
            return "\(bytes >> shift)\(suffix)"
        }
        return "\(bytes)"
    }

    /// `1.5 MiB`, `512 bytes`: how every command prints a number of bytes (powers of 1,024, as the options
    /// that take one read it).
    package static func describe(_ bytes: Int64) -> String {
        guard bytes >= 1024 else { return "\(bytes) byte\(bytes == 1 ? "" : "s")" }
        var value = Double(bytes)
        var unit = 0
        let units = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB"]
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}
