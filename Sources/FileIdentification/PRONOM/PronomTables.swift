internal import CTypeDatabase

/// PRONOM's formats and signatures as `compile-typedb` wrote them into `pronom.c` (the layout is described in
/// CTypeDatabase.h), read in place: static data, never written, shared by every thread.
struct PronomTables: @unchecked Sendable {
    let tests: UnsafeBufferPointer<UInt32>
    let alternatives: UnsafeBufferPointer<UInt32>
    let elements: UnsafeBufferPointer<UInt32>
    let subsequences: UnsafeBufferPointer<UInt32>
    let sequences: UnsafeBufferPointer<UInt32>
    let signatures: UnsafeBufferPointer<UInt32>
    let containerSignatures: UnsafeBufferPointer<UInt32>
    let containerEntries: UnsafeBufferPointer<UInt32>
    let formats: UnsafeBufferPointer<UInt32>
    let references: UnsafeBufferPointer<UInt32>
    let bytes: UnsafeBufferPointer<UInt8>
    let strings: UnsafeBufferPointer<UInt8>

    static let shared = PronomTables()

    static let unbounded = UInt32.max
    static let formatWords = 12

    private init() {
        func table(_ index: UInt32) -> UnsafeBufferPointer<UInt32> {
            var count = 0
            let words = uti_pronom_words(index, &count)
            return UnsafeBufferPointer(start: words, count: words == nil ? 0 : count)
        }
        tests = table(0)
        alternatives = table(1)
        elements = table(2)
        subsequences = table(3)
        sequences = table(4)
        signatures = table(5)
        containerSignatures = table(6)
        containerEntries = table(7)
        formats = table(8)
        references = table(9)
        var count = 0
        let pool = uti_pronom_bytes(&count)
        bytes = UnsafeBufferPointer(start: pool, count: pool == nil ? 0 : count)
        var stringCount = 0
        let text = uti_pronom_strings(&stringCount)
        strings = UnsafeBufferPointer(start: UnsafeRawPointer(text)?.assumingMemoryBound(to: UInt8.self), count: text == nil ? 0 : stringCount)
    }

    /// The NUL-terminated string at `offset` in the pool; "" for none or out of range.
    func string(_ offset: UInt32) -> String {
        guard offset != Self.unbounded, Int(offset) < strings.count else { return "" }
        var end = Int(offset)
        while end < strings.count, strings[end] != 0 { end += 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: strings[Int(offset)..<end]), as: UTF8.self)
    }

    var formatCount: Int { formats.count / Self.formatWords }
    var signatureCount: Int { signatures.count / 3 }

    /// The references of format `format`'s list `list` (0 extensions, 1 priorities over, 2 signatures, 3 container signatures).
    func formatList(_ format: Int, _ list: Int) -> UnsafeBufferPointer<UInt32> {
        let base = format * Self.formatWords + 4 + list * 2
        let first = Int(formats[base]), count = Int(formats[base + 1])
        guard first + count <= references.count else { return UnsafeBufferPointer(rebasing: references[0..<0]) }
        return UnsafeBufferPointer(rebasing: references[first..<first + count])
    }

    func puid(_ format: Int) -> String { string(formats[format * Self.formatWords]) }
    func name(_ format: Int) -> String { string(formats[format * Self.formatWords + 1]) }
    func version(_ format: Int) -> String { string(formats[format * Self.formatWords + 2]) }
    func mimeType(_ format: Int) -> String? {
        let offset = formats[format * Self.formatWords + 3]
        return offset == Self.unbounded ? nil : string(offset)
    }

    static var signatureFileVersion: Int { Int(uti_pronom_signature_file_version()) }
    static var containerFileVersion: Int { Int(uti_pronom_container_file_version()) }
}
