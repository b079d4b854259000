#if canImport(Glibc)
import Glibc
#endif

/// The bytes of a file PRONOM's signatures are matched against: its first bytes and its last, as far as they were
/// read (a byte between the two is unknown, and a pattern that needs it is "cut short", never assumed). Owned
/// buffers, so that the search reads them in place without counting references.
final class PronomBytes {
    /// The file's bytes from offset 0.
    private(set) var front: UnsafeMutableBufferPointer<UInt8>
    /// The file's last bytes: offsets `backStart ..< size`.
    private(set) var back: UnsafeMutableBufferPointer<UInt8>
    let size: Int

    init(front bytes: [UInt8], size: Int) {
        self.size = size
        front = Self.copy(bytes.prefix(size))
        back = UnsafeMutableBufferPointer(start: nil, count: 0)
    }

    deinit {
        front.deallocate()
        back.deallocate()
    }

    private static func copy(_ bytes: ArraySlice<UInt8>) -> UnsafeMutableBufferPointer<UInt8> {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
        _ = buffer.initialize(from: bytes)
        return UnsafeMutableBufferPointer(rebasing: buffer[0..<bytes.count])
    }

    func setFront(_ bytes: [UInt8]) {
        front.deallocate()
        front = Self.copy(bytes.prefix(size)[...])
    }

    func setBack(_ bytes: [UInt8]) {
        back.deallocate()
        back = Self.copy(bytes[...])
    }

    var known: Int { front.count }
    var backStart: Int { size - back.count }

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
/// A signature is only tried when its gate opens: the element of its most tightly placed sequence that lies
/// nearest its anchor. Gates at a fixed offset are found by the byte there; gates in a window within the first
/// 4 KiB by one Aho–Corasick automaton over their literal bytes, in one pass; the few others are tried directly,
/// their scans passing by the places their first element cannot start. The tables are made once, for the
/// process's life, and read in place.
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
    /// Gates in a window near the beginning, found by their literals: the automaton, and per literal its
    /// signature and window for its first byte.
    private let automata: [(automaton: LiteralSearch, reach: Int, literals: Range<Int>)]
    private let literalSignature: UnsafeBufferPointer<Int32>
    private let literalLow: UnsafeBufferPointer<Int>
    private let literalHigh: UnsafeBufferPointer<Int>
    private let literalLength: UnsafeBufferPointer<Int>
    /// The furthest byte a near gate may need.
    let nearLimit: Int
    /// Signatures tried on every file: gates too loose to index.
    private let otherGates: UnsafeBufferPointer<Int32>
    /// Gates from the end: the signature, its gate element, and the window of that element's end from the
    /// file's end; tried where a byte the element may end with lies in that window.
    private let endGates: [(signature: Int32, element: Int, low: Int, high: Int)]
    /// Gates in a window that reaches past the first 4 KiB, each a literal: looked for by its rarest byte.
    private let farGates: [FarGate]

    struct FarGate: Sendable {
        var signature: Int32
        var literal: [UInt8]
        var low: Int
        var high: Int
        /// The position in `literal` of its rarest byte, by how often bytes occur in files in general.
        var rare: Int

        init(signature: Int32, literal: [UInt8], low: Int, high: Int) {
            self.signature = signature
            self.literal = literal
            self.low = low
            self.high = high
            rare = literal.indices.min { Self.commonness(literal[$0]) < Self.commonness(literal[$1]) } ?? 0
        }

        /// How common a byte is in files: NUL, spaces and lower-case letters most, bytes past ASCII least.
        static func commonness(_ byte: UInt8) -> Int {
            switch byte {
            case 0x00, 0x20, 0xFF: 5
            case 0x61...0x7A, 0x0A: 4
            case 0x41...0x5A, 0x30...0x39: 3
            case 0x21...0x7E, 0x09, 0x0D: 2
            case 0x01...0x1F: 1
            default: 0
            }
        }

