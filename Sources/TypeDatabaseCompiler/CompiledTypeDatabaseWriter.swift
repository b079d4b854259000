package import UniformTypeIdentifiers

extension CompiledTypeDatabase {
    /// Lays out declarations in the compiled format that `CompiledTypeDatabase` reads.
    ///
    /// The declarations must already be resolved: one per identifier (see `TypeDatabase.merge`),
    /// every parent declared among them, no cycles. Their order is the database's declaration
    /// order, which breaks ties between types that claim the same tag.
    package struct Writer {
        private var strings: [String] = []
        private var stringIDs: [String: UInt32] = [:]
        private var lists: [UInt32] = []

        package init() {}

        private mutating func intern(_ string: String) -> UInt32 {
            if let id = stringIDs[string] { return id }
            let id = UInt32(strings.count)
            strings.append(string)
            stringIDs[string] = id
            return id
        }

        private mutating func intern(_ string: String?) -> UInt32 {
            string.map { intern($0) } ?? CompiledTypeDatabase.none
        }

        private mutating func appendList(_ words: [UInt32]) -> UInt32 {
            let start = UInt32(lists.count)
            lists.append(contentsOf: words)
            return start
        }

        /// The compiled bytes of `declarations`.
        package mutating func compile(_ declarations: [TypeDeclaration]) throws(TypeDeclarationError) -> [UInt8] {
            let keys = declarations.map { $0.identifier.lowercased() }
            var indexForKey: [String: Int] = [:]
            for (index, key) in keys.enumerated() {
                guard indexForKey[key] == nil else {
                    throw TypeDeclarationError(file: declarations[index].source, entry: declarations[index].identifier,
                                               problem: .duplicateIdentifier(declarations[index].identifier))
                }
                indexForKey[key] = index
            }
            var parents: [[Int]] = []
            for declaration in declarations {
                var indices: [Int] = []
                for parent in declaration.conformsTo {
                    guard let index = indexForKey[parent.lowercased()] else {
                        throw TypeDeclarationError(
                            file: declaration.source, entry: declaration.identifier,
                            problem: .undeclaredParent(parent))
                    }
                    if !indices.contains(index) { indices.append(index) }
                }
                parents.append(indices)
            }
            let ancestors = try TypeGraph.ancestors(parents: parents, names: declarations.map(\.identifier), sources: declarations.map(\.source))

            var sources: [String] = []
            var sourceIndex: [String: Int] = [:]
            var records: [[UInt32]] = []
            var tagLists: [CompiledTypeDatabase.TagKey: [Int]] = [:]
            var tagKeyOrder: [CompiledTypeDatabase.TagKey] = []
            for (index, declaration) in declarations.enumerated() {
                let source = declaration.source ?? ""
                if sourceIndex[source] == nil {
                    sourceIndex[source] = sources.count
                    sources.append(source)
                }
                var tagWords: [UInt32] = []
                for tagClass in declaration.tags.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
                    for tag in declaration.tags[tagClass] ?? [] {
                        tagWords.append(intern(tagClass.rawValue))
                        tagWords.append(intern(tag))
                        let key = CompiledTypeDatabase.TagKey(tagClass: tagClass.key, tag: tag.lowercased())
                        if tagLists[key] == nil { tagKeyOrder.append(key) }
                        if tagLists[key]?.contains(index) != true { tagLists[key, default: []].append(index) }
                    }
                    // Classes other than extensions and MIME types (literal names, patterns) can be listed
                    // whole: the empty tag, which no lookup can ask for, lists the types using the class.
                    if tagClass != .filenameExtension, tagClass != .mimeType {
                        let key = CompiledTypeDatabase.TagKey(tagClass: tagClass.key, tag: "")
                        if tagLists[key] == nil { tagKeyOrder.append(key) }
                        if tagLists[key]?.contains(index) != true { tagLists[key, default: []].append(index) }
                    }
                }
                var flags: UInt32 = declaration.kind == .exported ? CompiledTypeDatabase.exportedFlag : 0
                if declaration.version != nil { flags |= CompiledTypeDatabase.hasVersionFlag }
                let record: [UInt32] = [
                    intern(declaration.identifier),
                    intern(keys[index]),
                    intern(declaration.typeDescription),
                    intern(declaration.referenceURL),
                    UInt32(bitPattern: Int32(truncatingIfNeeded: declaration.version ?? 0)),
                    flags,
                    UInt32(sourceIndex[source] ?? 0),
                    appendList(parents[index].map { UInt32($0) }), UInt32(parents[index].count),
                    appendList(ancestors[index].map { UInt32($0) }), UInt32(ancestors[index].count),
                    appendList(tagWords), UInt32(tagWords.count / 2),
                ]
                records.append(record)
            }
            let sourceList = appendList(sources.map { intern($0) })

            // Identifier index.
            let identifierSlots = Self.slotCount(for: declarations.count)
            var identifierTable = [UInt32](repeating: 0, count: identifierSlots * 2)
            for (index, key) in keys.enumerated() {
                var slot = Int(CompiledTypeDatabase.hash(Array(key.utf8)) & UInt32(identifierSlots - 1))
                while identifierTable[slot * 2] != 0 { slot = (slot + 1) & (identifierSlots - 1) }
                identifierTable[slot * 2] = intern(key) + 1
                identifierTable[slot * 2 + 1] = UInt32(index)
            }

            // Tag index, each list best first.
            let tagSlots = Self.slotCount(for: tagKeyOrder.count)
            var tagTable = [UInt32](repeating: 0, count: tagSlots * 4)
            for key in tagKeyOrder {
                let ordered = TypeGraph.preferenceOrder(tagLists[key] ?? []) { index in
                    (isPublic: keys[index].hasPrefix("public."), isExported: declarations[index].kind == .exported)
                }
                var hash = CompiledTypeDatabase.hash(Array(key.tagClass.utf8))
                hash = CompiledTypeDatabase.hash([0], seed: hash)
                hash = CompiledTypeDatabase.hash(Array(key.tag.utf8), seed: hash)
                var slot = Int(hash & UInt32(tagSlots - 1))
                while tagTable[slot * 4] != 0 { slot = (slot + 1) & (tagSlots - 1) }
                tagTable[slot * 4] = intern(key.tagClass) + 1
                tagTable[slot * 4 + 1] = intern(key.tag)
                tagTable[slot * 4 + 2] = appendList(ordered.map { UInt32($0) })
                tagTable[slot * 4 + 3] = UInt32(ordered.count)
            }

            // Strings.
            var stringBytes: [UInt8] = []
            var stringTable: [UInt32] = []
            for string in strings {
                stringTable.append(UInt32(stringBytes.count))
                stringTable.append(UInt32(string.utf8.count))
                stringBytes.append(contentsOf: string.utf8)
            }
            while stringBytes.count % 4 != 0 { stringBytes.append(0) }

            var header = [UInt32](repeating: 0, count: CompiledTypeDatabase.headerWords)
            var offset = CompiledTypeDatabase.headerWords * 4
            func place(_ field: CompiledTypeDatabase.Header, words: Int) -> Int {
                header[field.rawValue] = UInt32(offset)
                defer { offset += words * 4 }
                return offset
            }
            _ = place(.stringTable, words: stringTable.count)
            _ = place(.stringBytes, words: stringBytes.count / 4)
            _ = place(.typeTable, words: records.count * CompiledTypeDatabase.typeWords)
            _ = place(.lists, words: lists.count)
            _ = place(.identifierIndex, words: identifierTable.count)
            _ = place(.tagIndex, words: tagTable.count)
            header[CompiledTypeDatabase.Header.magic.rawValue] = CompiledTypeDatabase.magic
            header[CompiledTypeDatabase.Header.typeCount.rawValue] = UInt32(records.count)
            header[CompiledTypeDatabase.Header.stringCount.rawValue] = UInt32(strings.count)
            header[CompiledTypeDatabase.Header.identifierSlots.rawValue] = UInt32(identifierSlots)
            header[CompiledTypeDatabase.Header.tagSlots.rawValue] = UInt32(tagSlots)
            header[CompiledTypeDatabase.Header.sourceCount.rawValue] = UInt32(sources.count)
            header[CompiledTypeDatabase.Header.sourceList.rawValue] = sourceList
            header[CompiledTypeDatabase.Header.totalSize.rawValue] = UInt32(offset)
            // The two tag classes nearly every lookup names, so that a probe compares a class by its id.
            for (field, tagClass) in [(CompiledTypeDatabase.Header.filenameExtensionClass, UTTagClass.filenameExtension),
                                      (.mimeTypeClass, .mimeType)] {
                header[field.rawValue] = stringIDs[tagClass.key].map { $0 + 1 } ?? 0
            }

            var bytes: [UInt8] = []
            bytes.reserveCapacity(offset)
            func append(_ words: [UInt32]) {
                for word in words { withUnsafeBytes(of: word.littleEndian) { bytes.append(contentsOf: $0) } }
            }
            append(header)
            append(stringTable)
            bytes.append(contentsOf: stringBytes)
            append(records.flatMap { $0 })
            append(lists)
            append(identifierTable)
            append(tagTable)
            return bytes
        }

        private static func slotCount(for entries: Int) -> Int {
            var slots = 16
            while slots < entries * 2 { slots *= 2 }
            return slots
        }
    }
}
