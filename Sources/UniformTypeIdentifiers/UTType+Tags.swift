extension UTType {
    /// The type for a filename extension (without the dot), conforming to `supertype`.
    ///
    /// When no declared type claims the extension, a dynamic type stands for it. An extension
    /// that contains a dot is not one (the extension is what follows the *last* dot), so the
    /// result is `nil` rather than a dynamic type:
    ///
    ///     UTType(filenameExtension: "JPG")        => public.jpeg
    ///     UTType(filenameExtension: "rmd")        => dyn.ah62d4rv4ge81e5pe (if nothing declares rmd)
    ///     UTType(filenameExtension: "tar.gz")     => nil
    public init?(filenameExtension: String, conformingTo supertype: UTType = .data) {
        if let type = UTType.builtInType(tag: filenameExtension, probe: TagClassProbes.filenameExtension, conformingTo: supertype) {
            self = type
            return
        }
        self.init(generalTag: filenameExtension, tagClass: .filenameExtension, conformingTo: supertype)
    }

    /// The type for a MIME type, conforming to `supertype`; a dynamic type when nothing declares it.
    public init?(mimeType: String, conformingTo supertype: UTType = .data) {
        if let type = UTType.builtInType(tag: mimeType, probe: TagClassProbes.mimeType, conformingTo: supertype) {
            self = type
            return
        }
        self.init(generalTag: mimeType, tagClass: .mimeType, conformingTo: supertype)
    }

    /// The preferred type for a tag, conforming to `supertype` when one is given.
    ///
    /// When several types claim the tag, the preference is: public types first, then exported
    /// declarations, then registered before built-in, then declaration order. When none does, a
    /// dynamic type stands for the tag; `nil` when the tag is not valid for its class.
    public init?(tag: String, tagClass: UTTagClass, conformingTo supertype: UTType?) {
        let probe: CompiledTypeDatabase.TagClassProbe? =
            if tagClass.rawValue == UTTagClass.filenameExtension.rawValue { TagClassProbes.filenameExtension }
            else if tagClass.rawValue == UTTagClass.mimeType.rawValue { TagClassProbes.mimeType }
            else { nil }
        if let probe, let type = UTType.builtInType(tag: tag, probe: probe, conformingTo: supertype) {
            self = type
            return
        }
        // Another class, with nothing registered: the compiled index alone still answers.
        let database = TypeDatabase.shared
        if probe == nil, database.builtInOnly, let builtIn = database.builtIn, supertype.map({ $0.builtInIndex >= 0 }) ?? true,
           UTType.isValid(tag: tag, tagClass: tagClass),
           let index = builtIn.firstTypeIndex(tagClass: tagClass.rawValue, tag: tag, conformingTo: supertype.map { Int($0.builtInIndex) }) {
            self.init(builtIn: builtIn, index: index)
            return
        }
        self.init(generalTag: tag, tagClass: tagClass, conformingTo: supertype)
    }

    private init?(generalTag tag: String, tagClass: UTTagClass, conformingTo supertype: UTType?) {
        guard let first = UTType.types(tag: tag, tagClass: tagClass, conformingTo: supertype).first else { return nil }
        self = first
    }

    /// The probes of the two tag classes nearly every lookup names, made once.
    private enum TagClassProbes {
        static let filenameExtension = CompiledTypeDatabase.builtIn?.probe(forTagClass: UTTagClass.filenameExtension.rawValue)
        static let mimeType = CompiledTypeDatabase.builtIn?.probe(forTagClass: UTTagClass.mimeType.rawValue)
    }

    /// The answer of the compiled index alone, when it alone may give it: an ASCII tag valid for its class,
    /// a built-in supertype (or none), a built-in claimant, and nothing registered that claims the tag or
    /// replaces a built-in type (`TypeDatabase.builtInIndexAnswers`). One hash of the tag, one probe, a walk
    /// of the claimants' precomputed ancestors; nothing copied or allocated. `nil`: the general path answers.
    private static func builtInType(tag: String, probe: CompiledTypeDatabase.TagClassProbe?, conformingTo supertype: UTType?) -> UTType? {
        guard let probe, let builtIn = CompiledTypeDatabase.builtIn else { return nil }
        // The supertype's index without a copy of it: -1 for none, nil for one that is not built in.
        let supertypeIndex = supertype?.builtInIndex ?? Int32.max
        guard supertypeIndex >= 0 else { return nil }
        let index = tag.utf8.withContiguousStorageIfAvailable { tagBytes -> Int? in
            let bytes = UnsafeRawBufferPointer(tagBytes)
            guard let hash = CompiledTypeDatabase.asciiTagHash(probe, tag: bytes),
                  TypeDatabase.shared.builtInIndexAnswers(tagHash: hash) else { return nil }
            return builtIn.firstTypeIndex(probe, tag: bytes, hash: hash,
                                          conformingTo: supertypeIndex == Int32.max ? nil : Int(supertypeIndex))
        } ?? nil
        return index.map { UTType(builtIn: builtIn, index: $0) }
    }

    /// Every declared type claiming a tag and conforming to `supertype`, best first; when there is
    /// none, the dynamic type for the tag; empty when the tag is not valid for its class.
    public static func types(tag: String, tagClass: UTTagClass, conformingTo supertype: UTType?) -> [UTType] {
        guard isValid(tag: tag, tagClass: tagClass) else { return [] }
        let database = TypeDatabase.shared
        let overlay = database.snapshot
        var result: [UTType] = []
        for key in database.candidates(tagClass: tagClass, tag: tag, in: overlay) {
            if let supertype, key != supertype.key,
               !database.declaredType(key, hasAncestor: supertype.key, in: overlay) {
                continue
            }
            if let identifier = database.canonicalIdentifier(forKey: key, in: overlay) {
                result.append(UTType(declaredIdentifier: identifier))
            }
        }
        if result.isEmpty {
            let normalized = tagClass == .filenameExtension || tagClass == .mimeType ? tag.lowercased() : tag
            let dynamic = DynamicTypeIdentifier(
                conformsTo: supertype.map { [$0.identifier] } ?? [],
                tags: [(tagClass.rawValue, normalized)]
            )
            result.append(UTType(declaredIdentifier: dynamic.identifier))
        }
        return result
    }

    private static func isValid(tag: String, tagClass: UTTagClass) -> Bool {
        guard !tag.isEmpty else { return false }
        let isExtension = tagClass == .filenameExtension
        // An ASCII tag (almost every one) is checked byte by byte, with no grapheme breaking; any other by
        // Characters, as a "." with a combining mark on it is no dot.
        var ascii = true
        for byte in tag.utf8 {
            if byte >= 0x80 { ascii = false; break }
            if byte == 0 || (isExtension && (byte == UInt8(ascii: ".") || byte == UInt8(ascii: "/"))) { return false }
        }
        if ascii { return true }
        guard !tag.contains("\0") else { return false }
        return !isExtension || (!tag.contains(".") && !tag.contains("/"))
    }

    /// The tags by class; for a dynamic type, the tags its identifier encodes.
    public var tags: [UTTagClass: [String]] {
        if isDynamic {
            var tags: [UTTagClass: [String]] = [:]
            for pair in DynamicTypeIdentifier(identifier: identifier)?.tags ?? [] {
                tags[UTTagClass(rawValue: pair.tagClass), default: []].append(pair.tag)
            }
            return tags
        }
        return TypeDatabase.shared.declaration(of: self)?.tags ?? [:]
    }

    /// The tags of one class, in declaration order (`tags[tagClass] ?? []`, without gathering the others).
    public func tags(of tagClass: UTTagClass) -> [String] {
        if isDynamic { return tags[tagClass] ?? [] }
        if let (builtIn, index) = builtInDeclaration { return builtIn.tags(ofType: index, tagClass: tagClass.rawValue) }
        return TypeDatabase.shared.tags(of: self, tagClass: tagClass)
    }

    /// The first filename extension of the type, without the dot.
    public var preferredFilenameExtension: String? { firstTag(of: .filenameExtension) }

    /// The first MIME type of the type.
    public var preferredMIMEType: String? { firstTag(of: .mimeType) }

    /// `tags(of:).first`, read in place for a built-in type.
    private func firstTag(of tagClass: UTTagClass) -> String? {
        if !isDynamic, let (builtIn, index) = builtInDeclaration { return builtIn.firstTag(ofType: index, tagClass: tagClass.rawValue) }
        return tags(of: tagClass).first
    }
}