        /// Whether the literal starts within its window in `front`; `nil` when the window reaches bytes not read.
        func found(in front: UnsafeMutableBufferPointer<UInt8>, size: Int) -> Bool? {
            let length = literal.count
            let lastStart = min(high, size - length)
            guard low <= lastStart, let base = front.baseAddress else { return false }
            let readable = min(lastStart, front.count - length)
            var start = low
            while start <= readable {
                let from = start + rare
                guard let hit = memchr(base + from, Int32(literal[rare]), readable + rare - from + 1) else { break }
                start = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) - rare
                if memcmp(base + start, literal, length) == 0 { return true }
                start += 1
            }
            return readable < lastStart ? nil : false
        }
    }

    static let shared = PronomMatcher(PronomTables.shared)

    /// The head identification reads anyway: gates within it need no further read.
    static let headSize = 4096
    /// How far into a file the automaton looks for gates' literals: the head's 4 KiB, where the windows of all
    /// but a dozen end; those dozen are looked for one by one, by their rarest byte.
    static let automatonReach = 4096
    /// How many of a literal's first bytes the automaton looks for.
    static let automatonPrefix = 4
    /// The automata's reaches: each looks for the literals whose windows end within its reach and past the one
    /// before's, over that many bytes; a small automaton over the few that reach far stays in the cache.
    static let automatonTiers = [512, automatonReach]

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
        for element in 0..<elementCount {
            let first = Int(tables.elements[element * 4]), count = Int(tables.elements[element * 4 + 1])
            for atEnd in [false, true] {
                var words: [UInt64] = [0, 0, 0, 0]
                for alternative in first..<first + count {
                    let firstTest = Int(tables.alternatives[alternative * 3]), testCount = Int(tables.alternatives[alternative * 3 + 1])
                    guard testCount > 0 else {
                        words = [.max, .max, .max, .max]
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
                    for byte in low...max(low, high) { words[byte >> 6] |= 1 << UInt64(byte & 63) }
                }
                var single: Int16 = -1
                if words.reduce(0, { $0 + $1.nonzeroBitCount }) == 1, let word = words.firstIndex(where: { $0 != 0 }) {
                    single = Int16(word * 64 + words[word].trailingZeroBitCount)
                }
                if atEnd {
                    lastSets.replaceSubrange(element * 4..<element * 4 + 4, with: words)
                    lasts[element] = single
                } else {
                    firstSets.replaceSubrange(element * 4..<element * 4 + 4, with: words)
                    firsts[element] = single
                }
            }
        }

        var signatureStart: [Int32] = [], signatureList: [Int32] = []
        var fixed: [Int: [Int32]] = [:]
        var literals: [[UInt8]] = [], literalSignature: [Int32] = [], literalLow: [Int] = [], literalHigh: [Int] = []
        var others: [Int32] = []
        var endGates: [(signature: Int32, element: Int, low: Int, high: Int)] = []
        var farGates: [FarGate] = []
        var nearLimit = 0
        for signature in 0..<tables.signatureCount {
            let first = Int(tables.signatures[signature * 3]), count = Int(tables.signatures[signature * 3 + 1])
            let own = Array(first..<first + count)
            // The gate: the first step of the sequence placed most tightly, beginnings first.
            func cost(_ index: Int) -> (Int, Int) {
                let step = Int(stepStart[index])
                guard step < Int(stepStart[index + 1]), anchors[index] != Anchor.anywhere.rawValue else { return (9, Int.max) }
                let low = lows[step], high = highs[step]
                let width = high == Int.max ? Int.max : high - low
                let reach = high == Int.max ? Int.max : high + Self.elementLength(tables, Int(elements[step]))
                let fromEnd = anchors[index] == Anchor.end.rawValue
                if width == 0 { return (fromEnd ? 2 : 0, reach) }
                if reach <= Self.headSize { return (fromEnd ? 3 : 1, reach) }
                return (fromEnd ? 5 : 4, reach)
            }
            signatureStart.append(Int32(signatureList.count))
            guard let gate = own.min(by: { cost($0) < cost($1) }) else { continue }
            signatureList += ([gate] + own.filter { $0 != gate }).map { Int32($0) }
            let step = Int(stepStart[gate]), element = Int(elements[step]), low = lows[step], high = highs[step]
            let leading = Self.leadingLiterals(tables, element)
            let kind = cost(gate).0
            let literalsOnly = leading?.allSatisfy({ !$0.isEmpty }) == true
            switch kind {
            case 0:
                // By every byte the element may start with, or under "any byte" when it may start with any.
                let words = firstSets[element * 4..<element * 4 + 4]
                if words.allSatisfy({ $0 == .max }) {
                    fixed[low * 257 + 256, default: []].append(Int32(signature))
                } else {
                    for byte in 0..<256 where words[element * 4 + byte >> 6] & (1 << UInt64(byte & 63)) != 0 {
                        fixed[low * 257 + byte, default: []].append(Int32(signature))
                    }
                }
            case _ where (kind == 1 || kind == 4) && literalsOnly && high <= Self.automatonReach:
                for literal in leading ?? [] where !literal.isEmpty {
                    // The automaton only narrows the candidates: a literal's first bytes are enough, and keep
                    // its table small enough to stay in the cache.
                    literals.append(Array(literal.prefix(Self.automatonPrefix)))
                    literalSignature.append(Int32(signature))
                    literalLow.append(low)
                    literalHigh.append(high)
                    nearLimit = max(nearLimit, high + literal.count)
                }
            case _ where (kind == 1 || kind == 4) && literalsOnly:
                // Further into the head than the automaton reads: each literal found by its rarest byte.
                for literal in leading ?? [] {
                    farGates.append(FarGate(signature: Int32(signature), literal: literal, low: low, high: high))
                }
            case 2, 3:
                endGates.append((Int32(signature), element, low, high))
            default:
                others.append(Int32(signature))
            }
        }
        signatureStart.append(Int32(signatureList.count))

        let offsets = Set(fixed.keys.map { $0 / 257 }).sorted()
        var ranges: [Int32] = [], list: [Int32] = []
        for offset in offsets {
            for byte in 0...256 {
                let signatures = fixed[offset * 257 + byte] ?? []
                ranges += [Int32(list.count), Int32(signatures.count)]
                list += signatures
            }
        }

        self.anchors = Self.immortal(anchors)
        self.stepStart = Self.immortal(stepStart)
        stepElements = Self.immortal(elements)
        stepLow = Self.immortal(lows)
        stepHigh = Self.immortal(highs)
        firstBytes = Self.immortal(firsts)
        lastBytes = Self.immortal(lasts)
        firstByteSets = Self.immortal(firstSets)
        lastByteSets = Self.immortal(lastSets)
        signatureSequenceStart = Self.immortal(signatureStart)
        signatureSequences = Self.immortal(signatureList)
        fixedOffsets = Self.immortal(offsets)
        fixedRanges = Self.immortal(ranges)
        fixedList = Self.immortal(list)
        // Literals in tiers by how far their windows reach, each tier an automaton of its own.
        let order = literals.indices.sorted { literalHigh[$0] + literals[$0].count < literalHigh[$1] + literals[$1].count }
        var tiers: [(automaton: LiteralSearch, reach: Int, literals: Range<Int>)] = []
        var sorted: [Int] = []
        var lower = 0
        for reach in Self.automatonTiers {
            let members = order.filter { literalHigh[$0] + literals[$0].count > lower && literalHigh[$0] + literals[$0].count <= reach + Self.automatonPrefix }
            let range = sorted.count..<sorted.count + members.count
            sorted += members
            if !members.isEmpty {
                tiers.append((LiteralSearch(members.map { literals[$0] }, pairs: reach > Self.automatonTiers[0]),
                              min(reach + Self.automatonPrefix, nearLimit), range))
            }
            lower = reach + Self.automatonPrefix
        }
        automata = tiers
        self.literalSignature = Self.immortal(sorted.map { literalSignature[$0] })
        self.literalLow = Self.immortal(sorted.map { literalLow[$0] })
        self.literalHigh = Self.immortal(sorted.map { literalHigh[$0] })
        literalLength = Self.immortal(sorted.map { literals[$0].count })
        self.nearLimit = nearLimit
        otherGates = Self.immortal(others)
        self.endGates = endGates
        self.farGates = farGates
    }

    /// The shortest length of an element's alternatives.
    private static func elementLength(_ tables: PronomTables, _ element: Int) -> Int {
        let first = Int(tables.elements[element * 4]), count = Int(tables.elements[element * 4 + 1])
        return (first..<first + count).map { Int(tables.alternatives[$0 * 3 + 2]) }.min() ?? 0
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
    }

    /// The signatures whose gates open on `bytes`, each once (`marks` has a bit per signature), and what more
    /// bytes would decide.
    func candidates(_ bytes: PronomBytes, marks: inout [UInt64], list: inout [Int32]) -> Gates {
        var gates = Gates()
        func add(_ signature: Int32) {
            let word = Int(signature) >> 6, bit = UInt64(1) << UInt64(Int(signature) & 63)
            if marks[word] & bit == 0 {
                marks[word] |= bit
                list.append(signature)
            }
        }
        let front = bytes.front
        for (index, offset) in fixedOffsets.enumerated() {
            guard offset < front.count else {
                if offset < bytes.size { gates.needsFront = true }
                break
            }
            var slot = (index * 257 + Int(front[offset])) * 2
            for _ in 0..<2 {
                let start = Int(fixedRanges[slot]), count = Int(fixedRanges[slot + 1])
                for position in start..<start + count { add(fixedList[position]) }
                slot = (index * 257 + 256) * 2
            }
        }
        for tier in automata {
            let scanned = min(front.count, tier.reach)
            guard scanned > 0 else { continue }
            let base = tier.literals.lowerBound
            tier.automaton.scan(UnsafeBufferPointer(rebasing: front[0..<scanned])) { found, end in
                let literal = base + found
                let start = end - literalLength[literal]
                if start >= literalLow[literal], start <= literalHigh[literal] { add(literalSignature[literal]) }
            }
        }
        for gate in farGates where gate.low < bytes.size {
            switch gate.found(in: front, size: bytes.size) {
            case true?: add(gate.signature)
            case false?: break
            case nil:
                // Not found in the bytes read, and its window reaches past them.
                gates.needsFront = true
                gates.beyond.append(gate.signature)
            }
        }
        // From the end: where a byte the gate's element may end with lies in its window.
        let known = bytes.known, backStart = bytes.backStart, size = bytes.size
        for gate in endGates {
            let latest = size - gate.low
            let earliest = gate.high == Int.max ? 0 : max(0, size - gate.high)
            guard latest >= 1 else { continue }
            var end = latest
            var open = false
            while end >= max(earliest, 1) {
                let offset = end - 1
                guard offset < known || offset >= backStart else {
                    gates.needsBack = true
                    open = true
                    break
                }
                let byte = offset < known ? bytes.front[offset] : bytes.back[offset - backStart]
                if lastByteSets[gate.element &* 4 &+ Int(byte >> 6)] & (1 << UInt64(byte & 63)) != 0 {
                    open = true
                    break
                }
                end -= 1
            }
            if open { add(gate.signature) }
        }
        for signature in otherGates { add(signature) }
        return gates
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

    init(tables: PronomTables, matcher: PronomMatcher, bytes: PronomBytes) {
        self.tables = tables
        self.matcher = matcher
        self.bytes = bytes
    }

    /// The result of matching a signature.
    enum Outcome {
        case matched([PronomSpan])
        case failed
        /// A sequence needed bytes that were not read (from the beginning or the end), every other one matched.
        case undecided(front: Bool, back: Bool)
    }

    /// Whether every sequence of `signature` matches; a sequence cut short counts only when every other one
    /// matched (then more bytes would decide).
    func match(signature: Int) -> Outcome {
        var spans: [PronomSpan] = []
        var needsFront = false, needsBack = false
        let first = Int(matcher.signatureSequenceStart[signature]), end = Int(matcher.signatureSequenceStart[signature + 1])
        for position in first..<end {
            let sequence = Int(matcher.signatureSequences[position])
            cutShort = false
            if let span = match(sequence: sequence) {
                spans.append(span)
            } else if cutShort {
                if matcher.anchors[sequence] == PronomMatcher.Anchor.end.rawValue { needsBack = true } else { needsFront = true }
            } else {
                return .failed
            }
        }
        if needsFront || needsBack { return .undecided(front: needsFront, back: needsBack) }
        return .matched(spans)
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
        let step = stepBase + index
        let element = Int(matcher.stepElements[step])
        let low = from &+ matcher.stepLow[step]
        guard low <= bytes.size else { return nil }
        let stepHigh = matcher.stepHigh[step]
        let high = stepHigh == Int.max ? bytes.size : min(bytes.size, from &+ stepHigh)
        let known = bytes.known, backStart = bytes.backStart
        let firstByte = matcher.firstBytes[element]
        let first = Int(tables.elements[element * 4]), count = Int(tables.elements[element * 4 + 1])
        var position = low
        while position <= high {
            if position >= known, position < backStart {
                // Bytes that were not read: what is between the front and the back.
                cutShort = true
                position = backStart
                continue
            }
            if firstByte >= 0, high - position > 8 {
                // Only where the element's first byte is.
                guard let next = nextOccurrence(of: UInt8(firstByte), from: position, through: high) else {
                    if position < known, high >= known { position = known; continue }
                    break
                }
                position = next
            } else if let byte = bytes.byte(at: position), !contains(matcher.firstByteSets, element, byte) {
                position += 1
                continue
            }
            for alternative in first..<first + count {
                guard spend() else { return nil }
                guard let length = test(alternative, at: position) else { continue }
                if index == 0 { outerStart = position }
                if let end = forward(index + 1, from: position + length) { return end }
            }
            position += 1
        }
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
                for index in 0..<length {
                    guard let byte = bytes.byte(at: position + index) else { return nil }
                    if byte != tables.bytes[pool + index] {
                        equal = false
                        break
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

/// One of two multi-pattern searches over bytes, for a set of short literals (at most `automatonPrefix` bytes).
enum LiteralSearch: Sendable {
    /// Aho–Corasick: one transition per byte, a chain of dependent loads; for many literals over few bytes.
    case automaton(AhoCorasick)
    /// A filter on each pair of bytes (a bit per pair, 8 KiB), then the literals that start with that pair
    /// compared: every place is tested on its own, so the processor overlaps them; for few literals over many
    /// bytes.
    case pairs(PairFilter)

    init(_ literals: [[UInt8]], pairs: Bool) {
        self = pairs ? .pairs(PairFilter(literals)) : .automaton(AhoCorasick(literals))
    }

    @inline(__always) func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ found: (Int, Int) -> Void) {
        switch self {
        case .automaton(let automaton): automaton.scan(bytes, found)
        case .pairs(let filter): filter.scan(bytes, found)
        }
    }
}

/// Literals found through the pair of bytes they start with (a one-byte literal under every pair it starts).
struct PairFilter: @unchecked Sendable {
    private let bits: UnsafeBufferPointer<UInt64>
    /// By pair (first byte × 256 + second), the literals starting with it.
    private let byPair: [UInt16: [Int32]]
    /// By byte, the one-byte literals (for the last byte, which starts no pair).
    private let singles: [UInt8: [Int32]]
    private let literals: [[UInt8]]

    init(_ literals: [[UInt8]]) {
        var bits = [UInt64](repeating: 0, count: 1024)
        var byPair: [UInt16: [Int32]] = [:]
        var singles: [UInt8: [Int32]] = [:]
        for (index, literal) in literals.enumerated() where !literal.isEmpty {
            let seconds: [UInt8] = literal.count >= 2 ? [literal[1]] : Array(0...255)
            if literal.count == 1 { singles[literal[0], default: []].append(Int32(index)) }
            for second in seconds {
                let pair = UInt16(literal[0]) << 8 | UInt16(second)
                bits[Int(pair >> 6)] |= 1 << UInt64(pair & 63)
                byPair[pair, default: []].append(Int32(index))
            }
        }
        self.bits = immortalBuffer(bits)
        self.byPair = byPair
        self.singles = singles
        self.literals = literals
    }

    /// Calls `found` with each literal found and the offset just past it.
    @inline(__always) func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ found: (Int, Int) -> Void) {
        guard let input = bytes.baseAddress, bytes.count > 0, let bits = bits.baseAddress else { return }
        let count = bytes.count
        var index = 0
        while index + 1 < count {
            let pair = Int(input[index]) &<< 8 | Int(input[index &+ 1])
            if bits[pair &>> 6] & (1 &<< UInt64(pair & 63)) != 0, let candidates = byPair[UInt16(pair)] {
                for candidate in candidates {
                    let literal = literals[Int(candidate)]
                    if index + literal.count <= count, literal.indices.allSatisfy({ input[index + $0] == literal[$0] }) {
                        found(Int(candidate), index + literal.count)
                    }
                }
            }
            index &+= 1
        }
        if let last = singles[input[count - 1]] {
            for candidate in last { found(Int(candidate), count) }
        }
    }
}

/// A multi-pattern search over bytes (Aho–Corasick): every occurrence of every literal, in one pass. The
/// automaton is a full table of transitions over classes of bytes (bytes no literal holds are one class), each
/// entry the next state's row (its number times the classes), so that a byte costs two loads and an add; a state
/// where a literal ends has the entry's top bit set.
struct AhoCorasick: @unchecked Sendable {
    private let classes: UnsafeBufferPointer<UInt8>
    private let table: UnsafeBufferPointer<UInt32>
    /// For each state, the literals that end there (their own and their suffixes'): `outputList[outputStart[s] ..< outputStart[s + 1]]`.
    private let outputStart: UnsafeBufferPointer<Int32>
    private let outputList: UnsafeBufferPointer<Int32>
    private let classCount: Int
    private static let outputBit: UInt32 = 0x8000_0000

    /// An automaton for `literals`.
    init(_ literals: [[UInt8]]) {
        // Bytes that occur in literals each a class of their own; every other byte class 0.
        var classOf = [UInt8](repeating: 0, count: 256)
        var classCount = 1
        for byte in Set(literals.joined()).sorted() where classCount < 256 {
            classOf[Int(byte)] = UInt8(classCount)
            classCount += 1
        }
        var children: [[UInt8: Int]] = [[:]]
        var output: [[Int32]] = [[]]
        for (index, literal) in literals.enumerated() {
            var state = 0
            for byte in literal {
                let symbol = classOf[Int(byte)]
                if let next = children[state][symbol] {
                    state = next
                } else {
                    children.append([:])
                    output.append([])
                    children[state][symbol] = children.count - 1
                    state = children.count - 1
                }
            }
            output[state].append(Int32(index))
        }
        let stateCount = children.count
        var table = [Int](repeating: 0, count: stateCount * classCount)
        var failure = [Int](repeating: 0, count: stateCount)
        var queue: [Int] = []
        for symbol in 0..<classCount {
            if let next = children[0][UInt8(symbol)] {
                table[symbol] = next
                queue.append(next)
            }
        }
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head += 1
            output[state] += output[failure[state]]
            for symbol in 0..<classCount {
                if let next = children[state][UInt8(symbol)] {
                    failure[next] = table[failure[state] * classCount + symbol]
                    table[state * classCount + symbol] = next
                    queue.append(next)
                } else {
                    table[state * classCount + symbol] = table[failure[state] * classCount + symbol]
                }
            }
        }
        var starts: [Int32] = [], list: [Int32] = []
        for state in 0..<stateCount {
            starts.append(Int32(list.count))
            list += output[state]
        }
        starts.append(Int32(list.count))
        let rows = table.map { UInt32($0 * classCount) | (output[$0].isEmpty ? 0 : Self.outputBit) }
        func immortal<T>(_ array: [T]) -> UnsafeBufferPointer<T> { immortalBuffer(array) }
        classes = immortal(classOf)
        self.classCount = classCount
        self.table = immortal(rows)
        outputStart = immortal(starts)
        outputList = immortal(list)
    }

    /// Calls `found` with each literal found and the offset just past it.
    @inline(__always) func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ found: (Int, Int) -> Void) {
        guard let table = table.baseAddress, let classes = classes.baseAddress, let input = bytes.baseAddress else { return }
        var row = 0
        for index in 0..<bytes.count {
            let next = table[row &+ Int(classes[Int(input[index])])]
            row = Int(next & ~Self.outputBit)
            if next & Self.outputBit != 0 {
                let state = row / classCount
                for position in Int(outputStart[state])..<Int(outputStart[state + 1]) { found(Int(outputList[position]), index &+ 1) }
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
