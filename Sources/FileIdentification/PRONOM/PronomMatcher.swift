#if canImport(Glibc)
import Glibc
#endif
internal import CByteScan

/// The bytes of a file PRONOM's signatures are matched against: its first bytes and its last, as far as they were
/// read (a byte between the two is unknown, and a pattern that needs it is "cut short", never assumed). Owned
/// buffers, so that the search reads them in place without counting references.
final class PronomBytes {
    /// The file's bytes from offset 0.
    private(set) var front: UnsafeMutableBufferPointer<UInt8>
    /// Whether `front` is this object's own (else the caller's, read in place: never written).
    private var ownsFront = true
    /// The file's last bytes: offsets `backStart ..< size`.
    private(set) var back: UnsafeMutableBufferPointer<UInt8>
    let size: Int

    init(front bytes: [UInt8], size: Int) {
        self.size = size
        front = Self.copy(bytes.prefix(size))
        back = UnsafeMutableBufferPointer(start: nil, count: 0)
    }

    /// The caller's first bytes, read in place: the object must not outlive them.
    init(borrowing bytes: UnsafeBufferPointer<UInt8>, size: Int) {
        self.size = size
        front = UnsafeMutableBufferPointer(mutating: UnsafeBufferPointer(rebasing: bytes.prefix(size)))
        ownsFront = false
        back = UnsafeMutableBufferPointer(start: nil, count: 0)
    }

    deinit {
        if ownsFront { front.deallocate() }
        back.deallocate()
    }

    private static func copy(_ bytes: ArraySlice<UInt8>) -> UnsafeMutableBufferPointer<UInt8> {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
        _ = buffer.initialize(from: bytes)
        return UnsafeMutableBufferPointer(rebasing: buffer[0..<bytes.count])
    }

    /// Reads the beginning up to `count` bytes: what was read kept, the rest read into place.
    func extendFront(to count: Int, from source: some ByteSource) throws(IdentificationError.Reason) {
        let count = min(count, size)
        guard count > front.count else { return }
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: count)
        let kept = front.count
        _ = UnsafeMutableBufferPointer(rebasing: buffer[0..<kept]).initialize(fromContentsOf: front)
        let read: Int
        do {
            read = try source.read(at: kept, into: UnsafeMutableBufferPointer(rebasing: buffer[kept..<count]))
        } catch {
            buffer.deallocate()
            throw error
        }
        if ownsFront { front.deallocate() }
        front = UnsafeMutableBufferPointer(rebasing: buffer[0..<kept + read])
        ownsFront = true
    }

    /// Reads the last `count` bytes.
    func readBack(_ count: Int, from source: some ByteSource) throws(IdentificationError.Reason) {
        let count = min(count, size)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(count, 1))
        let read: Int
        do {
            read = try source.read(at: size - count, into: UnsafeMutableBufferPointer(rebasing: buffer[0..<count]))
        } catch {
            buffer.deallocate()
            throw error
        }
        back.deallocate()
        // A file that shrank while read has no known last bytes: nothing was read at the offsets asked for.
        back = UnsafeMutableBufferPointer(rebasing: buffer[0..<(read == count ? count : 0)])
    }

    var known: Int { front.count }
    var backStart: Int { size - back.count }

    /// Where the `length` bytes from `offset` lie when they were all read, in one part (the beginning or the
    /// end); `nil` otherwise.
    @inline(__always) func part(holding offset: Int, _ length: Int) -> UnsafePointer<UInt8>? {
        if offset >= 0, offset + length <= front.count { return front.baseAddress.map { UnsafePointer($0 + offset) } }
        let fromBack = offset &- (size &- back.count)
        guard fromBack >= 0, fromBack + length <= back.count else { return nil }
        return back.baseAddress.map { UnsafePointer($0 + fromBack) }
    }

    /// The byte at `offset`, `nil` when it was not read.
    @inline(__always) func byte(at offset: Int) -> UInt8? {
        if offset < front.count { return front[offset] }
        let fromBack = offset &- (size &- back.count)
        return fromBack >= 0 && fromBack < back.count ? back[fromBack] : nil
    }
}

/// What matching a signature found: the span of each sequence (its first byte's offset and its length).
struct PronomSpan: Sendable, Hashable {
    var offset: Int
    var length: Int
}

/// PRONOM's internal signatures matched against bytes, as DROID matches them: every byte sequence of a
/// signature must match; a sequence's first subsequence lies in a window from its anchor (the beginning of the
/// file, its end, or anywhere), each further one in a window from the one before, each fragment in a window
/// beside its neighbour.
///
/// A signature is only tried when its gate opens: of the elements of its sequences anchored at the beginning
/// or the end, the one least likely to be there by chance, placed by the windows and lengths of those before
/// it; and when the bytes its sequences require at fixed offsets from the beginning are there. Gates at a fixed
/// offset (and literals in windows of a few places, at each place) are found by the byte there; gates in wider
/// windows within the first 4 KiB by one pass of a filter on three bytes side by side over their literals; the dozen that
/// reach further, the long literals in one pass of their own (`FarLiterals`), the others with `memmem` or
/// `memchr`; gates from the end by the bytes they end with. A gate of a byte or two opens only where the next
/// element follows it. A signature's
/// search passes by the places its elements cannot start. The tables are made once, for the process's life, and
/// read in place.
final class PronomMatcher: @unchecked Sendable {
    enum Anchor: UInt8 { case beginning = 0, end = 1, anywhere = 2 }

    /// Per sequence: its anchor, and its steps (`stepStart[s] ..< stepStart[s + 1]`): the elements in the order
    /// they are matched (from the end for a sequence anchored there), each with its window from the one matched
    /// before (from the anchor for the first).
    let anchors: UnsafeBufferPointer<UInt8>
    let stepStart: UnsafeBufferPointer<Int32>
    let stepElements: UnsafeBufferPointer<Int32>
    let stepLow: UnsafeBufferPointer<Int>
    /// `Int.max`: no bound.
    let stepHigh: UnsafeBufferPointer<Int>
    /// Per element: its first and last byte where every alternative has the same literal one there, else -1;
    /// and the sets of bytes it may start and end with (four words each, all set where any byte may be).
    let firstBytes: UnsafeBufferPointer<Int16>
    /// Per element with one alternative starting with a literal of at least three bytes: that literal's offset
    /// in the tables' byte pool and its length (0: none), so that the search finds its places with `memmem`.
    let leadLiteralStart: UnsafeBufferPointer<Int32>
    let leadLiteralLength: UnsafeBufferPointer<Int32>
    /// Per element with such a literal shorter than eight bytes: the place in it of its least likely byte,
    /// which the search finds with `memchr` before comparing the rest (`memmem` on a needle of a few bytes, as
    /// MIME's `To: ` over 16 KiB of text, steps through it a byte or two at a time); -1 for longer ones, which
    /// `memmem` skips through by their length.
    let leadLiteralRare: UnsafeBufferPointer<Int>
    /// Per alternative: the byte it starts with when its first test is a literal, else -1; an element's
    /// alternatives that cannot start with the byte at a place are passed by without a test.
    let alternativeFirstBytes: UnsafeBufferPointer<Int16>
    /// Per element: whether it is one byte and nothing else (one alternative, one literal test of one byte).
    let singleBytes: UnsafeBufferPointer<Bool>
    let lastBytes: UnsafeBufferPointer<Int16>
    let firstByteSets: UnsafeBufferPointer<UInt64>
    let lastByteSets: UnsafeBufferPointer<UInt64>
    /// Per signature: its sequences, the gate's first (`signatureSequenceStart[g] ..< [g + 1]`).
    let signatureSequenceStart: UnsafeBufferPointer<Int32>
    let signatureSequences: UnsafeBufferPointer<Int32>

    /// Fixed-offset gates from the beginning: for offset `fixedOffsets[i]` and byte `b` (256: any byte), the
    /// signatures `fixedList[fixedRanges[(i * 257 + b) * 2] ..< + count]`.
    private let fixedOffsets: UnsafeBufferPointer<Int>
    private let fixedRanges: UnsafeBufferPointer<Int32>
    private let fixedList: UnsafeBufferPointer<Int32>
    /// Per offset, four words: a bit for each byte whose slot (or the offset's slot for any byte) holds
    /// signatures. Most bytes at most offsets open none: the bits (32 bytes an offset, a few KiB in all, in
    /// the cache) say so without a load from the slots (2 KiB an offset, most loads missing the cache).
    private let fixedBits: UnsafeBufferPointer<UInt64>
    /// Gates in windows within the first 4 KiB too wide to file with the fixed offsets, found by their literals.
    private let near: NearLiterals
    /// The furthest byte a near gate may need.
    let nearLimit: Int
    /// Signatures tried on every file: gates too loose to index.
    private let otherGates: UnsafeBufferPointer<Int32>
    /// Gates from the end: an element and the window of its end from the file's end; tried where a byte the
    /// element may end with lies in that window, each member opening where its last literal bytes end there.
    /// Gates that end with one byte in one window are looked for once (a score of PDF's versions end `%%EOF`).
    private let endGates: UnsafeBufferPointer<EndGate>
    /// The members of the gates from the end: each one's signature, and its element's last literal bytes (when
    /// it has one alternative ending with a literal).
    private let endMemberSignatures: UnsafeBufferPointer<Int32>
    private let endMemberTails: UnsafeBufferPointer<ByteCheck>
    /// The places past the first 4 KiB of gates whose windows reach there, but for the long literals:
    /// literals looked for on their own (`memmem`, or `memchr` on a short one's least likely byte), those sharing a
    /// window and a prefix together, and short ones by a key they all hold.
    private let farGates: UnsafeBufferPointer<FarGateSearch>
    /// The far gates' long literals (Chemical Markup Language's namespace, CIF's
    /// `_atom_type_scat_dispersion_real`, the Czech data boxes' address), looked for together in one pass that
    /// moves on by their length, instead of a `memmem` each over the same 60 KiB.
    private let farLiterals: FarLiterals
    /// A far gate as its search reads it: flat, in place, no reference counted at each place its key is found.
    struct FarGateSearch: @unchecked Sendable {
        let low: Int
        private let key: UnsafeBufferPointer<UInt8>
        private let rare: Int
        /// The members: each one's literal, window, follower and signatures.
        private let members: FarLiteralList
        /// Per member, where the key lies in its literal.
        private let keyOffsets: UnsafeBufferPointer<Int>

        init(_ gate: FarGate) {
            low = gate.low
            members = FarLiteralList(literals: gate.members.map(\.literal), lows: gate.members.map(\.low), highs: gate.members.map(\.high),
                                     follows: gate.members.map(\.follow), signatures: gate.members.map(\.signatures))
            keyOffsets = immortalBuffer(gate.members.map(\.keyOffset))
            key = immortalBuffer(gate.key)
            rare = gate.rare
        }

        /// Calls `answer` for each member with its signatures: its literal starts within the window in `front`
        /// (`true`), does not (`false`), or its window reaches bytes not read (`nil`). The key through `memmem`
        /// when long (it skips by its length), else by its least likely byte (`memchr`), the byte beside it
        /// compared first.
        func search(in front: UnsafeMutableBufferPointer<UInt8>, size: Int, _ answer: (UnsafeBufferPointer<Int32>, Bool?) -> Void) {
            let count = members.count
            guard let keyBase = key.baseAddress else { return }
            var found: UInt64 = 0, open: UInt64 = 0
            // The places of the key that the members' windows in `front` reach.
            var first = Int.max, furthest = -1
            for member in 0..<count {
                let lastStart = members.lastStart(member, size: size)
                guard members.low(member) <= lastStart else { continue }
                open |= 1 << UInt64(member)
                let inFront = min(lastStart, front.count - members.length(member))
                if inFront >= members.low(member) {
                    first = min(first, members.low(member) + keyOffsets[member])
                    furthest = max(furthest, inFront + keyOffsets[member])
                }
            }
            if let base = front.baseAddress, furthest >= first {
                let length = key.count
                var start = first
                search: while start <= furthest, found != open {
                    let hit: Int
                    if length >= FarGate.longLiteral {
                        guard let place = uti_find_literal(base + start, furthest - start + length, keyBase, length) else { break }
                        hit = UnsafeRawPointer(base).distance(to: place)
                    } else {
                        let next = rare + 1 < length ? rare + 1 : rare - 1
                        var candidate = start
                        while true {
                            let from = candidate + rare
                            guard let place = memchr(base + from, Int32(key[rare]), furthest + rare - from + 1) else { break search }
                            candidate = base.distance(to: place.assumingMemoryBound(to: UInt8.self)) - rare
                            if next < 0 || base[candidate + next] == key[next], memcmp(base + candidate, keyBase, length) == 0 { break }
                            candidate += 1
                            guard candidate <= furthest else { break search }
                        }
                        hit = candidate
                    }
                    for member in 0..<count where open & ~found & (1 << UInt64(member)) != 0
                    && members.lies(member, at: hit - keyOffsets[member], in: UnsafeBufferPointer(front), size: size) {
                        found |= 1 << UInt64(member)
                    }
                    start = hit + 1
                }
            }
            members.answer(found: found, size: size, read: front.count, answer)
        }
    }

