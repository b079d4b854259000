internal import CTypeDatabase
internal import Synchronization

/// A type database laid out in one block of bytes, read in place.
///
/// The built-in database is compiled from `TypeDB/*.plist` by `compile-typedb` into the C target
/// `CTypeDatabase`, so that start-up parses nothing: every lookup hashes its key and reads the
/// records it needs. All numbers are little-endian `UInt32` words.
///
/// Layout (byte offsets in the header):
///
///     header     16 words: magic, counts and the offsets of the sections below, and the string ids (+ 1)
///                of the two tag classes nearly every lookup names
///     strings    (offset, length) pairs into the string bytes; a string's id is its index
///     types      13 words a type: identifier, lower-cased identifier, description, reference URL,
///                version, flags, source file, parents (start, count), ancestors (start, count),
///                tags (start, count)
///     lists      a pool of words: parent and ancestor type indices, (tag class, tag) string-id
///                pairs, the type lists of the tag index, the source file names
///     indexes    open-addressing hash tables (FNV-1a, linear probing, power-of-two sizes):
///                lower-cased identifier -> type; (tag class, lower-cased tag) -> types, best first
///
/// Ancestors are stored depth-first in declaration order, which is also the order in which a
/// missing property is inherited; their number is bounded by the depth of the hierarchy, not by
/// the number of types, so `conforms(to:)` is constant-time in the size of the database.
package struct CompiledTypeDatabase: @unchecked Sendable {
    // Audited: `base` points either at the static, immutable bytes of `CTypeDatabase` or into
    // `owner`, an array this value keeps alive and never mutates. Nothing writes through it.
    private let base: UnsafeRawPointer
    private let owner: OwnedBytes?
    let size: Int

    /// A copy of bytes that lives as long as the databases that read it.
    private final class OwnedBytes {
        let buffer: UnsafeMutableRawBufferPointer
        init(_ bytes: [UInt8]) {
            buffer = .allocate(byteCount: bytes.count, alignment: 16)
            bytes.withUnsafeBytes { buffer.copyMemory(from: $0) }
        }
        deinit { buffer.deallocate() }
    }

    package static let magic: UInt32 = 0x3242_4455  // "UDB2"
    package static let none: UInt32 = .max
    package static let headerWords = 16
    package static let typeWords = 13

    package enum Header: Int {
        case magic = 0, typeCount, stringCount, stringTable, stringBytes, typeTable, lists
        case identifierIndex, identifierSlots, tagIndex, tagSlots, sourceCount, sourceList, totalSize
        /// The string id + 1 of `public.filename-extension` and of `public.mime-type` (0: the database has none).
        case filenameExtensionClass, mimeTypeClass
    }

    package enum Field: Int {
        case identifier = 0, key, description, referenceURL, version, flags, source
        case parentsStart, parentsCount, ancestorsStart, ancestorsCount, tagsStart, tagsCount
    }

    package static let exportedFlag: UInt32 = 1
    package static let hasVersionFlag: UInt32 = 2

    /// The database compiled into this library.
    static let builtIn: CompiledTypeDatabase? = {
        let size = uti_builtin_typedb_size()
        guard size >= headerWords * 4, let bytes = uti_builtin_typedb_bytes() else { return nil }
        let database = CompiledTypeDatabase(base: UnsafeRawPointer(bytes), owner: nil, size: size)
        return database.isWellFormed ? database : nil
    }()

    /// The built-in types' identifiers, each made once, when first asked for.
    private static let builtInIdentifiers: IdentifierCache? = builtIn.map { IdentifierCache(count: $0.typeCount) }

    /// The built-in types' first MIME types (a NUL for none), each made once, when first asked for: the
    /// resolver asks for one at every identification.
    private static let builtInPreferredMIMETypes: IdentifierCache? = builtIn.map { IdentifierCache(count: $0.typeCount) }

    /// The bytes compiled into this library, for checking that they are up to date.
    package static var builtInBytes: [UInt8] {
        guard let bytes = uti_builtin_typedb_bytes() else { return [] }
        return Array(UnsafeBufferPointer(start: bytes, count: uti_builtin_typedb_size()))
    }

    private init(base: UnsafeRawPointer, owner: OwnedBytes?, size: Int) {
        self.base = base
        self.owner = owner
        self.size = size
    }

    /// A database over bytes made by `CompiledTypeDatabase.Writer`; `nil` when they are not one.
    package init?(bytes: [UInt8]) {
        guard bytes.count >= Self.headerWords * 4 else { return nil }
        let owner = OwnedBytes(bytes)
        guard let pointer = owner.buffer.baseAddress else { return nil }
        self.init(base: UnsafeRawPointer(pointer), owner: owner, size: bytes.count)
        guard isWellFormed else { return nil }
    }

    private var isWellFormed: Bool {
        header(.magic) == Self.magic && Int(header(.totalSize)) == size
    }

    @inline(__always)
    func word(at byteOffset: Int) -> UInt32 {
        UInt32(littleEndian: base.loadUnaligned(fromByteOffset: byteOffset, as: UInt32.self))
    }

    @inline(__always)
    package func header(_ field: Header) -> UInt32 { word(at: field.rawValue * 4) }

    package var typeCount: Int { Int(header(.typeCount)) }

    @inline(__always)
    func field(_ field: Field, ofType index: Int) -> UInt32 {
        word(at: Int(header(.typeTable)) + (index * Self.typeWords + field.rawValue) * 4)
    }

    @inline(__always)
    func listWord(_ index: Int) -> UInt32 { word(at: Int(header(.lists)) + index * 4) }

    // MARK: Strings

    func string(_ id: UInt32) -> String? {
        guard id != Self.none else { return nil }
        return withStringBytes(id) { String(decoding: $0, as: UTF8.self) }
    }

    func withStringBytes<R>(_ id: UInt32, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let entry = Int(header(.stringTable)) + Int(id) * 8
        let offset = Int(header(.stringBytes)) + Int(word(at: entry))
        let length = Int(word(at: entry + 4))
        return body(UnsafeRawBufferPointer(start: base + offset, count: length))
    }

    private func string(_ id: UInt32, equals key: UnsafeRawBufferPointer) -> Bool {
        withStringBytes(id) { stored in
            guard stored.count == key.count else { return false }
            guard let left = stored.baseAddress, let right = key.baseAddress else { return key.isEmpty }
            return memcmp(left, right, key.count) == 0
        }
    }

    // MARK: Types

    package func identifier(ofType index: Int) -> String {
        // Only the bytes compiled into the library (`builtIn`) have no owner: theirs are the identifiers kept made.
        if owner == nil, let identifiers = Self.builtInIdentifiers {
            return identifiers.identifier(ofType: index) { string(field(.identifier, ofType: index)) ?? "" }
        }
        return string(field(.identifier, ofType: index)) ?? ""
    }
    package func key(ofType index: Int) -> String { string(field(.key, ofType: index)) ?? "" }
    /// Whether the type's identifier is its own key (already lower case): the same string in the table.
    func keyIsIdentifier(ofType index: Int) -> Bool { field(.key, ofType: index) == field(.identifier, ofType: index) }
    func typeDescription(ofType index: Int) -> String? { string(field(.description, ofType: index)) }
    func referenceURL(ofType index: Int) -> String? { string(field(.referenceURL, ofType: index)) }
    func isExported(_ index: Int) -> Bool { field(.flags, ofType: index) & Self.exportedFlag != 0 }

    func version(ofType index: Int) -> Int? {
        guard field(.flags, ofType: index) & Self.hasVersionFlag != 0 else { return nil }
        return Int(Int32(bitPattern: field(.version, ofType: index)))
    }

    func source(ofType index: Int) -> String? {
        let sourceIndex = Int(field(.source, ofType: index))
        guard sourceIndex < Int(header(.sourceCount)) else { return nil }
        return string(listWord(Int(header(.sourceList)) + sourceIndex))
    }

    /// The direct supertypes' type indices, in declaration order.
    package func parents(ofType index: Int) -> [Int] {
        list(start: field(.parentsStart, ofType: index), count: field(.parentsCount, ofType: index))
    }

    /// All supertypes' type indices, depth-first in declaration order, each once.
    package func ancestors(ofType index: Int) -> [Int] {
        list(start: field(.ancestorsStart, ofType: index), count: field(.ancestorsCount, ofType: index))
    }

    /// `parents(ofType:)` as types.
    package func parentTypes(ofType index: Int) -> [UTType] {
        types(start: Int(field(.parentsStart, ofType: index)), count: Int(field(.parentsCount, ofType: index)))
    }

    /// `ancestors(ofType:)` as types.
    package func ancestorTypes(ofType index: Int) -> [UTType] {
        types(start: Int(field(.ancestorsStart, ofType: index)), count: Int(field(.ancestorsCount, ofType: index)))
    }

    /// The types listed at `start`, made as the list is read (a list of indices in between was made and freed
    /// each time: a report's supertypes, a name's lookup, on every identification).
    private func types(start: Int, count: Int) -> [UTType] {
        (start..<(start + count)).map { UTType(builtIn: self, index: Int(listWord($0))) }
    }

    /// Whether type `index` has `ancestor` among its supertypes.
    func type(_ index: Int, hasAncestor ancestor: Int) -> Bool {
        anyAncestor(ofType: index) { $0 == ancestor }
    }

    /// Whether `body` holds for any of the type's ancestors (itself excluded), asked in turn.
    func anyAncestor(ofType index: Int, _ body: (Int) -> Bool) -> Bool {
        let start = Int(field(.ancestorsStart, ofType: index))
        let count = Int(field(.ancestorsCount, ofType: index))
        for position in start..<(start + count) where body(Int(listWord(position))) {
            return true
        }
        return false
    }

    /// The tags in declaration order, grouped by class in the order the classes first appear.
    func tags(ofType index: Int) -> [(tagClass: String, tags: [String])] {
        let start = Int(field(.tagsStart, ofType: index))
        let count = Int(field(.tagsCount, ofType: index))
        var result: [(tagClass: String, tags: [String])] = []
        for pair in 0..<count {
            let tagClass = string(listWord(start + pair * 2)) ?? ""
            let tag = string(listWord(start + pair * 2 + 1)) ?? ""
            if let position = result.firstIndex(where: { $0.tagClass == tagClass }) {
                result[position].tags.append(tag)
            } else {
                result.append((tagClass, [tag]))
            }
        }
        return result
    }

    /// The tags of one class (`classKey`, compared as stored), in declaration order: what a lookup of one
    /// class needs, without building the whole declaration.
    func tags(ofType index: Int, tagClass classKey: String) -> [String] {
        let start = Int(field(.tagsStart, ofType: index))
        let count = Int(field(.tagsCount, ofType: index))
        var key = classKey
        return key.withUTF8 { classBytes -> [String] in
            let raw = UnsafeRawBufferPointer(classBytes)
            var result: [String] = []
            for pair in 0..<count where string(listWord(start + pair * 2), equals: raw) {
                result.append(string(listWord(start + pair * 2 + 1)) ?? "")
            }
            return result
        }
    }

    /// The first tag of one class (`classKey`, compared as stored), in declaration order: `tags(ofType:tagClass:).first`
    /// without the array.
    func firstTag(ofType index: Int, tagClass classKey: String) -> String? {
        // Only the bytes compiled into the library (`builtIn`) have no owner: theirs are the MIME types kept made.
        if owner == nil, classKey == UTTagClass.mimeType.rawValue, let known = Self.builtInPreferredMIMETypes {
            let tag = known.identifier(ofType: index) { uncachedFirstTag(ofType: index, tagClass: classKey) ?? "\u{0}" }
            return tag == "\u{0}" ? nil : tag
        }
        return uncachedFirstTag(ofType: index, tagClass: classKey)
    }

    private func uncachedFirstTag(ofType index: Int, tagClass classKey: String) -> String? {
        let start = Int(field(.tagsStart, ofType: index))
        let count = Int(field(.tagsCount, ofType: index))
        var key = classKey
        return key.withUTF8 { classBytes -> String? in
            let raw = UnsafeRawBufferPointer(classBytes)
            for pair in 0..<count where string(listWord(start + pair * 2), equals: raw) {
                return string(listWord(start + pair * 2 + 1)) ?? ""
            }
            return nil
        }
    }

    package func declaration(ofType index: Int) -> TypeDeclaration {
        var tags: [UTTagClass: [String]] = [:]
        for (tagClass, values) in self.tags(ofType: index) {
            tags[UTTagClass(rawValue: tagClass)] = values
        }
        return TypeDeclaration(
            identifier: identifier(ofType: index),
            conformsTo: parents(ofType: index).map { identifier(ofType: $0) },
            typeDescription: typeDescription(ofType: index),
            referenceURL: referenceURL(ofType: index),
            version: version(ofType: index),
            tags: tags,
            kind: isExported(index) ? .exported : .imported,
            source: source(ofType: index)
        )
    }

    private func list(start: UInt32, count: UInt32) -> [Int] {
        (0..<Int(count)).map { Int(listWord(Int(start) + $0)) }
    }

    // MARK: Indexes

    /// The type whose lower-cased identifier is `key`.
    package func typeIndex(forKey key: String) -> Int? {
        var key = key
        // A lower-cased key holds no ASCII capital, so the folding probe finds it as it is.
        return key.withUTF8 { typeIndex(folding: UnsafeRawBufferPointer($0)) }
    }

    /// The type whose identifier is `identifier` with ASCII upper case folded to lower case, for an ASCII
    /// identifier: one probe, no lower-cased copy. `nil` when none is, or when the identifier is not ASCII
    /// (whose folding is `String.lowercased()`'s: `typeIndex(forKey:)` answers it).
    package func typeIndex(foldingASCII identifier: String) -> Int? {
        identifier.utf8.withContiguousStorageIfAvailable { utf8 -> Int? in
            let raw = UnsafeRawBufferPointer(utf8)
            return raw.contains(where: { $0 >= 0x80 }) ? nil : typeIndex(folding: raw)
        } ?? nil
    }

    /// The identifier index's probe, with ASCII case folded in place (the index holds lower-cased keys).
    private func typeIndex(folding key: UnsafeRawBufferPointer) -> Int? {
        let slots = Int(header(.identifierSlots))
        guard slots > 0 else { return nil }
        let table = Int(header(.identifierIndex))
        var slot = Int(Self.foldedHash(key, seed: Self.fnvOffset) & UInt32(slots - 1))
        while true {
            let stored = word(at: table + slot * 8)
            if stored == 0 { return nil }
            if string(stored - 1, equalsFolded: key) { return Int(word(at: table + slot * 8 + 4)) }
            slot = (slot + 1) & (slots - 1)
        }
    }

    /// The types claiming `tag` (lower-cased) in the tag class `classKey` (lower-cased), best first.
    package func typeIndices(forTagClassKey classKey: String, tagKey: String) -> [Int] {
        claimants(tagClass: classKey, tag: tagKey).map { list(start: UInt32($0.start), count: UInt32($0.count)) } ?? []
    }

    /// The first type claiming `tag` in `tagClass` (both compared case-insensitively, as ASCII), best first,
    /// that is `supertype` or has it among its ancestors (any type with `nil`): what `typeIndices` and a walk
    /// would find, without an array or a lower-cased copy of either string. `nil` when none does.
    package func firstTypeIndex(tagClass: String, tag: String, conformingTo supertype: Int?) -> Int? {
        guard let (start, count) = claimants(tagClass: tagClass, tag: tag) else { return nil }
        return firstConforming(start: start, count: count, to: supertype)
    }

    /// A tag class, resolved once: where the hash of its tags starts, and its string in the tag index, so
    /// that a lookup hashes and compares only the tag.
    package struct TagClassProbe: Sendable {
        /// FNV-1a of the class (ASCII case folded) and the separator that follows it in every key.
        package let seed: UInt32
        /// The class's string id in the index, or `none` when the database has no string for it.
        let stringID: UInt32
        /// Whether the class is `public.filename-extension`, whose tags hold no dot and no slash.
        package let isFilenameExtension: Bool
    }

    /// The probe of a tag class. The two classes nearly every lookup names are found through the header;
    /// for any other, `stringID` is `none` and each entry's class is compared with the class's bytes.
    package func probe(forTagClass tagClass: String) -> TagClassProbe {
        var tagClass = tagClass
        return tagClass.withUTF8 { classBytes in
            let bytes = UnsafeRawBufferPointer(classBytes)
            let seed = Self.hash(CollectionOfOne(0), seed: Self.foldedHash(bytes, seed: Self.fnvOffset))
            let isExtension = Self.equalsFolded(bytes, "public.filename-extension")
            let field: Header? = isExtension ? .filenameExtensionClass
                : Self.equalsFolded(bytes, "public.mime-type") ? .mimeTypeClass : nil
            let stored = field.map { header($0) } ?? 0
            return TagClassProbe(seed: seed, stringID: stored == 0 ? Self.none : stored - 1, isFilenameExtension: isExtension)
        }
    }

    /// The hash of an ASCII tag of the probe's class, as the tag index keys it; `nil` when the tag is not
    /// ASCII, or not valid for its class (empty, a NUL, an extension with a dot or a slash): the general
    /// path decides those.
    package static func asciiTagHash(_ probe: TagClassProbe, tag: UnsafeRawBufferPointer) -> UInt32? {
        guard !tag.isEmpty else { return nil }
        var hash = probe.seed
        for byte in tag {
            if byte == 0 || byte >= 0x80 { return nil }
            if probe.isFilenameExtension && (byte == UInt8(ascii: ".") || byte == UInt8(ascii: "/")) { return nil }
            hash = (hash ^ UInt32(folded(byte))) &* fnvPrime
        }
        return hash
    }

    /// Every type claiming an ASCII tag, best first, as `typeIndices(forTagClassKey:tagKey:)` lists them for
    /// the lower-cased pair, without lower-casing either: `tag` hashed by `asciiTagHash` with `probe`, made for
    /// `tagClass`.
    package func types(_ probe: TagClassProbe, tagClass: String, tag: UnsafeRawBufferPointer, hash: UInt32) -> [UTType] {
        var tagClass = tagClass
        return tagClass.withUTF8 { classBytes in
            guard let (start, count) = claimants(probe, classBytes: UnsafeRawBufferPointer(classBytes), tag: tag, hash: hash) else { return [] }
            return types(start: start, count: count)
        }
    }

    /// `firstTypeIndex(tagClass:tag:conformingTo:)` for a tag hashed by `asciiTagHash` with a probe of one of
    /// the two classes the header names.
    package func firstTypeIndex(_ probe: TagClassProbe, tag: UnsafeRawBufferPointer, hash: UInt32, conformingTo supertype: Int?) -> Int? {
        guard probe.stringID != Self.none,
              let (start, count) = claimants(probe, classBytes: nil, tag: tag, hash: hash) else { return nil }
        return firstConforming(start: start, count: count, to: supertype)
    }

    /// The first of the claimants listed at `start` that is `supertype` or has it among its ancestors.
    private func firstConforming(start: Int, count: Int, to supertype: Int?) -> Int? {
        for position in start..<(start + count) {
            let index = Int(listWord(position))
            guard let supertype else { return index }
            if index == supertype || type(index, hasAncestor: supertype) { return index }
        }
        return nil
    }

    /// Where the tag index lists the claimants of `tag` in `tagClass`, both compared with ASCII case folded
    /// in place (the index holds them lower-cased, so lower-cased input probes the same way): one hash probe.
    private func claimants(tagClass: String, tag: String) -> (start: Int, count: Int)? {
        let probe = probe(forTagClass: tagClass)
        var tagClass = tagClass
        var tag = tag
        return tagClass.withUTF8 { classBytes in
            tag.withUTF8 { tagBytes in
                let bytes = UnsafeRawBufferPointer(tagBytes)
                return claimants(probe, classBytes: UnsafeRawBufferPointer(classBytes), tag: bytes,
                                 hash: Self.foldedHash(bytes, seed: probe.seed))
            }
        }
    }

    /// The probe itself: an entry's class is the probe's string id when it has one, else `classBytes`
    /// compared folded (and nothing matches without either).
    private func claimants(_ probe: TagClassProbe, classBytes: UnsafeRawBufferPointer?, tag: UnsafeRawBufferPointer,
                           hash: UInt32) -> (start: Int, count: Int)? {
        let slots = Int(header(.tagSlots))
        guard slots > 0 else { return nil }
        let table = Int(header(.tagIndex))
        var slot = Int(hash & UInt32(slots - 1))
        while true {
            let entry = table + slot * 16
            let storedClass = word(at: entry)
            if storedClass == 0 { return nil }
            let sameClass = if probe.stringID != Self.none { storedClass - 1 == probe.stringID }
                else if let classBytes { string(storedClass - 1, equalsFolded: classBytes) }
                else { false }
            if sameClass, string(word(at: entry + 4), equalsFolded: tag) {
                return (Int(word(at: entry + 8)), Int(word(at: entry + 12)))
            }
            slot = (slot + 1) & (slots - 1)
        }
    }

    /// Whether `bytes` with ASCII upper case folded are `lowercase`.
    private static func equalsFolded(_ bytes: UnsafeRawBufferPointer, _ lowercase: StaticString) -> Bool {
        equalsFolded(bytes, UnsafeRawBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount))
    }

    /// Whether `bytes` with ASCII upper case folded are the lower-cased `stored`.
    private static func equalsFolded(_ bytes: UnsafeRawBufferPointer, _ stored: UnsafeRawBufferPointer) -> Bool {
        guard stored.count == bytes.count else { return false }
        for offset in 0..<bytes.count where folded(bytes[offset]) != stored[offset] { return false }
        return true
    }

    /// An ASCII capital as its lower case; any other byte as it is.
    @inline(__always)
    package static func folded(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    /// FNV-1a over the bytes with ASCII upper case folded to lower case: the hash of the lower-cased string.
    @inline(__always)
    private static func foldedHash(_ bytes: UnsafeRawBufferPointer, seed: UInt32) -> UInt32 {
        var hash = seed
        for byte in bytes { hash = (hash ^ UInt32(folded(byte))) &* fnvPrime }
        return hash
    }

    /// Whether the stored (lower-cased) string is `key` with ASCII upper case folded to lower case.
    private func string(_ id: UInt32, equalsFolded key: UnsafeRawBufferPointer) -> Bool {
        withStringBytes(id) { Self.equalsFolded(key, $0) }
    }

    /// A (tag class, tag) pair, both lower-cased: the key of the tag index.
    package struct TagKey: Hashable, Sendable {
        package var tagClass: String
        package var tag: String

        package init(tagClass: String, tag: String) {
            self.tagClass = tagClass
            self.tag = tag
        }
    }

    package static let fnvOffset: UInt32 = 2_166_136_261
    package static let fnvPrime: UInt32 = 16_777_619

    /// FNV-1a over the bytes.
    package static func hash(_ bytes: some Sequence<UInt8>, seed: UInt32 = fnvOffset) -> UInt32 {
        var hash = seed
        for byte in bytes {
            hash = (hash ^ UInt32(byte)) &* fnvPrime
        }
        return hash
    }
}

