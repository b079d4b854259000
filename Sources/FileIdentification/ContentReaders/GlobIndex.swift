#if canImport(Glibc)
import Glibc
#endif

/// shared-mime-info's `globs2` (`weight:type:glob[:flags]` lines), looked up by type without a string per line.
///
/// The first lookups of a process search the bytes (`scan`), one pass for all the types asked about: a
/// command that identifies one file pays tens of microseconds. A classification, which asks about many files,
/// builds the index (`init`) once: a hash table from each type's bytes to the chain of lines that name it.
/// Types compare ASCII-case-insensitively; globs come back lower-cased, as names are matched.
struct GlobIndex: Sendable {
    private struct Line: Sendable {
        var typeStart: Int32
        var typeEnd: Int32
        var globStart: Int32
        var globEnd: Int32
        var weight: Int32
        /// The next line naming the same type, or -1.
        var next: Int32
    }

    private let bytes: [UInt8]
    private let lines: [Line]
    /// Open addressing, linear probing: 0 for an empty slot, else the index of a chain's first line plus one.
    private let slots: [Int32]

    /// Calls `body` with the type range, glob range and weight of every well-formed line (comments and
    /// lines without a weight and a type left out).
    fileprivate static func forEachLine(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>, Range<Int>, Int) -> Void) {
        guard let base = bytes.baseAddress else { return }
        var start = 0
        while start < bytes.count {
            let end = memchr(base + start, 0x0A, bytes.count - start).map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? bytes.count
            defer { start = end + 1 }
            guard end > start, bytes[start] != UInt8(ascii: "#") else { continue }
            var weight = 0
            var cursor = start
            while cursor < end, bytes[cursor] >= 0x30, bytes[cursor] <= 0x39 {
                weight = weight &* 10 &+ Int(bytes[cursor] - 0x30)
                cursor += 1
            }
            guard cursor > start, cursor < end, bytes[cursor] == UInt8(ascii: ":") else { continue }
            let typeStart = cursor + 1
            guard let typeColon = memchr(base + typeStart, Int32(UInt8(ascii: ":")), end - typeStart) else { continue }
            let typeEnd = base.distance(to: typeColon.assumingMemoryBound(to: UInt8.self))
            let globStart = typeEnd + 1
            let globEnd = memchr(base + globStart, Int32(UInt8(ascii: ":")), end - globStart)
                .map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? end
            body(typeStart..<typeEnd, globStart..<globEnd, weight)
        }
    }

    /// The globs of each of `mimeTypes` (lower-cased) in `bytes`, by searching: one pass over the lines.
    static func scan(_ bytes: [UInt8], for mimeTypes: [String]) -> [[(glob: String, weight: Int)]] {
        let keys = mimeTypes.map { Array($0.utf8) }
        var found = [[(glob: String, weight: Int)]](repeating: [], count: keys.count)
        bytes.withUnsafeBufferPointer { buffer in
            forEachLine(buffer) { type, glob, weight in
                for index in 0..<keys.count where equal(buffer, type, keys[index]) {
                    found[index].append((lowercasedString(buffer, glob), weight))
                }
            }
        }
        return found
    }

    /// An index of `bytes`.
    init(_ bytes: [UInt8]) {
        var lines: [Line] = []
        var slots: [Int32] = []
        bytes.withUnsafeBufferPointer { buffer in
            var lineCount = 1
            for byte in buffer where byte == 0x0A { lineCount += 1 }
            // At least twice as many slots as lines, so that probing always ends at an empty one.
            var slotCount = 16
            while slotCount < lineCount * 2 { slotCount *= 2 }
            slots = [Int32](repeating: 0, count: slotCount)
            lines.reserveCapacity(lineCount)
            Self.forEachLine(buffer) { type, glob, weight in
                let index = Int32(lines.count)
                var line = Line(typeStart: Int32(type.lowerBound), typeEnd: Int32(type.upperBound), globStart: Int32(glob.lowerBound),
                                globEnd: Int32(glob.upperBound), weight: Int32(clamping: weight), next: -1)
                var slot = Int(Self.hash(buffer, type) & UInt32(slotCount - 1))
                while true {
                    let head = slots[slot]
                    if head == 0 { break }
                    let first = lines[Int(head - 1)]
                    if Self.equal(buffer, type, buffer, Int(first.typeStart)..<Int(first.typeEnd)) {
                        line.next = head - 1
                        break
                    }
                    slot = (slot + 1) & (slotCount - 1)
                }
                slots[slot] = index + 1
                lines.append(line)
            }
        }
        self.bytes = bytes
        self.lines = lines
        self.slots = slots
    }

    /// The globs naming `mimeType` (lower-cased), with their weights.
    func globs(of mimeType: String) -> [(glob: String, weight: Int)] {
        guard !lines.isEmpty else { return [] }
        let key = Array(mimeType.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            key.withUnsafeBufferPointer { key in
                var slot = Int(Self.hash(key, 0..<key.count) & UInt32(slots.count - 1))
                while true {
                    let head = slots[slot]
                    if head == 0 { return [] }
                    let first = lines[Int(head - 1)]
                    if Self.equal(buffer, Int(first.typeStart)..<Int(first.typeEnd), key, 0..<key.count) {
                        var found: [(glob: String, weight: Int)] = []
                        var index = Int(head - 1)
                        while index >= 0 {
                            let line = lines[index]
                            found.append((Self.lowercasedString(buffer, Int(line.globStart)..<Int(line.globEnd)), Int(line.weight)))
                            index = Int(line.next)
                        }
                        return found
                    }
                    slot = (slot + 1) & (slots.count - 1)
                }
            }
        }
    }

    // MARK: Bytes

    fileprivate static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    fileprivate static func lowercasedString(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: buffer[range].map(lowercased), as: UTF8.self)
    }

    /// FNV-1a over the bytes, ASCII case folded.
    private static func hash(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for index in range { hash = (hash ^ UInt32(lowercased(buffer[index]))) &* 16_777_619 }
        return hash
    }

    fileprivate static func equal(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ key: [UInt8]) -> Bool {
        key.withUnsafeBufferPointer { equal(buffer, range, $0, 0..<$0.count) }
    }

    private static func equal(_ left: UnsafeBufferPointer<UInt8>, _ leftRange: Range<Int>,
                              _ right: UnsafeBufferPointer<UInt8>, _ rightRange: Range<Int>) -> Bool {
        guard leftRange.count == rightRange.count else { return false }
        for offset in 0..<leftRange.count where lowercased(left[leftRange.lowerBound + offset]) != lowercased(right[rightRange.lowerBound + offset]) {
            return false
        }
        return true
    }
}