    /// Literals filed with the fixed offsets (an entry `-n - 1` in `fixedList`): gates in narrow windows, each
    /// literal at each of its places; its bytes and its signature.
    private let fixedLiterals: UnsafeBufferPointer<ByteCheck>
    private let fixedLiteralSignature: UnsafeBufferPointer<Int32>
    /// Per signature: sixteen bytes its sequences anchored at the beginning require at fixed offsets, checked
    /// before it is tried, whatever its gate.
    private let fixedChecks: UnsafeBufferPointer<FixedBytes>
    /// Per signature whose fixed bytes are all it asks (every sequence anchored at the beginning, each element
    /// one literal at one place, every byte within the sixteen `fixedChecks` compares: gzip's `1F 8B 08`, most
    /// magic numbers): its spans (`decidedSpans[decidedStart[s] ..< decidedStart[s + 1]]`), how many bytes from
    /// the beginning they need read, and how many tests the search would have spent on them. Such a signature,
    /// once its fixed bytes are there, matched without a search (`decidedNeeds` 0: any other signature).
    let decidedStart: UnsafeBufferPointer<Int32>
    let decidedSpans: UnsafeBufferPointer<PronomSpan>
    let decidedNeeds: UnsafeBufferPointer<Int>
    let decidedTests: UnsafeBufferPointer<Int>

    /// Second gates: for each signature whose gate many others share (every XML signature's opens on
    /// `<?xml version=`, so that each XML file tried some sixty), another of its literals in a window within the
    /// first 4 KiB, the one least likely there by chance of those the others do not share; looked for together,
    /// once, where such a gate opened (`secondReach`: how far into the file that literal's window and first
    /// bytes reach, `Int.max` for a window without end; 0 for a signature without; `secondCovered`: how far the
    /// one look reaches, at most the first 4 KiB).
    private let second: NearLiterals
    let secondReach: UnsafeBufferPointer<Int>
    let secondCovered: UnsafeBufferPointer<Int>
    /// The furthest place a second gate's literal is looked for.
    static let secondCover = nearReach - 16
    /// How many signatures share a gate's literal before they get second gates, and the part of them (one in
    /// four) that holding a literal makes it tell none apart.
    static let sharedGate = 8
    static let sharedLiteral = 4