/// Strings made once per type and kept for the life of the process, so that making a `UTType` of a built-in type
/// copies its identifier instead of decoding (and, past 15 bytes, allocating) it again (and, in a cache of its
/// own, its first MIME type, which the resolver asks for at every identification): a slot per type holding
/// the address of a string, published by compare-and-exchange. Two threads that miss at once both make the string;
/// one keeps it, the other frees its own. Bounded by the number of built-in types.
package final class IdentifierCache: @unchecked Sendable {
    // Audited: a slot goes once from 0 to the address of an initialized String that is never written or freed
    // afterwards; readers load it with acquiring order, after the releasing exchange that published it.
    private let slots: UnsafeMutablePointer<Atomic<UInt>>

    package init(count: Int) {
        slots = .allocate(capacity: count)
        for slot in 0..<count { (slots + slot).initialize(to: Atomic(0)) }
    }

    package func identifier(ofType index: Int, make: () -> String) -> String {
        if let stored = UnsafePointer<String>(bitPattern: slots[index].load(ordering: .acquiring)) {
            return stored.pointee
        }
        let made = UnsafeMutablePointer<String>.allocate(capacity: 1)
        made.initialize(to: make())
        let (exchanged, original) = slots[index].compareExchange(
            expected: 0, desired: UInt(bitPattern: made), ordering: .acquiringAndReleasing)
        guard !exchanged, let kept = UnsafePointer<String>(bitPattern: original) else { return made.pointee }
        made.deinitialize(count: 1)
        made.deallocate()
        return kept.pointee
    }
}

#if canImport(Glibc)
import func Glibc.memcmp
#elseif canImport(Musl)
import func Musl.memcmp
#endif