extension GlobIndex {
    /// The globs of each of `mimeTypes` (lower-cased) in a `globs2` written sorted by weight (highest first),
    /// then type (in ASCII lower case), then pattern, as uti's own compiler writes the built-in one (a test checks): binary searches
    /// in place, a few for each weight, and nothing read that is not asked for.
    static func sortedLookup(_ bytes: [UInt8], for mimeTypes: [String]) -> [[(glob: String, weight: Int)]] {
        bytes.withUnsafeBufferPointer { sortedLookup($0, for: mimeTypes) }
    }

    /// `sortedLookup` in bytes held elsewhere (the built-in file, in place).
    static func sortedLookup(_ buffer: UnsafeBufferPointer<UInt8>, for mimeTypes: [String]) -> [[(glob: String, weight: Int)]] {
        let keys = mimeTypes.map { Array($0.utf8) }
        var found = [[(glob: String, weight: Int)]](repeating: [], count: keys.count)
        do {
            guard let base = buffer.baseAddress else { return found }
            // Past the comment lines at the top.
            var start = 0
            while start < buffer.count, buffer[start] == UInt8(ascii: "#") {
                start = (memchr(base + start, 0x0A, buffer.count - start).map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? buffer.count) + 1
            }
            let dataStart = start
            func lineEnd(_ start: Int) -> Int {
                memchr(base + start, 0x0A, buffer.count - start).map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? buffer.count
            }
            /// The weight and type of the line starting at `start`.
            func fields(_ start: Int) -> (weight: Int, type: Range<Int>, glob: Range<Int>)? {
                var result: (weight: Int, type: Range<Int>, glob: Range<Int>)?
                let end = lineEnd(start)
                forEachLine(UnsafeBufferPointer(rebasing: buffer[start..<end])) { type, glob, weight in
                    result = (weight, (type.lowerBound + start)..<(type.upperBound + start), (glob.lowerBound + start)..<(glob.upperBound + start))
                }
                return result
            }
            /// The first line in `low..<high` (line starts) for which `isAfter` holds, which holds for every
            /// line after it once it does.
            func lowerBound(_ low: Int, _ high: Int, _ isAfter: (Int, Range<Int>) -> Bool) -> Int {
                var low = low, high = high
                while low < high {
                    var line = (low + high) / 2
                    while line > low, buffer[line - 1] != 0x0A { line -= 1 }
                    let end = lineEnd(line)
                    if let parsed = fields(line), isAfter(parsed.weight, parsed.type) {
                        high = line
                    } else {
                        low = end + 1
                    }
                }
                return low
            }
            var block = dataStart
            while block < buffer.count, let first = fields(block) {
                let weight = first.weight
                let blockEnd = lowerBound(block, buffer.count) { lineWeight, _ in lineWeight < weight }
                for index in 0..<keys.count {
                    let key = keys[index]
                    var line = lowerBound(block, blockEnd) { _, type in
                        !UnsafeBufferPointer(rebasing: buffer[type]).lazy.map(lowercased).lexicographicallyPrecedes(key)
                    }
                    while line < blockEnd, let parsed = fields(line), equal(buffer, parsed.type, key) {
                        found[index].append((lowercasedString(buffer, parsed.glob), parsed.weight))
                        line = lineEnd(line) + 1
                    }
                }
                block = blockEnd
            }
        }
        return found
    }
}