    /// Drops from `list` the signatures whose second gates are shut: none of the literals lies in its window
    /// where it was looked for, and that was all the window (or all the file).
    func closeSecondGates(_ bytes: PronomBytes, list: inout [Int32]) {
        guard list.contains(where: { secondReach[Int($0)] > 0 }) else { return }
        let front = bytes.front
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: (secondReach.count + 63) / 64) { open in
            open.initialize(repeating: 0)
            second.search(UnsafeBufferPointer(front), from: 0) { signature in
                open[Int(signature) >> 6] |= 1 << UInt64(Int(signature) & 63)
            }
            list.removeAll { signature in
                let reach = secondReach[Int(signature)]
                guard reach > 0, min(reach, bytes.size) <= min(front.count, secondCovered[Int(signature)]) else { return false }
                return open[Int(signature) >> 6] & (1 << UInt64(Int(signature) & 63)) == 0
            }
        }
    }

    /// Whether signature `signature` is decided by its fixed bytes and they are there in `front`, read.
    @inline(__always) func decided(_ signature: Int, in front: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        let needs = decidedNeeds[signature]
        return needs > 0 && needs <= front.count && fixedChecks[signature].holds(front)
    }

    /// Bytes a signature requires at fixed offsets from the beginning: sixteen from `offset`, compared in two
    /// loads where they were read (a byte not read passes).
    struct FixedBytes: Sendable {
        var offset = 0
        var value: (UInt64, UInt64) = (0, 0)
        var mask: (UInt64, UInt64) = (0, 0)

        init() {}

        init(offset: Int, bytes: [(place: Int, byte: UInt8)]) {
            self.offset = offset
            for (place, byte) in bytes where place >= offset && place < offset + 16 {
                let shift = UInt64((place - offset) % 8 * 8)
                if place - offset < 8 {
                    value.0 |= UInt64(byte) << shift
                    mask.0 |= 0xFF << shift
                } else {
                    value.1 |= UInt64(byte) << shift
                    mask.1 |= 0xFF << shift
                }
            }
        }

        @inline(__always) func holds(_ front: UnsafeMutableBufferPointer<UInt8>) -> Bool {
            guard mask.0 | mask.1 != 0, let base = front.baseAddress else { return true }
            if offset + 16 <= front.count {
                let raw = UnsafeRawPointer(base + offset)
                return raw.loadUnaligned(as: UInt64.self) & mask.0 == value.0
                    && raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self) & mask.1 == value.1
            }
            for index in 0..<16 where offset + index < front.count {
                let word = index < 8 ? mask.0 : mask.1, expected = index < 8 ? value.0 : value.1
                let shift = UInt64(index % 8 * 8)
                if (word >> shift) & 0xFF != 0, UInt64(base[offset + index]) != (expected >> shift) & 0xFF { return false }
            }
            return true
        }
    }

    /// Up to eight literal bytes an element starts (or ends) with, compared in one load.
    struct ByteCheck: Sendable, Equatable {
        var value: UInt64 = 0
        var mask: UInt64 = 0
        var count = 0

        init(_ literal: ArraySlice<UInt8>) {
            count = min(literal.count, 8)
            for (index, byte) in literal.prefix(8).enumerated() {
                value |= UInt64(byte) << UInt64(index * 8)
                mask |= 0xFF << UInt64(index * 8)
            }
        }

        /// Whether the bytes at `offset` in `buffer` may hold the literal: `true` where they were not all read.
        @inline(__always) func holds(_ buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Bool {
            guard count > 1, offset >= 0, let base = buffer.baseAddress else { return true }
            if offset + 8 <= buffer.count {
                return UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self) & mask == value
            }
            guard offset + count <= buffer.count else { return true }
            var word: UInt64 = 0
            for index in 0..<count { word |= UInt64(base[offset + index]) << UInt64(index * 8) }
            return word == value
        }
    }

    /// What must follow a gate's literal, at one of the places `offset ... offset + reach` from where it starts:
    /// a byte of `set` (four words of bits), and where the next element's alternatives all start with literals,
    /// one of them (`checks`, their first eight bytes).
    struct Follow: Sendable, Equatable {
        var offset: Int
        var reach: Int
        var set: [UInt64]
        var checks: [ByteCheck]

        /// The widest window of places a gate's follower is looked for in.
        static let widest = 16
    }

    /// Gates from the end whose elements end with the same byte in the same window, looked for together: the
    /// element of one of them, the window, and the members (`endMemberSignatures[first ..< first + count]`).
    struct EndGate: Sendable {
        var element: Int
        var low: Int
        var high: Int
        var first: Int
        var count: Int
    }

    /// Literals past the near literals' reach, looked for together: each member's literal holds the gate's key
    /// (long literals in one window share it when they share their first `longLiteral` bytes; short ones in any
    /// windows when they hold it anywhere), so that the key is looked for once.
    struct FarGate: Sendable {
        struct Member: Sendable {
            var literal: [UInt8]
            /// What must follow the literal, for these signatures.
            var follow: Follow?
            /// The window of the literal's start.
            var low: Int
            var high: Int
            /// Where the gate's key lies in the literal.
            var keyOffset: Int
            /// The signatures waiting on this literal in this window.
            var signatures: [Int32]
        }

        var members: [Member]
        var key: [UInt8]
        /// The earliest start of a member's literal.
        var low: Int
        /// The position in `key` of its least likely byte.
        var rare: Int

        init(signature: Int32, literal: [UInt8], follow: Follow?, low: Int, high: Int) {
            members = [Member(literal: literal, follow: follow, low: low, high: high, keyOffset: 0, signatures: [signature])]
            key = literal
            self.low = low
            rare = 0
            rare = PronomMatcher.rarest(key)
        }

        /// Takes `literal` (for `signature`, starting in `low ... high`) in; whether it did. A long key is shared
        /// by literals in the same window that share its first `longLiteral` bytes or more (the key becomes what
        /// they share); a short one by literals that hold it anywhere, in any window (ISO 9660's `CD001` past
        /// 32 KiB, in the windows of a bridge disc's and of an Apple partition map's `PMCD001`: one scan for
        /// the byte its key is found by instead of four).
        mutating func absorb(signature: Int32, literal: [UInt8], follow: Follow?, low: Int, high: Int) -> Bool {
            if let same = members.firstIndex(where: {
                $0.literal == literal && $0.follow == follow && $0.low == low && $0.high == high
            }) {
                members[same].signatures.append(signature)
                return true
            }
            guard members.count < 64 else { return false }
            if key.count >= Self.longLiteral {
                guard members.allSatisfy({ $0.low == low && $0.high == high }) else { return false }
                let shared = zip(key, literal).prefix { $0 == $1 }.count
                guard shared >= Self.longLiteral else { return false }
                key = Array(key.prefix(shared))
                rare = PronomMatcher.rarest(key)
                members.append(Member(literal: literal, follow: follow, low: low, high: high, keyOffset: 0, signatures: [signature]))
            } else {
                guard literal.count < Self.longLiteral, literal.count >= key.count,
                      let offset = (0...literal.count - key.count).first(where: { literal[$0..<$0 + key.count].elementsEqual(key) })
                else { return false }
                members.append(Member(literal: literal, follow: follow, low: low, high: high, keyOffset: offset, signatures: [signature]))
            }
            self.low = min(self.low, low)
            return true
        }

        /// From how many bytes a key is looked for with `memmem`, and literals that share that many share a key.
        static let longLiteral = 8
    }

    static let shared = PronomMatcher(PronomTables.shared)

    /// The head identification reads anyway: gates within it need no further read.
    static let headSize = 4096
    /// How far into a file gates' literals are looked for all at once (`NearLiterals`): the head's 4 KiB, where
    /// the windows of all but a dozen end; those dozen are looked for past it (`FarLiterals`, `FarGate`).
    static let nearReach = 4096
    /// How many of a literal's first bytes are looked for: enough to narrow the candidates.
    static let literalPrefixLength = 4

    /// How many alternatives one file's matching may test before it gives up (and says the scan was cut short).
    static let testBudget = 1_000_000

    private static func immortal<T>(_ array: [T]) -> UnsafeBufferPointer<T> { immortalBuffer(array) }

    private init(_ tables: PronomTables) {
        func bound(_ value: UInt32) -> Int { value == PronomTables.unbounded ? Int.max : Int(value) }
        let sequenceCount = tables.sequences.count / 3
        var anchors: [UInt8] = [], stepStart: [Int32] = [], elements: [Int32] = [], lows: [Int] = [], highs: [Int] = []
        for index in 0..<sequenceCount {
            let firstSub = Int(tables.sequences[index * 3]), subCount = Int(tables.sequences[index * 3 + 1])
            let anchor = Anchor(rawValue: UInt8(min(tables.sequences[index * 3 + 2], 2))) ?? .anywhere
            anchors.append(anchor.rawValue)
            stepStart.append(Int32(elements.count))
            func step(_ element: Int, _ low: Int, _ high: Int) {
                elements.append(Int32(element))
                lows.append(low)
                highs.append(high)
            }
            for sub in firstSub..<firstSub + subCount {
                let firstElement = Int(tables.subsequences[sub * 4]), elementCount = Int(tables.subsequences[sub * 4 + 1])
                let low = Int(tables.subsequences[sub * 4 + 2]), high = bound(tables.subsequences[sub * 4 + 3])
                let range = firstElement..<firstElement + elementCount
                if anchor == .end {
                    // From the end: the last element first, each one before it placed by the gap after it.
                    var previous: Int?
                    for element in range.reversed() {
                        if let previous {
                            step(element, Int(tables.elements[previous * 4 + 2]), bound(tables.elements[previous * 4 + 3]))
                        } else {
                            step(element, low, high)
                        }
                        previous = element
                    }
                } else {
                    for element in range {
                        if element == firstElement {
                            step(element, low, high)
                        } else {
                            step(element, Int(tables.elements[element * 4 + 2]), bound(tables.elements[element * 4 + 3]))
                        }
                    }
                }
            }
        }
        stepStart.append(Int32(elements.count))

        let elementCount = tables.elements.count / 4
        var firstSets = [UInt64](repeating: 0, count: elementCount * 4), lastSets = firstSets
        var firsts = [Int16](repeating: -1, count: elementCount), lasts = firsts
        var firstOdds = [Double](repeating: 0, count: elementCount), lastOdds = firstOdds
        var words = [UInt64](repeating: 0, count: 4)
        for element in 0..<elementCount {
            let first = Int(tables.elements[element * 4]), count = Int(tables.elements[element * 4 + 1])
            for end in 0..<2 {
                let atEnd = end == 1
                for word in 0..<4 { words[word] = 0 }
                for alternative in first..<first + count {
                    let firstTest = Int(tables.alternatives[alternative * 3]), testCount = Int(tables.alternatives[alternative * 3 + 1])
                    guard testCount > 0 else {
                        for word in 0..<4 { words[word] = .max }
                        break
                    }
                    let test = atEnd ? firstTest + testCount - 1 : firstTest
                    let kind = tables.tests[test * 3], length = Int(tables.tests[test * 3 + 1]), pool = Int(tables.tests[test * 3 + 2])
                    var low = 0, high = 255
                    if kind == 0 {
                        low = Int(tables.bytes[pool + (atEnd ? length - 1 : 0)])
                        high = low
                    } else if kind == 2, length == 1 || !atEnd {
                        low = Int(tables.bytes[pool])
                        high = Int(tables.bytes[pool + length])
                    }
                    var byte = low
                    while byte <= max(low, high) {
                        words[byte >> 6] |= 1 << UInt64(byte & 63)
                        byte += 1
                    }
                }
                var single: Int16 = -1, bits = 0, odds = 0.0
                for word in 0..<4 {
                    bits += words[word].nonzeroBitCount
                    if words[word] != 0 { single = Int16(word * 64 + words[word].trailingZeroBitCount) }
                    // How likely a byte of the set is, summed (for choosing gates).
                    var rest = words[word]
                    while rest != 0 {
                        odds += Self.likelihood(UInt8(word * 64 + rest.trailingZeroBitCount))
                        rest &= rest - 1
                    }
                }
                if bits != 1 { single = -1 }
                for word in 0..<4 {
                    if atEnd { lastSets[element * 4 + word] = words[word] } else { firstSets[element * 4 + word] = words[word] }
                }
                if atEnd {
                    lasts[element] = single
                    lastOdds[element] = odds
                } else {
                    firsts[element] = single
                    firstOdds[element] = odds
                }
            }
        }

        var signatureStart: [Int32] = [], signatureList: [Int32] = []
        var fixed: [Int: [Int32]] = [:]
        var literals: [[UInt8]] = [], literalSignature: [Int32] = [], literalLow: [Int] = [], literalHigh: [Int] = []
        var literalFollows: [PronomMatcher.Follow?] = []
        /// The step after a gate's element, where the gate's sequence is anchored at the beginning, its element is
        /// `literal` alone (every alternative that long) and another element follows it; `nil` otherwise.
        func stepAfter(_ gate: GateChoice, _ literal: [UInt8]) -> Int? {
            let steps = Int(stepStart[gate.sequence])..<Int(stepStart[gate.sequence + 1])
            guard anchors[gate.sequence] == Anchor.beginning.rawValue,
                  let step = steps.first(where: { Int(elements[$0]) == gate.element }), step + 1 < steps.upperBound,
                  Self.elementLengths(tables, gate.element) == (literal.count, literal.count) else { return nil }
            return step + 1
        }
        /// What must follow a gate's literal: where its element is that literal alone and the next element of its
        /// sequence lies right after it or in a narrow window after it, that element's first bytes (BibTeX's `@` is
        /// followed by `ARTICLE`, `Book`...: not by an address's domain; Wavefront OBJ's `v ` by a number within
        /// eight bytes: not `-v ` in a manual).
        func follow(_ gate: GateChoice, _ literal: [UInt8]) -> Follow? {
            guard let after = stepAfter(gate, literal), highs[after] != Int.max, highs[after] - lows[after] <= Follow.widest else { return nil }
            let next = Int(elements[after])
            let set = Array(firstSets[next * 4..<next * 4 + 4])
            guard !set.allSatisfy({ $0 == .max }) else { return nil }
            let leading = Self.leadingLiterals(tables, next) ?? []
            let checks = leading.allSatisfy { $0.count > 1 } ? leading.map { ByteCheck($0[...]) } : []
            return Follow(offset: literal.count + lows[after], reach: highs[after] - lows[after], set: set, checks: checks)
        }
        /// A gate's literal as the near literals take it: a literal shorter than the filter's keys that the next
        /// element's literals follow right after is joined to each of them (BibTeX's `@` to `ARTICLE`, `Book`...),
        /// so that the filter finds them in its one pass instead of a search of their own stopping at every `@` of
        /// every address; any other literal as it is, with what must follow it.
        func nearPieces(_ gate: GateChoice, _ literal: [UInt8]) -> [(literal: [UInt8], follow: Follow?)] {
            if literal.count < Self.literalPrefixLength, let after = stepAfter(gate, literal), lows[after] == 0, highs[after] == 0,
               let followers = Self.leadingLiterals(tables, Int(elements[after])), !followers.isEmpty, followers.count <= 64,
               followers.allSatisfy({ literal.count + $0.count >= Self.literalPrefixLength }) {
                return followers.map { (literal + $0, nil) }
            }
            return [(literal, follow(gate, literal))]
        }
        var others: [Int32] = []
        /// Gates from the end by their element's last byte and window (where it has one last byte), each with
        /// its members.
        var endGroups: [(element: Int, low: Int, high: Int, members: [(Int32, ByteCheck)])] = []
        var endGroupIndex: [[Int]: Int] = [:]
        var farGates: [FarGate] = []
        var farLiterals = FarLiterals.Builder()
        var fixedChecks = [FixedBytes](repeating: FixedBytes(), count: tables.signatureCount)
        var fixedLiterals: [ByteCheck] = [], fixedLiteralSignature: [Int32] = []
        var nearLimit = 0
        /// Gives `literal` (its pieces) to the near literals, for `signature`, starting in `low ... high`.
        func addNear(_ gate: GateChoice, _ literal: [UInt8], signature: Int, low: Int, high: Int) {
            for piece in nearPieces(gate, literal) {
                // A literal's first bytes are enough to narrow the candidates.
                literals.append(Array(piece.literal.prefix(16)))
                literalFollows.append(piece.follow)
                literalSignature.append(Int32(signature))
                literalLow.append(low)
                literalHigh.append(high)
                nearLimit = max(nearLimit, high + piece.literal.count)
            }
        }
        var choices: [GateChoice?] = []
        var decidedStart: [Int32] = [0], decidedSpans: [PronomSpan] = [], decidedNeeds: [Int] = [], decidedTests: [Int] = []
        for signature in 0..<tables.signatureCount {
            let first = Int(tables.signatures[signature * 3]), count = Int(tables.signatures[signature * 3 + 1])
            let own = Array(first..<first + count)
            signatureStart.append(Int32(signatureList.count))
            // Each sequence anchored at the beginning walked once, for the bytes checked before any try and for
            // whether they decide the signature.
            let walks = own.map { sequence in
                anchors[sequence] == Anchor.beginning.rawValue
                    ? Self.fixedPlaces(tables, sequence, stepStart: stepStart, elements: elements, lows: lows, highs: highs) : nil
            }
            let places = walks.flatMap { $0?.places ?? [] }.sorted { $0.place < $1.place }
            fixedChecks[signature] = Self.fixedBytes(places)
            let decision = Self.decision(walks, places: places, check: fixedChecks[signature])
            decidedSpans += decision?.spans ?? []
            decidedStart.append(Int32(decidedSpans.count))
            decidedNeeds.append(decision?.needs ?? 0)
            decidedTests.append(decision?.tests ?? 0)
            let choice = Self.gate(tables, own: own, anchors: anchors, stepStart: stepStart, elements: elements,
                                   lows: lows, highs: highs, lastSets: lastSets, firstOdds: firstOdds, lastOdds: lastOdds)
            choices.append(choice)
            guard let gate = choice else {
                signatureList += own.map { Int32($0) }
                others.append(Int32(signature))
                continue
            }
            signatureList += ([gate.sequence] + own.filter { $0 != gate.sequence }).map { Int32($0) }
            let element = gate.element, low = gate.low, high = gate.high
            switch gate.kind {
            case .fixed:
                // By every byte the element may start with, or under "any byte" when it may start with any.
                let words = firstSets[element * 4..<element * 4 + 4]
                if words.allSatisfy({ $0 == .max }) {
                    fixed[low * 257 + 256, default: []].append(Int32(signature))
                } else {
                    for (index, word) in words.enumerated() {
                        var rest = word
                        while rest != 0 {
                            fixed[low * 257 + index * 64 + rest.trailingZeroBitCount, default: []].append(Int32(signature))
                            rest &= rest - 1
                        }
                    }
                }
            case .window where high - low <= NearLiterals.directWidth:
                // A narrow window: the literal's first bytes at each of its places, filed with the fixed offsets
                // by their first byte.
                for literal in Self.leadingLiterals(tables, element) ?? [] where !literal.isEmpty {
                    let prefix = Array(literal.prefix(Self.literalPrefixLength))
                    let entry = -Int32(fixedLiterals.count) - 1
                    fixedLiterals.append(ByteCheck(prefix[...]))
                    fixedLiteralSignature.append(Int32(signature))
                    for start in low...high { fixed[start * 257 + Int(prefix[0]), default: []].append(entry) }
                }
            case .window where high <= Self.nearReach:
                for literal in Self.leadingLiterals(tables, element) ?? [] where !literal.isEmpty {
                    addNear(gate, literal, signature: signature, low: low, high: high)
                }
            case .window:
                // Further into the file than the near literals reach: the places within the first 4 KiB with the
                // near literals, in their one pass; the others with each literal looked for on its own, once for
                // every signature that waits on it in the same window.
                let nearHigh = min(high, Self.nearReach - Self.literalPrefixLength)
                for literal in Self.leadingLiterals(tables, element) ?? [] where !literal.isEmpty {
                    if low <= nearHigh { addNear(gate, literal, signature: signature, low: low, high: nearHigh) }
                    let farLow = max(low, nearHigh + 1)
                    guard farLow <= high else { continue }
                    let follows = follow(gate, literal)
                    if farLiterals.add(signature: Int32(signature), literal: literal, follow: follows, low: farLow, high: high) { continue }
                    var absorbed = false
                    for index in farGates.indices
                    where farGates[index].absorb(signature: Int32(signature), literal: literal, follow: follows, low: farLow, high: high) {
                        absorbed = true
                        break
                    }
                    if !absorbed { farGates.append(FarGate(signature: Int32(signature), literal: literal, follow: follows, low: farLow, high: high)) }
                }
            case .end:
                let member = (Int32(signature), ByteCheck(Self.literalPrefix(tables, element, atEnd: true)))
                let key = [Int(lasts[element]), low, high]
                if lasts[element] >= 0, let group = endGroupIndex[key], endGroups[group].members.count < 64 {
                    endGroups[group].members.append(member)
                } else {
                    endGroupIndex[key] = endGroups.count
                    endGroups.append((element, low, high, [member]))
                }
            }
        }
        signatureStart.append(Int32(signatureList.count))

        // Second gates for the signatures whose gate many share (XML's `<?xml version=` at the beginning).
        var secondLiterals: [[UInt8]] = [], secondSignature: [Int32] = [], secondLow: [Int] = [], secondHigh: [Int] = []
        var secondReach = [Int](repeating: 0, count: tables.signatureCount), secondCovered = secondReach
        var sharing: [[UInt8]: [Int]] = [:]
        for (signature, choice) in choices.enumerated() {
            guard let choice, choice.kind != .end else { continue }
            let literal = Self.literalPrefix(tables, choice.element, atEnd: false)
            if literal.count >= Self.literalPrefixLength { sharing[Array(literal), default: []].append(signature) }
        }
        for members in sharing.values where members.count >= Self.sharedGate {
            // Literals that several of them hold (a quote, `1.0`, `encoding=`) tell them apart no better.
            var holders: [[UInt8]: Set<Int>] = [:]
            for signature in members {
                let first = Int(tables.signatures[signature * 3]), count = Int(tables.signatures[signature * 3 + 1])
                for sequence in first..<first + count {
                    for step in Int(stepStart[sequence])..<Int(stepStart[sequence + 1]) {
                        for literal in Self.leadingLiterals(tables, Int(elements[step])) ?? [] {
                            holders[Array(literal.prefix(16)), default: []].insert(signature)
                        }
                    }
                }
            }
            func common(_ element: Int) -> Bool {
                guard let literals = Self.leadingLiterals(tables, element) else { return false }
                return literals.contains { (holders[Array($0.prefix(16))]?.count ?? 0) * Self.sharedLiteral >= members.count }
            }
            for signature in members {
                guard let primary = choices[signature] else { continue }
                let first = Int(tables.signatures[signature * 3]), count = Int(tables.signatures[signature * 3 + 1])
                guard let second = Self.gate(tables, own: Array(first..<first + count), anchors: anchors, stepStart: stepStart,
                                             elements: elements, lows: lows, highs: highs, lastSets: lastSets,
                                             firstOdds: firstOdds, lastOdds: lastOdds,
                                             skip: { $0 == primary.element || common($0) }),
                      second.kind == .window, second.low <= Self.secondCover,
                      let literals = Self.leadingLiterals(tables, second.element),
                      literals.allSatisfy({ $0.count >= Self.literalPrefixLength }) else { continue }
                // A window reaching past the first 4 KiB (or without end) is looked at up to there: it says no
                // only for a file no longer than that.
                let high = min(second.high, Self.secondCover)
                for literal in literals {
                    secondLiterals.append(Array(literal.prefix(16)))
                    secondSignature.append(Int32(signature))
                    secondLow.append(second.low)
                    secondHigh.append(high)
                    let end = second.high == Int.max ? Int.max : second.high + min(literal.count, 8)
                    secondReach[signature] = max(secondReach[signature], end)
                    secondCovered[signature] = max(secondCovered[signature], high + min(literal.count, 8))
                }
            }
        }
        self.second = NearLiterals(literals: secondLiterals, signatures: secondSignature, lows: secondLow, highs: secondHigh)
        self.secondReach = Self.immortal(secondReach)
        self.secondCovered = Self.immortal(secondCovered)

        let offsets = Set(fixed.keys.map { $0 / 257 }).sorted()
        var offsetIndex: [Int: Int] = [:]
        for (index, offset) in offsets.enumerated() { offsetIndex[offset] = index }
        // Each offset's 257 slots (an empty one: no signatures), filled in the order of offset and byte.
        var ranges = [Int32](repeating: 0, count: offsets.count * 257 * 2), list: [Int32] = []
        for key in fixed.keys.sorted() {
            guard let index = offsetIndex[key / 257], let signatures = fixed[key] else { continue }
            let slot = (index * 257 + key % 257) * 2
            ranges[slot] = Int32(list.count)
            ranges[slot + 1] = Int32(signatures.count)
            list += signatures
        }

        var bits = [UInt64](repeating: 0, count: offsets.count * 4)
        for index in offsets.indices {
            let any = ranges[(index * 257 + 256) * 2 + 1] > 0
            for byte in 0..<256 where any || ranges[(index * 257 + byte) * 2 + 1] > 0 {
                bits[index * 4 + byte >> 6] |= 1 << UInt64(byte & 63)
            }
        }
        fixedBits = Self.immortal(bits)

        self.anchors = Self.immortal(anchors)
        self.stepStart = Self.immortal(stepStart)
        stepElements = Self.immortal(elements)
        stepLow = Self.immortal(lows)
        stepHigh = Self.immortal(highs)
        firstBytes = Self.immortal(firsts)
        var leadStarts = [Int32](repeating: 0, count: elementCount), leadLengths = leadStarts
        for element in 0..<elementCount {
            let first = Int(tables.elements[element * 4])
            guard tables.elements[element * 4 + 1] == 1, tables.alternatives[first * 3 + 1] > 0 else { continue }
            let test = Int(tables.alternatives[first * 3])
            guard tables.tests[test * 3] == 0, tables.tests[test * 3 + 1] >= 3 else { continue }
            leadStarts[element] = Int32(tables.tests[test * 3 + 2])
            leadLengths[element] = Int32(tables.tests[test * 3 + 1])
        }
        leadLiteralStart = Self.immortal(leadStarts)
        leadLiteralLength = Self.immortal(leadLengths)
        leadLiteralRare = Self.immortal((0..<elementCount).map { element -> Int in
            let start = Int(leadStarts[element]), length = Int(leadLengths[element])
            guard length > 0, length < 8 else { return -1 }
            return Self.rarest(tables.bytes[start..<start + length])
        })
        alternativeFirstBytes = Self.immortal((0..<tables.alternatives.count / 3).map { alternative -> Int16 in
            guard tables.alternatives[alternative * 3 + 1] > 0 else { return -1 }
            let test = Int(tables.alternatives[alternative * 3])
            guard tables.tests[test * 3] == 0, tables.tests[test * 3 + 1] > 0 else { return -1 }
            return Int16(tables.bytes[Int(tables.tests[test * 3 + 2])])
        })
        lastBytes = Self.immortal(lasts)
        singleBytes = Self.immortal((0..<elementCount).map { element -> Bool in
            let alternative = Int(tables.elements[element * 4])
            guard tables.elements[element * 4 + 1] == 1, tables.alternatives[alternative * 3 + 1] == 1 else { return false }
            let test = Int(tables.alternatives[alternative * 3])
            return tables.tests[test * 3] == 0 && tables.tests[test * 3 + 1] == 1
        })
        firstByteSets = Self.immortal(firstSets)
        lastByteSets = Self.immortal(lastSets)
        signatureSequenceStart = Self.immortal(signatureStart)
        signatureSequences = Self.immortal(signatureList)
        fixedOffsets = Self.immortal(offsets)
        fixedRanges = Self.immortal(ranges)
        fixedList = Self.immortal(list)
        self.fixedChecks = Self.immortal(fixedChecks)
        self.decidedStart = Self.immortal(decidedStart)
        self.decidedSpans = Self.immortal(decidedSpans)
        self.decidedNeeds = Self.immortal(decidedNeeds)
        self.decidedTests = Self.immortal(decidedTests)
        self.fixedLiterals = Self.immortal(fixedLiterals)
        self.fixedLiteralSignature = Self.immortal(fixedLiteralSignature)
        near = NearLiterals(literals: literals, signatures: literalSignature, lows: literalLow, highs: literalHigh, follows: literalFollows)
        self.nearLimit = nearLimit
        otherGates = Self.immortal(others)
        var endGates: [EndGate] = [], endSignatures: [Int32] = [], endTails: [ByteCheck] = []
        for group in endGroups {
            endGates.append(EndGate(element: group.element, low: group.low, high: group.high, first: endSignatures.count, count: group.members.count))
            endSignatures += group.members.map(\.0)
            endTails += group.members.map(\.1)
        }
        self.endGates = Self.immortal(endGates)
        endMemberSignatures = Self.immortal(endSignatures)
        endMemberTails = Self.immortal(endTails)
        self.farGates = Self.immortal(farGates.map(FarGateSearch.init))
        self.farLiterals = farLiterals.build()
    }

    /// Where a gate lies: at a fixed offset from the beginning, in a window from it, or in a window from the end.
    enum GateKind { case fixed, window, end }

    /// The gate chosen for a signature: the sequence it lies in, its element, and that element's window (its
    /// start from the beginning, or its end from the end).
    struct GateChoice {
        var sequence: Int
        var element: Int
        var low: Int
        var high: Int
        var kind: GateKind
    }

    /// The gate of a signature whose sequences are `own`: of every element of every sequence anchored at the
    /// beginning or the end, placed by the windows and lengths of those before it, the one least likely to be
    /// found by chance (a file's bytes taken as random), windows past the first 4 KiB last since they cost a
    /// scan of their own. Its window holds every place the element can take in a match, so that a signature
    /// whose gate is closed cannot match. `nil` when no element can be indexed.
    private static func gate(_ tables: PronomTables, own: [Int], anchors: [UInt8], stepStart: [Int32], elements: [Int32],
                             lows: [Int], highs: [Int], lastSets: [UInt64], firstOdds: [Double], lastOdds: [Double],
                             skip: (Int) -> Bool = { _ in false }) -> GateChoice? {
        func add(_ a: Int, _ b: Int) -> Int {
            guard a != Int.max, b != Int.max else { return Int.max }
            let (sum, overflow) = a.addingReportingOverflow(b)
            return overflow ? Int.max : sum
        }
        var best: (choice: GateChoice, chance: Double)?
        for sequence in own where anchors[sequence] != Anchor.anywhere.rawValue {
            let fromEnd = anchors[sequence] == Anchor.end.rawValue
            var low = 0, high = 0, previous = -1
            for step in Int(stepStart[sequence])..<Int(stepStart[sequence + 1]) {
                let element = Int(elements[step])
                if previous < 0 {
                    low = lows[step]
                    high = highs[step]
                } else {
                    let (shortest, longest) = elementLengths(tables, previous)
                    low = add(add(low, shortest), lows[step])
                    high = add(add(high, longest), highs[step])
                }
                previous = element
                guard low != Int.max else { break }
                guard !skip(element) else { continue }
                let width = high == Int.max ? Double.infinity : Double(high - low + 1)
                var choice = GateChoice(sequence: sequence, element: element, low: low, high: high, kind: .fixed)
                var chance: Double
                if fromEnd {
                    // Found by the bytes it may end with, then its last literal bytes.
                    guard high != Int.max, high <= headSize || low == high else { continue }
                    // A window scanned byte by byte (its element may end with several bytes) only when narrow.
                    let oneByte = lastSets[element * 4..<element * 4 + 4].reduce(0) { $0 + $1.nonzeroBitCount } == 1
                    guard oneByte || high - low <= 64 else { continue }
                    choice.kind = .end
                    let tail = literalPrefix(tables, element, atEnd: true)
                    let single = tail.count > 1 ? odds(tail) : lastOdds[element]
                    // Twice the chance: the end is read on its own. And the scan's cost: each place in the window
                    // where the element's last byte is (a NUL in nearly every place of some files) is a stop.
                    chance = min(1, width * single) * 2 + width * lastOdds[element] / 64
                } else if low == high {
                    let literal = literalPrefix(tables, element, atEnd: false)
                    chance = literal.count > 1 ? odds(literal) : firstOdds[element]
                } else {
                    guard let leading = leadingLiterals(tables, element), leading.allSatisfy({ !$0.isEmpty }) else { continue }
                    choice.kind = .window
                    chance = min(1, width * leading.reduce(0.0) { $0 + odds($1.prefix(literalPrefixLength)) })
                    if high == Int.max || high > nearReach {
                        // Past the near literals' reach: a scan of each literal's own over the places there (up to
                        // the scan limit), and the file read that far.
                        let farLow = max(low, nearReach - literalPrefixLength + 1)
                        let farWidth = high == Int.max ? 1 << 16 : min(high - farLow + 1, 1 << 16)
                        chance += 1.0 / 64 + Double(leading.count * farWidth) / Double(1 << 16)
                    }
                }
                if best.map({ chance < $0.chance }) ?? true { best = (choice, chance) }
            }
        }
        return best?.choice
    }

    /// The bytes a signature's sequences anchored at the beginning require at fixed offsets (`places`, all their
    /// `fixedPlaces`, in order of place), the sixteen from the offset where they are least likely by chance.
    private static func fixedBytes(_ places: [(place: Int, byte: UInt8)]) -> FixedBytes {
        guard !places.isEmpty else { return FixedBytes() }
        // One byte per place (where two sequences ask for different bytes at one place, no file matches both:
        // either may stand: the last).
        @inline(__always) func kept(_ index: Int) -> Bool { index + 1 == places.count || places[index + 1].place != places[index].place }
        // The window of sixteen whose bytes are least likely together: the most information, summed over a
        // window that slides from place to place.
        var best = 0, bestSum = -1.0, end = 0, sum = 0.0
        for start in places.indices where kept(start) {
            while end < places.count, places[end].place < places[start].place + 16 {
                if kept(end) { sum += information[Int(places[end].byte)] }
                end += 1
            }
            if sum > bestSum {
                best = start
                bestSum = sum
            }
            sum -= information[Int(places[start].byte)]
        }
        return FixedBytes(offset: places[best].place, bytes: places.indices.filter(kept).map { places[$0] })
    }

    /// The bytes a sequence anchored at the beginning requires at fixed offsets, while each of its steps has one
    /// place and one alternative (its literal tests' bytes; other tests passed by their length); and whether that
    /// is all it asks (every step so, its tests all literals), with its span and its steps (one test each).
    private static func fixedPlaces(_ tables: PronomTables, _ sequence: Int, stepStart: [Int32], elements: [Int32],
                                    lows: [Int], highs: [Int]) -> (places: [(place: Int, byte: UInt8)], whole: Bool, span: PronomSpan, steps: Int) {
        var places: [(place: Int, byte: UInt8)] = [], whole = true, offset = 0, start: Int?, steps = 0
        for step in Int(stepStart[sequence])..<Int(stepStart[sequence + 1]) {
            guard lows[step] == highs[step] else {
                whole = false
                break
            }
            offset += lows[step]
            let element = Int(elements[step])
            let first = Int(tables.elements[element * 4])
            guard tables.elements[element * 4 + 1] == 1, offset < 1 << 20 else {
                whole = false
                break
            }
            if start == nil { start = offset }
            let firstTest = Int(tables.alternatives[first * 3]), testCount = Int(tables.alternatives[first * 3 + 1])
            if testCount == 0 { whole = false }
            for test in firstTest..<firstTest + testCount {
                let kind = tables.tests[test * 3], length = Int(tables.tests[test * 3 + 1]), pool = Int(tables.tests[test * 3 + 2])
                if kind == 0, length > 0 {
                    for index in 0..<length { places.append((offset + index, tables.bytes[pool + index])) }
                } else {
                    whole = false
                }
                offset += length
            }
            steps += 1
        }
        let from = start ?? 0
        return (places, whole && start != nil, PronomSpan(offset: from, length: offset - from), steps)
    }

    /// What a signature's fixed bytes decide (see `decidedStart`), from each of its sequences' `fixedPlaces`
    /// (`nil`: not anchored at the beginning) and all their places in order: its spans in the order of its
    /// sequences, how many bytes from the beginning they need, and the tests its search spends; `nil` when they
    /// do not decide it.
    private static func decision(_ walks: [(places: [(place: Int, byte: UInt8)], whole: Bool, span: PronomSpan, steps: Int)?],
                                 places: [(place: Int, byte: UInt8)], check: FixedBytes) -> (spans: [PronomSpan], needs: Int, tests: Int)? {
        guard check.mask.0 | check.mask.1 != 0, !walks.isEmpty else { return nil }
        var spans: [PronomSpan] = [], needs = 0, tests = 0
        for walk in walks {
            guard let walk, walk.whole else { return nil }
            spans.append(walk.span)
            needs = max(needs, walk.span.offset + walk.span.length)
            tests += walk.steps
        }
        // Two sequences asking for different bytes at one place: no file matches; left to the search.
        for index in places.indices.dropFirst() where places[index].place == places[index - 1].place {
            guard places[index].byte == places[index - 1].byte else { return nil }
        }
        guard places.allSatisfy({ $0.place >= check.offset && $0.place < check.offset + 16 }) else { return nil }
        return (spans, needs, tests)
    }

    /// How likely `bytes` are together at a place, by `likelihood`.
    static func odds(_ bytes: some Collection<UInt8>) -> Double { bytes.reduce(1.0) { $0 * likelihood($1) } }

    /// The offset in `bytes` of the least likely of them (the first of equals); 0 for none.
    static func rarest(_ bytes: some Collection<UInt8>) -> Int {
        var best = 0, bestLikelihood = Double.infinity
        for (offset, byte) in bytes.enumerated() where likelihood(byte) < bestLikelihood {
            best = offset
            bestLikelihood = likelihood(byte)
        }
        return best
    }

    /// Each byte's information at a place (`-log2(likelihood)`), made once.
    private static let information: [Double] = (0...255).map { -log2(likelihood(UInt8($0))) }

    /// How likely a byte is at a given place in a file, roughly, for choosing gates: NUL most, then the bytes
    /// of text, bytes past ASCII least.
    static func likelihood(_ byte: UInt8) -> Double {
        switch byte {
        case 0x00: 1.0 / 5
        case 0xFF, 0x20: 1.0 / 32
        case 0x61...0x7A, 0x0A: 1.0 / 48
        case 0x41...0x5A, 0x30...0x39: 1.0 / 128
        case 0x21...0x7E, 0x09, 0x0D, 0x01...0x08: 1.0 / 256
        default: 1.0 / 512
        }
    }

    /// The literal bytes an element's only alternative starts (or ends) with, up to eight; empty when it has
    /// several alternatives or starts (ends) with another kind of test.
    private static func literalPrefix(_ tables: PronomTables, _ element: Int, atEnd: Bool) -> ArraySlice<UInt8> {
        let first = Int(tables.elements[element * 4]), count = Int(tables.elements[element * 4 + 1])
        guard count == 1 else { return [] }
        let firstTest = Int(tables.alternatives[first * 3]), testCount = Int(tables.alternatives[first * 3 + 1])
        guard testCount > 0 else { return [] }
        let test = atEnd ? firstTest + testCount - 1 : firstTest
        guard tables.tests[test * 3] == 0 else { return [] }
        let length = Int(tables.tests[test * 3 + 1]), pool = Int(tables.tests[test * 3 + 2])
        let literal = Array(tables.bytes[pool..<pool + length])
        return atEnd ? literal.suffix(8) : literal.prefix(8)
    }

    /// The shortest and longest lengths of an element's alternatives.
    private static func elementLengths(_ tables: PronomTables, _ element: Int) -> (Int, Int) {
        let first = Int(tables.elements[element * 4]), count = Int(tables.elements[element * 4 + 1])
        let lengths = (first..<first + count).map { Int(tables.alternatives[$0 * 3 + 2]) }
        return (lengths.min() ?? 0, lengths.max() ?? 0)
    }


    /// The literal bytes each alternative of an element starts with; `nil` when any alternative starts with a
    /// test that is no literal.
    private static func leadingLiterals(_ tables: PronomTables, _ element: Int) -> [[UInt8]]? {
        let first = Int(tables.elements[element * 4]), count = Int(tables.elements[element * 4 + 1])
        var out: [[UInt8]] = []
        for alternative in first..<first + count {
            let test = Int(tables.alternatives[alternative * 3])
            guard tables.tests[test * 3] == 0 else { return nil }
            let length = Int(tables.tests[test * 3 + 1]), offset = Int(tables.tests[test * 3 + 2])
            out.append(Array(tables.bytes[offset..<offset + length]))
        }
        return out
    }

    /// What the gates say of a file's bytes.
    struct Gates {
        /// A gate lies (in part) past the bytes read from the beginning.
        var needsFront = false
        /// A gate from the end lies past the bytes read from the end.
        var needsBack = false
        /// Signatures whose gate lies in a window past the scan limit and was not found before it: matching
        /// their other sequences says whether the scan was cut short.
        var beyond: [Int32] = []
        /// How many bytes from the beginning the gates saw.
        var frontChecked = 0
        /// The gates past the bytes read and the gates from the end that reached bytes not read: the only ones
        /// to look at again once more is read.
        var pendingFar: [Int] = []
        var pendingEnd: [Int] = []
        /// The far literals looked for together reach bytes not read.
        var pendingFarLiterals = false
    }

    /// The signatures whose gates open on `bytes`, each once (`marks` has a bit per signature), and what more
    /// bytes would decide. After more was read (`previous`, what the gates said before), only the gates that
    /// needed it are looked at again.
    func candidates(_ bytes: PronomBytes, marks: UnsafeMutableBufferPointer<UInt64>, list: inout [Int32], after previous: Gates? = nil) -> Gates {
        var gates = Gates()
        gates.frontChecked = bytes.front.count
        let checked = previous?.frontChecked ?? 0
        func add(_ signature: Int32) {
            let word = Int(signature) >> 6, bit = UInt64(1) << UInt64(Int(signature) & 63)
            if marks[word] & bit == 0, fixedChecks[Int(signature)].holds(bytes.front) {
                marks[word] |= bit
                list.append(signature)
            }
        }
        let front = bytes.front
        // The offsets' bytes against their bits first, in a loop of its own (a few loads and a test an offset, a
        // hundred offsets a file); the slots only where a bit is set.
        if let base = front.baseAddress, let offsets = fixedOffsets.baseAddress, let bits = fixedBits.baseAddress {
            let count = fixedOffsets.count, read = front.count
            var index = 0
            while index < count, offsets[index] < checked { index &+= 1 }
            while index < count {
                // Sixty-four offsets at a time: their bits gathered in a loop that keeps its few values in registers,
                // then the offsets whose bits are set, in order.
                let end = min(count, index &+ 64)
                var (hits, stop) = Self.fixedHits(offsets, bits, base, from: index, to: end, read: read)
                while hits != 0 {
                    let position = index &+ hits.trailingZeroBitCount
                    hits &= hits &- 1
                    let offset = offsets[position]
                    openFixed(position, offset: offset, byte: Int(base[offset]), front, size: bytes.size, add)
                }
                guard stop == end else {
                    if offsets[stop] < bytes.size { gates.needsFront = true }
                    break
                }
                index = end
            }
        }
        if front.count > checked, checked < nearLimit {
            // After more was read, only the places the first look could not see whole.
            near.search(UnsafeBufferPointer(front), from: max(0, checked - Self.literalPrefixLength)) { add($0) }
        }
        /// Takes a far search's answer for a literal's signatures; whether its window reaches past the bytes read.
        func far(_ signatures: UnsafeBufferPointer<Int32>, _ found: Bool?) -> Bool {
            switch found {
            case true?: for signature in signatures { add(signature) }
            case false?: break
            case nil:
                // Not found in the bytes read, and its window reaches past them.
                gates.beyond += signatures
                return true
            }
            return false
        }
        if previous?.pendingFarLiterals ?? true {
            var pending = false
            farLiterals.search(in: UnsafeBufferPointer(front), size: bytes.size) { if far($0, $1) { pending = true } }
            if pending {
                gates.needsFront = true
                gates.pendingFarLiterals = true
            }
        }
        let farPending = previous?.pendingFar
        for position in 0..<(farPending?.count ?? farGates.count) {
            let index = farPending?[position] ?? position
            guard farGates[index].low < bytes.size else { continue }
            var pending = false
            farGates[index].search(in: front, size: bytes.size) { if far($0, $1) { pending = true } }
            if pending {
                gates.needsFront = true
                gates.pendingFar.append(index)
            }
        }
        // From the end: where a byte the gate's element may end with lies in its window.
        let known = bytes.known, backStart = bytes.backStart, size = bytes.size
        let endPending = previous?.pendingEnd
        for position in 0..<(endPending?.count ?? endGates.count) {
            let index = endPending?[position] ?? position
            let gate = endGates[index]
            let latest = size - gate.low
            let earliest = gate.high == Int.max ? 0 : max(0, size - gate.high)
            guard latest >= 1 else { continue }
            var end = latest
            var open: UInt64 = 0
            let all: UInt64 = gate.count >= 64 ? .max : (1 << UInt64(gate.count)) - 1
            let lastByte = lastBytes[gate.element]
            while end >= max(earliest, 1) {
                let offset = end - 1
                guard offset < known || offset >= backStart else {
                    gates.needsBack = true
                    gates.pendingEnd.append(index)
                    break
                }
                if lastByte >= 0, end - earliest > 8 {
                    // Only where the element's last byte is, in the part read that `offset` lies in.
                    let inFront = offset < known, floor = max(earliest, 1) - 1
                    let partStart = inFront ? 0 : backStart, from = max(floor, partStart)
                    if let base = (inFront ? bytes.front : bytes.back).baseAddress?.advanced(by: from - partStart),
                       let hit = uti_find_last_byte(base, Int32(lastByte), offset - from + 1) {
                        end = from + UnsafePointer(base).distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
                    } else {
                        // Not there: on below the bytes read from the end, where the window reaches past them.
                        if !inFront, from > floor {
                            end = backStart
                            continue
                        }
                        break
                    }
                }
                let byte = end - 1 < known ? bytes.front[end - 1] : bytes.back[end - 1 - backStart]
                if lastByteSets[gate.element &* 4 &+ Int(byte >> 6)] & (1 << UInt64(byte & 63)) != 0 {
                    // Each member not open yet whose last literal bytes end here.
                    for member in 0..<gate.count where open & (1 << UInt64(member)) == 0 {
                        let tail = endMemberTails[gate.first + member]
                        if end >= tail.count, end > backStart ? tail.holds(bytes.back, at: end - tail.count - backStart)
                                                              : tail.holds(bytes.front, at: end - tail.count) {
                            open |= 1 << UInt64(member)
                            add(endMemberSignatures[gate.first + member])
                        }
                    }
                    if open == all { break }
                }
                end -= 1
            }
        }
        if previous == nil {
            for signature in otherGates { add(signature) }
        }
        return gates
    }

    /// A bit for each of the fixed offsets `from ..< to` (at most 64) whose byte in `front` (`read` of them) has
    /// its bit set, and the first of them not read (`to` when all were): a function of its own, whose few values
    /// stay in registers.
    @inline(never) private static func fixedHits(_ offsets: UnsafePointer<Int>, _ bits: UnsafePointer<UInt64>, _ front: UnsafePointer<UInt8>,
                                                 from: Int, to end: Int, read: Int) -> (UInt64, Int) {
        var hits: UInt64 = 0, position = from
        while position < end {
            let offset = offsets[position]
            guard offset < read else { return (hits, position) }
            let byte = Int(front[offset])
            let word = bits[position &* 4 &+ byte &>> 6]
            hits |= (word &>> UInt64(truncatingIfNeeded: byte & 63) & 1) &<< UInt64(truncatingIfNeeded: position &- from)
            position &+= 1
        }
        return (hits, end)
    }

    /// The signatures filed at fixed offset `fixedOffsets[index]` under `byte` (and under any byte) whose literals
    /// lie there: each given to `add`.
    @inline(__always) private func openFixed(_ index: Int, offset: Int, byte: Int, _ front: UnsafeMutableBufferPointer<UInt8>, size: Int,
                                             _ add: (Int32) -> Void) {
        var slot = (index * 257 + byte) * 2
        for _ in 0..<2 {
            let start = Int(fixedRanges[slot]), count = Int(fixedRanges[slot + 1])
            for position in start..<start + count {
                let entry = fixedList[position]
                if entry >= 0 {
                    add(entry)
                } else {
                    let literal = Int(-entry - 1)
                    // Where the literal runs past the bytes read, more bytes would tell: tried.
                    if offset + fixedLiterals[literal].count > front.count ? front.count < size
                                                                         : fixedLiterals[literal].holds(front, at: offset) {
                        add(fixedLiteralSignature[literal])
                    }
                }
            }
            slot = (index * 257 + 256) * 2
        }
    }

    /// Opens the gates from the end that still reach bytes not read: their signatures are tried, and say
    /// whether more bytes would have decided.
    func openPending(_ gates: Gates, marks: UnsafeMutableBufferPointer<UInt64>, list: inout [Int32]) {
        for index in gates.pendingEnd {
            let gate = endGates[index]
            for signature in endMemberSignatures[gate.first..<gate.first + gate.count] {
                let word = Int(signature) >> 6, bit = UInt64(1) << UInt64(Int(signature) & 63)
                if marks[word] & bit == 0 {
                    marks[word] |= bit
                    list.append(signature)
                }
            }
        }
    }
}

