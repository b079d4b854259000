/// Fixed-size integers read from bytes, for the readers of binary formats (ZIP, OLE2, ELF, PNG): the one
/// place byte order is dealt with. A read past the end is `nil`, never a trap: the bytes come from files.
///
/// A value is an `Int`, so that offsets and sizes can be compared and added without conversions, and
/// never a negative one: a 64-bit value of 2^63 or more, which no offset or size in a real file reaches,
/// is `nil` too, so that a reader that checks a value against the file's size has checked it enough for
/// the arithmetic that follows (a wrapped value would pass as negative and overflow a subtraction).
extension Array where Element == UInt8 {
    /// The unsigned integer of `size` bytes (1 to 8) at `offset`, in the given byte order; `nil` past the
    /// end or above `Int.max`.
    @inline(__always)
    func unsignedInteger(at offset: Int, size: Int, bigEndian: Bool) -> Int? {
        guard offset >= 0, size > 0, size <= 8, offset <= count - size else { return nil }
        var value: UInt64 = 0
        for index in 0..<size {
            value = value << 8 | UInt64(self[offset + (bigEndian ? index : size - 1 - index)])
        }
        return Int(exactly: value)
    }

    /// A little-endian 16-bit integer at `offset`.
    func littleEndian16(at offset: Int) -> Int? { unsignedInteger(at: offset, size: 2, bigEndian: false) }
    /// A little-endian 32-bit integer at `offset`.
    func littleEndian32(at offset: Int) -> Int? { unsignedInteger(at: offset, size: 4, bigEndian: false) }
    /// A little-endian 64-bit integer at `offset` (`nil` above `Int.max`).
    func littleEndian64(at offset: Int) -> Int? { unsignedInteger(at: offset, size: 8, bigEndian: false) }
    /// A big-endian 32-bit integer at `offset`.
    func bigEndian32(at offset: Int) -> Int? { unsignedInteger(at: offset, size: 4, bigEndian: true) }
}
