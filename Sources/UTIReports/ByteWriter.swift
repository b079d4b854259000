/// Where bytes are appended one piece after another: an array of bytes, or a `ByteWriter`.
package protocol ByteSink: ~Copyable {
    mutating func append(_ byte: UInt8)
    mutating func append(bytes: UnsafeBufferPointer<UInt8>)
}

extension ByteSink where Self: ~Copyable {
    /// A string's UTF-8 bytes, copied at once where they lie together (a native string's do). Inlinable, as the
    /// rest of a `ByteWriter`'s appends, so that other modules' writers (the request log) copy in place.
    @inlinable
    package mutating func append(utf8 text: String) {
        let copied = text.utf8.withContiguousStorageIfAvailable { append(bytes: $0) } != nil
        if !copied {
            for byte in text.utf8 { append(byte) }
        }
    }

    @inlinable
    package mutating func append(bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append(bytes: $0) }
    }

    /// An integer in decimal (`-` before a negative one), its digits written in place: no string made for it.
    @inlinable
    package mutating func append(decimal value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var rest = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var at = digits.count
            repeat {
                at -= 1
                digits[at] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0
            append(bytes: UnsafeBufferPointer(rebasing: digits[at...]))
        }
    }
}

extension Array: ByteSink where Element == UInt8 {
    @inlinable
    package mutating func append(bytes: UnsafeBufferPointer<UInt8>) {
        append(contentsOf: bytes)
    }
}

/// Bytes written into storage of the writer's own, which grows as they come, with no copy-on-write check per
/// piece: a record (a JSON answer, a log line) is written as some forty small pieces, and an array's appends
/// cost more than the copies. Not copyable: one writer, one owner, its storage freed with it.
package struct ByteWriter: ByteSink, ~Copyable {
    @usableFromInline var start: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    @usableFromInline var written = 0

    package init(capacity: Int = 1024) {
        self.capacity = max(capacity, 16)
        start = .allocate(capacity: self.capacity)
    }

    deinit {
        start.deallocate()
    }

    /// The bytes written so far.
    package var count: Int { written }

    /// Room for `extra` more bytes.
    @inlinable @inline(__always)
    mutating func reserve(_ extra: Int) {
        if written + extra > capacity { grow(extra) }
    }

    @usableFromInline
    mutating func grow(_ extra: Int) {
        let grown = max(capacity * 2, written + extra)
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        larger.initialize(from: start, count: written)
        start.deallocate()
        start = larger
        capacity = grown
    }

    @inlinable @inline(__always)
    package mutating func append(_ byte: UInt8) {
        reserve(1)
        (start + written).initialize(to: byte)
        written += 1
    }

    @inlinable @inline(__always)
    package mutating func append(bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (start + written).initialize(from: base, count: bytes.count)
        written += bytes.count
    }

    /// A string's UTF-8 bytes. The writer's own (the protocol's, called on a writer from another module, went
    /// through its witness table for each piece of a log line).
    @inlinable @inline(__always)
    package mutating func append(utf8 text: String) {
        var text = text
        text.withUTF8 { append(bytes: $0) }
    }

    /// Forgets the bytes from `count` on (all of them for 0); the storage stays for what comes next.
    package mutating func truncate(to count: Int) {
        written = min(max(count, 0), written)
    }

    /// The bytes written, to read while the writer lives.
    package func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: start, count: written))
    }

    /// The bytes written, as an array.
    package var bytes: [UInt8] {
        withBytes { Array($0) }
    }
}