/// One file's matching: a depth-first search over the places each element may take in its window, one
/// sequence at a time. A class, made once per file: the search recurses, and reads everything in place.
final class PronomMatchContext {
    let tables: PronomTables
    unowned(unsafe) let matcher: PronomMatcher
    let bytes: PronomBytes
    var budget = PronomMatcher.testBudget
    /// Whether the sequence being matched needed bytes that were not read.
    private var cutShort = false
    private var stepBase = 0
    private var stepCount = 0
    /// The first step's place (where the sequence starts; from the end, where it ends).
    private var outerStart = 0
    private var outerEnd = 0
    /// Places from which the steps after them were found not to match, in the sequence being matched: its
    /// windows overlap (Wavefront OBJ's digits and spaces, six windows deep), so that a search without them
    /// reaches the same place by many paths and tries what follows it again each time. A table made once the
    /// sequence has spent `memoAfter` tests, direct-mapped (an entry lost to another costs only time), each
    /// entry the step, the place and the match it belongs to (`memoRound`).
    private var memo: UnsafeMutablePointer<UInt64>?
    private var memoRound: UInt64 = 0
    private var memoActive = false
    private var sequenceBudget = 0
    static let memoSize = 4096
    static let memoAfter = 256

    init(tables: PronomTables, matcher: PronomMatcher, bytes: PronomBytes) {
        self.tables = tables
        self.matcher = matcher
        self.bytes = bytes
    }

    deinit { memo?.deallocate() }

    /// The memo's entry for step `index` placed after `from`; `nil` where the memo does not apply.
    @inline(__always) private func memoKey(_ index: Int, _ from: Int) -> (slot: Int, key: UInt64)? {
        guard index > 0, from >= 0, from < 1 << 32, index < 1 << 15 else { return nil }
        if !memoActive {
            guard sequenceBudget - budget > Self.memoAfter else { return nil }
            if memo == nil {
                let table = UnsafeMutablePointer<UInt64>.allocate(capacity: Self.memoSize)
                table.initialize(repeating: 0, count: Self.memoSize)
                memo = table
            }
            memoActive = true
        }
        let key = memoRound << 47 | UInt64(index) << 32 | UInt64(from)
        let slot = Int(truncatingIfNeeded: ((UInt64(index) << 32 | UInt64(from)) &* 0x9E37_79B9_7F4A_7C15) >> 52)
        return (slot, key)
    }

    /// The result of matching a signature.
    enum Outcome: Equatable {
        case matched([PronomSpan])
        case failed
        /// A sequence needed bytes that were not read (from the beginning or the end), every other one matched.
        case undecided(front: Bool, back: Bool)
    }

    /// Whether every sequence of `signature` matches; a sequence cut short counts only when every other one
    /// matched (then more bytes would decide).
    /// (`shortcut` false: searched even where the fixed bytes decide, for the tests that compare the two.)
    func match(signature: Int, shortcut: Bool = true) -> Outcome {
        // Decided by its fixed bytes: matched as the search would have, spending what it would have spent.
        if shortcut, matcher.decided(signature, in: bytes.front), budget - matcher.decidedTests[signature] > 0 {
            budget -= matcher.decidedTests[signature]
            let first = Int(matcher.decidedStart[signature]), end = Int(matcher.decidedStart[signature + 1])
            return .matched(Array(matcher.decidedSpans[first..<end]))
        }
        var spans: [(sequence: Int, span: PronomSpan)] = []
        var needsFront = false, needsBack = false
        let first = Int(matcher.signatureSequenceStart[signature]), end = Int(matcher.signatureSequenceStart[signature + 1])
        for position in first..<end {
            let sequence = Int(matcher.signatureSequences[position])
            cutShort = false
            if let span = match(sequence: sequence) {
                spans.append((sequence, span))
            } else if cutShort {
                if matcher.anchors[sequence] == PronomMatcher.Anchor.end.rawValue { needsBack = true } else { needsFront = true }
            } else {
                return .failed
            }
        }
        if needsFront || needsBack { return .undecided(front: needsFront, back: needsBack) }
        // In the signature's order of sequences, whichever was matched first (its gate's).
        if spans.count > 1 { spans.sort { $0.sequence < $1.sequence } }
        return .matched(spans.map(\.span))
    }

    /// Whether every sequence in `sequences` matches (a container entry's); `nil` when one does not.
    func match(sequences: Range<Int>) -> [PronomSpan]? {
        var spans: [PronomSpan] = []
        for sequence in sequences {
            cutShort = false
            guard let span = match(sequence: sequence) else { return nil }
            spans.append(span)
        }
        return spans
    }

    /// Whether every sequence of `signature` but its gate (the first) matches: for a signature whose gate lies
    /// past the scan limit, whether more bytes could have decided.
    func matchesBesidesGate(signature: Int) -> Bool {
        let first = Int(matcher.signatureSequenceStart[signature]), end = Int(matcher.signatureSequenceStart[signature + 1])
        for position in (first + 1)..<max(end, first + 1) {
            cutShort = false
            guard match(sequence: Int(matcher.signatureSequences[position])) != nil else { return false }
        }
        return true
    }

    private func match(sequence: Int) -> PronomSpan? {
        // A new match: the memo's entries from the last are another round's.
        if memoActive {
            memoActive = false
            memoRound += 1
            if memoRound >= 1 << 17, let memo {
                memo.update(repeating: 0, count: Self.memoSize)
                memoRound = 1
            }
        }
        sequenceBudget = budget
        stepBase = Int(matcher.stepStart[sequence])
        stepCount = Int(matcher.stepStart[sequence + 1]) - stepBase
        if matcher.anchors[sequence] == PronomMatcher.Anchor.end.rawValue {
            guard let start = backward(0, from: bytes.size) else { return nil }
            return PronomSpan(offset: start, length: outerEnd - start)
        }
        guard let end = forward(0, from: 0) else { return nil }
        return PronomSpan(offset: outerStart, length: end - outerStart)
    }

    @inline(__always) private func contains(_ sets: UnsafeBufferPointer<UInt64>, _ element: Int, _ byte: UInt8) -> Bool {
        sets[element &* 4 &+ Int(byte >> 6)] & (1 << UInt64(byte & 63)) != 0
    }

    /// One test of an alternative taken from the budget; `false`, and the scan cut short, once it is spent.
    @inline(__always) private func spend() -> Bool {
        budget -= 1
        if budget > 0 { return true }
        cutShort = true
        return false
    }

    /// Matches step `index` and those after it, the step placed after `from` (the end of the one before);
    /// returns the end of the last.
    private func forward(_ index: Int, from: Int) -> Int? {
        guard index < stepCount else { return from }
        let entry = memoKey(index, from)
        if let entry, let memo, memo[entry.slot] == entry.key { return nil }
        let step = stepBase + index
        let element = Int(matcher.stepElements[step])
        let low = from &+ matcher.stepLow[step]
        guard low <= bytes.size else { return nil }
        let stepHigh = matcher.stepHigh[step]
        let high = stepHigh == Int.max ? bytes.size : min(bytes.size, from &+ stepHigh)
        let known = bytes.known, backStart = bytes.backStart
        let firstByte = matcher.firstBytes[element]
        let leadStart = Int(matcher.leadLiteralStart[element]), leadLength = Int(matcher.leadLiteralLength[element])
        let first = Int(tables.elements[element * 4]), count = Int(tables.elements[element * 4 + 1])
        var position = low
        // The next step when it starts right where this one ends.
        let followed = index + 1 < stepCount && matcher.stepHigh[step + 1] == 0
        let nextElement = followed ? Int(matcher.stepElements[step + 1]) : 0
        while position <= high {
            var foundByByte = false
            if position >= known, position < backStart {
                // Bytes that were not read: what is between the front and the back.
                cutShort = true
                position = backStart
                continue
            }
            if leadLength > 0, high - position > 8 {
                // Only where the element's leading literal is.
                guard let next = nextOccurrence(of: leadStart, length: leadLength, rare: matcher.leadLiteralRare[element],
                                                from: position, through: high) else {
                    if position < known, high >= known { position = known; continue }
                    break
                }
                position = next
            } else if firstByte >= 0, high - position > 8 {
                // Only where the element's first byte is.
                guard let next = nextOccurrence(of: UInt8(firstByte), from: position, through: high) else {
                    if position < known, high >= known { position = known; continue }
                    break
                }
                position = next
                foundByByte = true
            } else if let byte = bytes.byte(at: position), !contains(matcher.firstByteSets, element, byte) {
                position += 1
                continue
            }
            let here: Int16 = count > 1 ? bytes.byte(at: position).map { Int16($0) } ?? -1 : -1
            for alternative in first..<first + count {
                if here >= 0 {
                    let lead = matcher.alternativeFirstBytes[alternative]
                    if lead >= 0, lead != here { continue }
                }
                guard spend() else { return nil }
                // A lone byte found where it is (`@` of BibTeX's `@article`, at every `@` of a binary file) needs
                // no test.
                guard let length = foundByByte && matcher.singleBytes[element] ? 1 : test(alternative, at: position) else { continue }
                // The next element right after this one (no gap): passed by when it cannot start with the byte there.
                if followed, let byte = bytes.byte(at: position + length), !contains(matcher.firstByteSets, nextElement, byte) { continue }
                if index == 0 { outerStart = position }
                if let end = forward(index + 1, from: position + length) { return end }
            }
            position += 1
        }
        if let entry, let memo, budget > 0 { memo[entry.slot] = entry.key }
        return nil
    }

    /// Matches step `index` and those after it from the end: the step ends before `from` (the start of the one
    /// matched before, or the file's end); returns the start of the last.
    private func backward(_ index: Int, from: Int) -> Int? {
        guard index < stepCount else { return from }
        let step = stepBase + index
        let element = Int(matcher.stepElements[step])
        let latest = from &- matcher.stepLow[step]
        guard latest >= 0 else { return nil }
        let stepHigh = matcher.stepHigh[step]
        let earliest = stepHigh == Int.max ? 0 : max(0, from &- stepHigh)
        let known = bytes.known, backStart = bytes.backStart
        let lastByte = matcher.lastBytes[element]
        let first = Int(tables.elements[element * 4]), count = Int(tables.elements[element * 4 + 1])
        var end = latest
        while end >= earliest {
            if end <= backStart, end > known {
                // Ends among bytes that were not read.
                cutShort = true
                end = known
                continue
            }
            if lastByte >= 0, end - earliest > 8 {
                // Only where the element's last byte is.
                guard let found = previousOccurrence(of: UInt8(lastByte), through: end - 1, from: earliest) else {
                    if end > backStart, earliest < backStart { end = backStart; continue }
                    break
                }
                end = found + 1
            } else if end > 0, let byte = bytes.byte(at: end - 1), !contains(matcher.lastByteSets, element, byte) {
                end -= 1
                continue
            }
            for alternative in first..<first + count {
                guard spend() else { return nil }
                let length = Int(tables.alternatives[alternative * 3 + 2])
                guard end - length >= 0, test(alternative, at: end - length) != nil else { continue }
                if index == 0 { outerEnd = end }
                if let start = backward(index + 1, from: end - length) { return start }
            }
            end -= 1
        }
        return nil
    }

    /// The first offset from `start` through `end` where `byte` is, in the part of the bytes read that `start`
    /// is in; `nil` when it is not there.
    private func nextOccurrence(of byte: UInt8, from start: Int, through end: Int) -> Int? {
        let front = bytes.front
        if start < front.count {
            let last = min(end, front.count - 1)
            guard last >= start, let base = front.baseAddress,
                  let found = memchr(base + start, Int32(byte), last - start + 1) else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
        let back = bytes.back, backStart = bytes.backStart
        let last = min(end, bytes.size - 1)
        guard start >= backStart, last >= start, let base = back.baseAddress,
              let found = memchr(base + (start - backStart), Int32(byte), last - start + 1) else { return nil }
        return backStart + base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// The first offset from `start` through `end` where the literal at `pool` (`length` bytes, in the tables'
    /// byte pool) lies whole, in the part of the bytes read that `start` is in; `nil` when it is not there.
    private func nextOccurrence(of pool: Int, length: Int, rare: Int, from start: Int, through end: Int) -> Int? {
        guard let needle = tables.bytes.baseAddress?.advanced(by: pool) else { return nil }
        let front = bytes.front
        let (part, partStart): (UnsafeMutableBufferPointer<UInt8>, Int) = start < front.count ? (front, 0) : (bytes.back, bytes.backStart)
        guard start >= partStart, let base = part.baseAddress else { return nil }
        let stop = min(end + length, partStart + part.count)
        guard stop - start >= length else { return nil }
        guard rare >= 0 else {
            guard let found = uti_find_literal(base + (start - partStart), stop - start, needle, length) else { return nil }
            return partStart + UnsafeRawPointer(base).distance(to: found)
        }
        // By the literal's least likely byte, then the whole literal there.
        var candidate = start - partStart
        let last = stop - partStart - length
        while candidate <= last {
            guard let hit = memchr(base + candidate + rare, Int32(needle[rare]), last - candidate + 1) else { return nil }
            candidate = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) - rare
            if memcmp(base + candidate, needle, length) == 0 { return partStart + candidate }
            candidate += 1
        }
        return nil
    }

    /// The last offset from `start` down to `end` where `byte` is, in the part of the bytes read that `start` is
    /// in; `nil` when it is not there.
    private func previousOccurrence(of byte: UInt8, through start: Int, from end: Int) -> Int? {
        let backStart = bytes.backStart
        if start >= backStart {
            let back = bytes.back
            var index = start - backStart
            let first = max(end, backStart) - backStart
            while index >= first {
                if back[index] == byte { return backStart + index }
                index -= 1
            }
            return nil
        }
        let front = bytes.front
        guard start < front.count else { return nil }
        var index = start
        let first = max(end, 0)
        while index >= first {
            if front[index] == byte { return index }
            index -= 1
        }
        return nil
    }

    /// Whether alternative `alternative` matches at `offset`: its length, or `nil`.
    private func test(_ alternative: Int, at offset: Int) -> Int? {
        let firstTest = Int(tables.alternatives[alternative * 3]), testCount = Int(tables.alternatives[alternative * 3 + 1])
        var position = offset
        for test in firstTest..<firstTest + testCount {
            let kind = tables.tests[test * 3], length = Int(tables.tests[test * 3 + 1]), pool = Int(tables.tests[test * 3 + 2])
            guard position + length <= bytes.size else { return nil }
            switch kind {
            case 0, 1: // literal, not that literal
                var equal = true
                if let part = bytes.part(holding: position, length), let literal = tables.bytes.baseAddress {
                    // Read whole: compared in one call.
                    equal = memcmp(part, literal + pool, length) == 0
                } else {
                    for index in 0..<length {
                        guard let byte = bytes.byte(at: position + index) else { return nil }
                        if byte != tables.bytes[pool + index] {
                            equal = false
                            break
                        }
                    }
                }
                if equal != (kind == 0) { return nil }
            case 2, 3: // in a range, not in it (byte strings compared in order)
                var order = 0, orderHigh = 0
                for index in 0..<length {
                    guard let byte = bytes.byte(at: position + index) else { return nil }
                    if order == 0 { order = byte < tables.bytes[pool + index] ? -1 : byte > tables.bytes[pool + index] ? 1 : 0 }
                    if orderHigh == 0 { orderHigh = byte < tables.bytes[pool + length + index] ? -1 : byte > tables.bytes[pool + length + index] ? 1 : 0 }
                }
                let inside = order >= 0 && orderHigh <= 0
                if inside != (kind == 2) { return nil }
            case 4, 5, 6, 7: // every bit of a mask, not every bit, any bit, no bit
                guard let byte = bytes.byte(at: position) else { return nil }
                let mask = tables.bytes[pool]
                let holds = kind < 6 ? byte & mask == mask : byte & mask != 0
                if holds != (kind == 4 || kind == 6) { return nil }
            default: // any bytes
                for index in 0..<length where bytes.byte(at: position + index) == nil { return nil }
            }
            position += length
        }
        return position - offset
    }
}

/// Literals looked for past the first 4 KiB (`FarLiterals`' and each far gate's), flat: each one's bytes, the
/// window of its start, what must follow it and the signatures waiting on it, read in place.
struct FarLiteralList: @unchecked Sendable {
    /// The literals' bytes, each `pool[starts[l] ..< starts[l + 1]]`, and their signatures,
    /// `signatures[signatureStarts[l] ..< signatureStarts[l + 1]]`.
    private let pool: UnsafeBufferPointer<UInt8>
    private let starts: UnsafeBufferPointer<Int>
    private let lows: UnsafeBufferPointer<Int>
    private let highs: UnsafeBufferPointer<Int>
    private let follows: FollowTable
    private let signatureStarts: UnsafeBufferPointer<Int>
    private let signatures: UnsafeBufferPointer<Int32>

    init(literals: [[UInt8]], lows: [Int], highs: [Int], follows: [PronomMatcher.Follow?], signatures: [[Int32]]) {
        pool = immortalBuffer(literals.flatMap { $0 })
        starts = immortalBuffer(literals.reduce(into: [0]) { $0.append($0[$0.count - 1] + $1.count) })
        self.lows = immortalBuffer(lows)
        self.highs = immortalBuffer(highs)
        self.follows = FollowTable(follows)
        signatureStarts = immortalBuffer(signatures.reduce(into: [0]) { $0.append($0[$0.count - 1] + $1.count) })
        self.signatures = immortalBuffer(signatures.flatMap { $0 })
    }

    var count: Int { starts.count - 1 }
    @inline(__always) func length(_ literal: Int) -> Int { starts[literal + 1] - starts[literal] }
    @inline(__always) func low(_ literal: Int) -> Int { lows[literal] }
    /// The last place literal `literal` may start at in a file of `size` bytes.
    @inline(__always) func lastStart(_ literal: Int, size: Int) -> Int { min(highs[literal], size - length(literal)) }

    /// Whether literal `literal` lies at `start` in `front` (the first bytes of a file of `size`), in its window
    /// and followed as it must be.
    @inline(__always) func lies(_ literal: Int, at start: Int, in front: UnsafeBufferPointer<UInt8>, size: Int) -> Bool {
        let length = length(literal)
        guard start >= lows[literal], start <= lastStart(literal, size: size), start + length <= front.count,
              let base = front.baseAddress, let bytes = pool.baseAddress,
              memcmp(base + start, bytes + starts[literal], length) == 0 else { return false }
        return follows.allows(literal, in: front, at: start)
    }

    /// Calls `answer` for each literal with its signatures and what a search of the bytes read from the beginning
    /// (`read` of the file's `size`, `found` a bit per literal found) says of it: found (`true`), not there
    /// (`false`: its window ends before the file does, or lies in the bytes read), or not in the bytes read while
    /// its window reaches past them (`nil`).
    func answer(found: UInt64, size: Int, read: Int, _ answer: (UnsafeBufferPointer<Int32>, Bool?) -> Void) {
        for literal in 0..<count {
            let own = UnsafeBufferPointer(rebasing: signatures[signatureStarts[literal]..<signatureStarts[literal + 1]])
            if found >> UInt64(literal) & 1 != 0 {
                answer(own, true)
                continue
            }
            let lastStart = lastStart(literal, size: size)
            answer(own, lows[literal] > lastStart ? false : min(lastStart, read - length(literal)) < lastStart ? nil : false)
        }
    }
}

/// What must follow each of a list of literals (`PronomMatcher.Follow`), flat: read in place, no reference
/// counted at each place a literal is found.
struct FollowTable: @unchecked Sendable {
    /// Per literal: where its follower's first place lies from where it starts (-1: none), how many places after
    /// that one it may lie at, the bytes it may start with (four words each), and the literals one of which it
    /// starts with (`checks[checkStart[l] ..< checkStart[l + 1]]`; none: any).
    private let offsets: UnsafeBufferPointer<Int>
    private let reaches: UnsafeBufferPointer<Int>
    private let sets: UnsafeBufferPointer<UInt64>
    private let checkStart: UnsafeBufferPointer<Int>
    private let checks: UnsafeBufferPointer<PronomMatcher.ByteCheck>

    init(_ follows: [PronomMatcher.Follow?]) {
        func immortal<T>(_ array: [T]) -> UnsafeBufferPointer<T> { immortalBuffer(array) }
        offsets = immortal(follows.map { $0?.offset ?? -1 })
        reaches = immortal(follows.map { $0?.reach ?? 0 })
        sets = immortal(follows.flatMap { $0?.set ?? [.max, .max, .max, .max] })
        checkStart = immortal(follows.reduce(into: [0]) { $0.append($0[$0.count - 1] + ($1?.checks.count ?? 0)) })
        checks = immortal(follows.flatMap { $0?.checks ?? [] })
    }

    /// Whether `bytes` allow literal `literal`'s follower where the literal starts at `start`: what lies at one of
    /// its places may start it, or is not all in `bytes` (more bytes would tell).
    @inline(__always) func allows(_ literal: Int, in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        let offset = offsets[literal]
        guard offset >= 0 else { return true }
        let starting = checkStart[literal]..<checkStart[literal + 1]
        for place in start + offset...start + offset + reaches[literal] {
            guard place < bytes.count else { return true }
            let byte = Int(bytes[place])
            guard sets[literal &* 4 &+ byte &>> 6] & (1 &<< UInt64(byte & 63)) != 0 else { continue }
            if starting.isEmpty || starting.contains(where: { checks[$0].holds(UnsafeMutableBufferPointer(mutating: bytes), at: place) }) {
                return true
            }
        }
        return false
    }
}

/// Long literals in windows past the first 4 KiB, looked for together (Wu and Manber's shifts on three bytes): the
/// three bytes at the end of a window of the shortest literal's length say how far no literal can start, most often
/// that whole length less two; where they end one of the literals' first bytes, each literal is compared there.
/// Three bytes are hashed to 8,192 shifts (8 KiB, in the first-level cache: each shift read decides where the next
/// is, so a table that missed it waited on the second level at each step through compressed data); threes that
/// share a hash share the least shift. The pass is `uti_shift_scan`'s, in C, four windows side by side over
/// quarters of the places: one window's steps each wait on the load before (one window cost a tenth of what
/// `--pronom` adds over /usr/share, in time, more than its instructions said).
struct FarLiterals: @unchecked Sendable {
    /// Literals of at least this many bytes are taken: the pass moves on by up to one less.
    static let shortest = 16
    /// At most this many literals (a bit each).
    static let capacity = 64

    struct Builder {
        var literals: [[UInt8]] = [], follows: [PronomMatcher.Follow?] = [], lows: [Int] = [], highs: [Int] = []
        var signatures: [[Int32]] = []

        /// Takes `literal` in (for `signature`, in its window of starts), with the one of the same bytes, what
        /// follows and window where there is one; `false` when it is too short, or there are too many.
        mutating func add(signature: Int32, literal: [UInt8], follow: PronomMatcher.Follow?, low: Int, high: Int) -> Bool {
            guard literal.count >= FarLiterals.shortest else { return false }
            if let same = literals.indices.first(where: {
                literals[$0] == literal && follows[$0] == follow && lows[$0] == low && highs[$0] == high
            }) {
                signatures[same].append(signature)
                return true
            }
            guard literals.count < FarLiterals.capacity else { return false }
            literals.append(literal)
            follows.append(follow)
            lows.append(low)
            highs.append(high)
            signatures.append([signature])
            return true
        }

        func build() -> FarLiterals { FarLiterals(self) }
    }

    private let literals: FarLiteralList
    /// The window's length: the shortest literal's.
    private let window: Int
    /// Per hash of three bytes (`hash`): how far a window that ends with them may move on, its whole length less
    /// two where no literal's first `window` bytes hold three of that hash. Three bytes' hash in 8 KiB, where a
    /// pair's twelve bits let text's common pairs stop the window every eight bytes (and three bytes' sixteen, in
    /// 64 KiB, missed the processor's first cache twice as often).
    private let shifts: UnsafeBufferPointer<UInt8>
    static let hashBits: UInt32 = 13
    /// How many places `uti_shift_scan` looks at a time (the room for the places it stops at).
    static let chunk = 1024


    private init(_ builder: Builder) {
        literals = FarLiteralList(literals: builder.literals, lows: builder.lows, highs: builder.highs, follows: builder.follows,
                                  signatures: builder.signatures)
        let window = min(builder.literals.map(\.count).min() ?? 3, 256)
        self.window = window
        var shifts = [UInt8](repeating: UInt8(window - 2), count: 1 << Int(Self.hashBits))
        for literal in builder.literals {
            for place in 0..<window - 2 {
                let three = UInt32(literal[place]) | UInt32(literal[place + 1]) << 8 | UInt32(literal[place + 2]) << 16
                let hash = Int(uti_shift_slot(three, Self.hashBits))
                shifts[hash] = min(shifts[hash], UInt8(window - 3 - place))
            }
        }
        self.shifts = immortalBuffer(builder.literals.isEmpty ? [] : shifts)
    }

    /// Calls `answer` for each literal with its signatures: it starts within its window in `front` (`true`),
    /// does not (`false`), or its window reaches bytes not read (`nil`).
    func search(in front: UnsafeBufferPointer<UInt8>, size: Int, _ answer: (UnsafeBufferPointer<Int32>, Bool?) -> Void) {
        let count = literals.count
        guard count > 0, let base = front.baseAddress else { return }
        // The literals whose windows have places in `front` (and in the file).
        var searched: UInt64 = 0, found: UInt64 = 0
        var first = Int.max, last = -1
        for literal in 0..<count {
            let lastStart = literals.lastStart(literal, size: size)
            guard literals.low(literal) <= lastStart else { continue }
            let furthest = min(lastStart, front.count - literals.length(literal))
            if furthest >= literals.low(literal) {
                searched |= 1 << UInt64(literal)
                first = min(first, literals.low(literal))
                last = max(last, furthest)
            }
        }
        if searched != 0, let shifts = shifts.baseAddress {
            let window = self.window
            // The window's last byte; every literal place is looked at by a window ending `window - 1` after it.
            // The ends where the window stops come from C (`uti_shift_scan`), some at a time.
            let stop = last + window - 1
            withUnsafeTemporaryAllocation(of: Int.self, capacity: Self.chunk) { ends in
                guard let buffer = ends.baseAddress else { return }
                var from = first + window - 1
                while from <= stop, found != searched {
                    let to = min(stop, from + Self.chunk - 1)
                    let written = uti_shift_scan(base, from, to, shifts, Self.hashBits, buffer)
                    for end in ends[0..<written] {
                        let start = end - window + 1
                        for literal in 0..<count where (searched & ~found) >> UInt64(literal) & 1 != 0
                        && literals.lies(literal, at: start, in: front, size: size) {
                            found |= 1 << UInt64(literal)
                        }
                    }
                    from = to + 1
                }
            }
        }
        literals.answer(found: found, size: size, read: front.count, answer)
    }
}

/// The literals of the gates in windows within the first 4 KiB too wide to file with the fixed offsets (up to
/// sixteen bytes of each): the few shorter than four bytes (or with two NULs side by side in every four) by two
/// of their bytes side by side (`uti_find_pair`), the others by four of their bytes through a filter on three
/// bytes side by side that tests every second place (each literal under the two threes of those four), then those
/// four bytes where a three's bit is set, so that one pass over the bytes finds them all; the first four bytes of a
/// literal found, then its first eight, confirm it.
struct NearLiterals: @unchecked Sendable {
    private let values: UnsafeBufferPointer<UInt32>
    private let masks: UnsafeBufferPointer<UInt32>
    private let lengths: UnsafeBufferPointer<Int>
    private let lows: UnsafeBufferPointer<Int>
    private let highs: UnsafeBufferPointer<Int>
    private let signatures: UnsafeBufferPointer<Int32>
    /// Each literal's first eight bytes (or fewer), compared where its first four were found: a literal found
    /// by its prefix alone opened gates that its next bytes would have kept shut (`http` for
    /// `http://isds.czechpoint.cz/`, in every text with a link).
    private let checks: UnsafeBufferPointer<PronomMatcher.ByteCheck>
    /// What must follow each literal: checked where a short literal is found by its bytes (`v ` of Wavefront OBJ,
    /// before a number within eight bytes), not behind the filter, whose literals are long enough to say enough.
    private let follows: FollowTable
    /// The literals the filter cannot take (shorter than four bytes, or with two NULs side by side in every
    /// four: few), in groups (`byByte[groupStarts[g] ..< groupStarts[g + 1]]`), each group looked for by two
    /// bytes side by side at one place in its literals (`groupPlaces`; `uti_find_pair`, which returns only where
    /// both are): a literal alone by its least likely pair (`v ` of Wavefront OBJ, where a search by its `v`
    /// stopped at every `v` of every text), literals that share their window and first byte by that byte and the
    /// bits their second bytes share (MPEG audio's five frame headers, `FF FB` to `FF E3`: one scan of compressed
    /// data instead of five, stopping at `FF E2`-like pairs, not every `FF`). A group with a literal of one byte
    /// by that byte (`memchr`). A short literal that the next element's literals follow right after is not
    /// among them: it is given joined to each of them, long enough for the filter (`nearPieces`: BibTeX's `@`,
    /// a search of its own that stopped at every `@` of every address).
    private let byByte: UnsafeBufferPointer<Int32>
    private let groupStarts: UnsafeBufferPointer<Int32>
    private let groupPlaces: UnsafeBufferPointer<Int>
    /// Per group: the shortest of its literals' first four bytes; the pair's first byte, the mask and value its
    /// second byte is compared with (mask 0: the first byte alone), and whether `memchr` looks for the second.
    private let groupShortest: UnsafeBufferPointer<Int>
    private let groupPairs: UnsafeBufferPointer<(first: UInt8, mask: UInt8, value: UInt8, bySecond: Bool)>
    /// The others, by four of their bytes (`keyOffsets`), through a filter on three bytes side by side that looks
    /// at every second place (each literal filed under the two threes of its four).
    private let filter: TripleFilter
    /// Where in each literal the four bytes filed with the filter start: the four least likely together of its
    /// first sixteen, never four with two NULs side by side (a pair every place of a NUL-padded file holds): a
    /// literal whose every four do is looked for by its least likely byte instead.
    private let keyOffsets: UnsafeBufferPointer<Int>
    /// The widest window whose places are filed with the fixed offsets instead.
    static let directWidth = 16

    init(literals: [[UInt8]], signatures: [Int32], lows: [Int], highs: [Int], follows: [PronomMatcher.Follow?] = []) {
        func immortal<T>(_ array: [T]) -> UnsafeBufferPointer<T> { immortalBuffer(array) }
        let follows = literals.indices.map { $0 < follows.count ? follows[$0] : nil }
        self.follows = FollowTable(follows)
        let prefixes = literals.map { Array($0.prefix(PronomMatcher.literalPrefixLength)) }
        values = immortal(prefixes.map { prefix in prefix.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << UInt32($1.offset * 8) } })
        masks = immortal(prefixes.map { UInt32(truncatingIfNeeded: (UInt64(1) << UInt64($0.count * 8)) - 1) })
        lengths = immortal(prefixes.map(\.count))
        self.lows = immortal(lows)
        self.highs = immortal(highs)
        self.signatures = immortal(signatures)
        checks = immortal(literals.map { PronomMatcher.ByteCheck($0.prefix(8)) })
        let length = PronomMatcher.literalPrefixLength
        /// Where the four bytes to file a literal under start; `nil` when every four of it hold two NULs side by side.
        func keyOffset(_ literal: [UInt8]) -> Int? {
            guard literal.count >= length else { return nil }
            let candidates = (0...literal.count - length).filter { start in
                !(0..<length - 1).contains { literal[start + $0] == 0 && literal[start + $0 + 1] == 0 }
            }
            return candidates.min { PronomMatcher.odds(literal[$0..<$0 + length]) < PronomMatcher.odds(literal[$1..<$1 + length]) }
        }
        let offsets = literals.map(keyOffset)
        keyOffsets = immortal(offsets.map { $0 ?? 0 })
        let short = prefixes.indices.filter { !prefixes[$0].isEmpty && offsets[$0] == nil }
        var groups: [[Int]] = [], groupOf: [[Int]: Int] = [:]
        for literal in short {
            let key = [Int(prefixes[literal][0]), lows[literal], highs[literal]]
            if let group = groupOf[key], groups[group].count < 64 {
                groups[group].append(literal)
            } else {
                groupOf[key] = groups.count
                groups.append([literal])
            }
        }
        byByte = immortal(groups.flatMap { $0.map { Int32($0) } })
        groupStarts = immortal(groups.reduce(into: [Int32(0)]) { $0.append($0[$0.count - 1] + Int32($1.count)) })
        /// A group's place and pair: a literal alone by its least likely two bytes side by side (by its byte when
        /// it has one); several by their common first byte and the bits their second bytes share.
        let pairs = groups.map { group -> (place: Int, first: UInt8, mask: UInt8, value: UInt8) in
            let members = group.map { prefixes[$0] }
            guard let lead = members.first, members.allSatisfy({ $0.count >= 2 }) else {
                let place = group.count == 1 ? PronomMatcher.rarest(members[0]) : 0
                return (place, members[0][place], 0, 0)
            }
            if group.count == 1 {
                let place = (0..<lead.count - 1).min {
                    PronomMatcher.odds(lead[$0...$0 + 1]) < PronomMatcher.odds(lead[$1...$1 + 1])
                } ?? 0
                return (place, lead[place], 0xFF, lead[place + 1])
            }
            let differ = members.reduce(UInt8(0)) { $0 | ($1[1] ^ lead[1]) }
            return (0, lead[0], ~differ, lead[1] & ~differ)
        }
        groupPlaces = immortal(pairs.map(\.place))
        groupPairs = immortal(pairs.map { pair in
            (pair.first, pair.mask, pair.value,
             pair.mask == 0xFF && PronomMatcher.likelihood(pair.value) < PronomMatcher.likelihood(pair.first))
        })
        groupShortest = immortal(groups.map { group in group.map { prefixes[$0].count }.min() ?? 0 })
        let members = prefixes.indices.filter { offsets[$0] != nil }
        let keys = offsets.map { $0 ?? 0 }
        filter = TripleFilter(members.map { ($0, Array(literals[$0][keys[$0]..<keys[$0] + length])) },
                            reach: members.map { highs[$0] + keys[$0] + length }.max() ?? 0)
    }

    /// Whether literal `literal` lies at `start` in `bytes`, whole.
    @inline(__always) private func holds(_ literal: Int, at start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress, start >= 0 else { return false }
        let length = lengths[literal]
        guard start + length <= bytes.count else { return false }
        var here: UInt32 = 0
        if start + 4 <= bytes.count {
            here = UnsafeRawPointer(base + start).loadUnaligned(as: UInt32.self)
        } else {
            for offset in 0..<length { here |= UInt32(base[start + offset]) << UInt32(offset * 8) }
        }
        return here & masks[literal] == values[literal]
            && checks[literal].holds(UnsafeMutableBufferPointer(mutating: bytes), at: start)
    }

    /// Calls `found` with the signature of each literal that lies within its window in `bytes` (the file's
    /// first bytes), looking at the places from `from` on; a signature may be given more than once. `portable`:
    /// the filter without the processor's vector instructions (for the tests).
    @inline(__always) func search(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, portable: Bool = false, _ found: (Int32) -> Void) {
        guard let base = bytes.baseAddress else { return }
        for group in 0..<groupPlaces.count {
            let first = Int(groupStarts[group]), end = Int(groupStarts[group + 1])
            let lead = Int(byByte[first]), place = groupPlaces[group]
            var start = max(lows[lead], from)
            let last = min(highs[lead], bytes.count - groupShortest[group])
            let pair = groupPairs[group]
            // The members not found yet, a bit each.
            var open: UInt64 = end - first >= 64 ? .max : (1 << UInt64(end - first)) - 1
            while start <= last, open != 0 {
                // The pair's second byte lies in every member's first bytes: within `bytes`.
                guard let hit = pair.mask == 0 ? UnsafeRawPointer(memchr(base + start + place, Int32(pair.first), last - start + 1))
                                               : uti_find_pair(base + start + place, last - start + 2, pair.first, pair.mask, pair.value,
                                                               pair.bySecond ? 1 : 0, portable ? 1 : 0)
                else { break }
                start = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) - place
                for member in first..<end where open & (1 << UInt64(member - first)) != 0 {
                    let literal = Int(byByte[member])
                    if holds(literal, at: start, in: bytes), follows.allows(literal, in: bytes, at: start) {
                        found(signatures[literal])
                        open &= ~(1 << UInt64(member - first))
                    }
                }
                start += 1
            }
        }
        if filter.reach > 0 {
            filter.scan(UnsafeBufferPointer(rebasing: bytes[0..<min(bytes.count, filter.reach)]), from: from, portable: portable) { literal, key in
                let start = key &- keyOffsets[literal]
                if start >= lows[literal], start <= highs[literal], holds(literal, at: start, in: bytes) { found(signatures[literal]) }
            }
        }
    }
}

/// Literals found through three bytes side by side of their four key bytes: a bit per three bytes' hash says
/// whether a key holds such three; each key is filed under its two threes (at 0 and at 1), so that looking at
/// every second place finds it wherever it starts. Where a bit is set, the four bytes starting there and one before
/// are hashed against a bit per hashed key, and only where one is set are the keys filed under that hash compared.
/// Three bytes let through a tenth as many places of text as two did (the pair filter this replaced looked at
/// every third place, and a pair alone, `nt` of `[Int`, `1.` of a version, is in much text: 45% of its rounds of
/// eight places stopped over /usr/share's first 4 KiB, 9% of these).
struct TripleFilter: @unchecked Sendable {
    /// A bit per three bytes' sixteen-bit hash (`uti_triple_slot`), set where a key holds three bytes of that hash
    /// at 0 or 1: what the scan reads at each place it looks (eight places' bits in one gather with AVX2, else a
    /// load each). 8 KiB, which stays in the processor's first cache from one file to the next.
    private let present: UnsafeBufferPointer<UInt64>
    /// A bit per hashed key (`hash`), set where a key hashes there: 4 KiB.
    private let hashed: UnsafeBufferPointer<UInt64>
    /// Per bucket (a hash's top bits), where its keys are listed in `keys` and `literals` (one more at the end).
    private let buckets: UnsafeBufferPointer<Int32>
    /// The keys filed, by bucket, and the literal each is of.
    private let keys: UnsafeBufferPointer<UInt32>
    private let literals: UnsafeBufferPointer<Int32>
    /// How far into the bytes its literals may lie.
    let reach: Int
    static let hashBits = 15
    static let bucketBits = 10

    /// A key's hash: `uti_key_hash`, which the scan tests it by.
    @inline(__always) static func hash(_ key: UInt32) -> Int { Int(uti_key_hash(key, UInt32(hashBits))) }

    /// Each literal's key: four bytes (`PronomMatcher.literalPrefixLength`).
    init(_ literals: [(index: Int, bytes: [UInt8])], reach: Int) {
        var present = [UInt64](repeating: 0, count: (1 << 16) / 64), hashed = [UInt64](repeating: 0, count: (1 << Self.hashBits) / 64)
        var byBucket = [[(key: UInt32, literal: Int32)]](repeating: [], count: 1 << Self.bucketBits)
        for (index, literal) in literals where literal.count >= PronomMatcher.literalPrefixLength {
            let key = literal.prefix(4).enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << UInt32($1.offset * 8) }
            for offset in 0..<2 {
                let slot = Int(uti_triple_slot(key >> UInt32(offset * 8)))
                present[slot >> 6] |= 1 << UInt64(slot & 63)
            }
            let hash = Self.hash(key)
            hashed[hash >> 6] |= 1 << UInt64(hash & 63)
            byBucket[hash >> (Self.hashBits - Self.bucketBits)].append((key, Int32(index)))
        }
        func immortal<T>(_ array: [T]) -> UnsafeBufferPointer<T> { immortalBuffer(array) }
        self.present = immortal(present)
        self.hashed = immortal(hashed)
        buckets = immortal(byBucket.reduce(into: [Int32(0)]) { $0.append($0[$0.count - 1] + Int32($1.count)) })
        keys = immortal(byBucket.flatMap { $0.map(\.key) })
        self.literals = immortal(byBucket.flatMap { $0.map(\.literal) })
        self.reach = reach
    }

    /// Calls `found` with each literal whose key lies at a place (its number and the place), looking at places
    /// from about `from` on; the caller compares the rest of the literal there. The places whose threes and hashed
    /// keys say a key may start there come from `uti_triple_scan` (in C, with AVX2 where the processor has it),
    /// some at a time; their keys are compared here.
    /// `portable`: without the processor's vector instructions (for the tests, which compare the two ways).
    @inline(__always) func scan(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, portable: Bool = false, _ found: (Int, Int) -> Void) {
        guard let input = bytes.baseAddress, let present = present.baseAddress, let hashed = hashed.baseAddress else { return }
        let count = bytes.count
        // The even place at or before the one before `from`: a key starting at `from` has its last three at `from + 1`.
        var index = max(0, from - 1) & ~1
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 32) { starts in
            guard let buffer = starts.baseAddress else { return }
            while index < count {
                var next = 0
                let written = uti_triple_scan(input, count, index, present, hashed, UInt32(Self.hashBits), buffer, starts.count, &next,
                                              portable ? 1 : 0)
                for start in starts[0..<written] {
                    let key = UnsafeRawPointer(input + start).loadUnaligned(as: UInt32.self).littleEndian
                    let bucket = Self.hash(key) &>> (Self.hashBits - Self.bucketBits)
                    for position in Int(buckets[bucket])..<Int(buckets[bucket &+ 1]) where keys[position] == key {
                        found(Int(literals[position]), start)
                    }
                }
                index = next
            }
        }
    }
}

/// A copy of `array` that lives as long as the process: PRONOM's matcher and its searches are made once, shared,
/// and read in place without counting references.
private func immortalBuffer<T>(_ array: [T]) -> UnsafeBufferPointer<T> {
    let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(array.count, 1))
    _ = buffer.initialize(from: array)
    return UnsafeBufferPointer(rebasing: UnsafeBufferPointer(buffer)[0..<array.count])
}
