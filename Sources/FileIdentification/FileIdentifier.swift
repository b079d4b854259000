internal import SystemCalls
public import SystemPackage
public import UniformTypeIdentifiers
#if canImport(Glibc)
import Glibc
#endif

/// Tells what files and buffers are, from their names and their bytes, and says why.
///
/// A `FileIdentifier` is cheap to keep and safe to share between threads: libmagic handles are
/// pooled inside, loaded the first time content needs them.
public final class FileIdentifier: Sendable {
    /// How identification reads files.
    public struct Options: Sendable, Hashable {
        /// Follow symbolic links and identify their targets (`-L`); otherwise a link is `public.symlink`.
        public var followSymlinks = false
        /// Decide by name alone; the file is not read and need not exist.
        public var nameOnly = false
        /// How many bytes of a file are read for content sniffing (containers may read their directory too).
        public var sampleSize = 64 * 1024
        /// The compiled libmagic database; `nil` for the system's.
        public var magicDatabase: String?
        /// The data directories whose `mime` subdirectory may hold the system's shared-mime-info database
        /// (the first that holds one is used): by default `$XDG_DATA_DIRS`, else `/usr/local/share` and
        /// `/usr/share`, as the XDG Base Directory specification says, read when the options are made.
        /// Empty: no system database.
        public var sharedMIMEInfoDirectories: [String]
        /// Whether the shared-mime-info 2.4 rules built into the library take part (see
        /// `FileIdentifier.hasBuiltInSharedMIMEInfo`); with `false`, or without them, only the system's
        /// database is read.
        public var usesBuiltInSharedMIMEInfo: Bool
        /// Whether Magika's model, when installed (`MagikaModel`), names text that nothing else does: a file
        /// whose name says nothing and whose content every other reader leaves plain text. Off unless asked
        /// for, so that a file gets the same answer on every machine whatever Python packages it has: by this
        /// option, or by `UTI_MAGIKA=on` in the environment when the option is not given.
        public var usesModel: Bool
        /// Whose name `Identification.mimeType` gives the format in (`MIMENames`): by default IANA's
        /// registered name where there is one.
        public var mimeNames: MIMENames
        /// Whether PRONOM's signatures are matched too (`Identification.pronom`): DROID's internal signatures
        /// against the bytes, in the same reading. Off unless asked for: most callers need the type alone.
        public var pronom = false
        /// How far PRONOM's patterns may look, from the beginning and from the end of a file: a signature whose
        /// window reaches further is not matched there, and `PronomIdentification.isScanCutShort` says so.
        /// DROID's default, 64 KiB.
        public var pronomScanLimit = 64 * 1024

        /// Options; each argument sets the property of the same name, and a `nil`
        /// `sharedMIMEInfoDirectories` or `usesModel` reads the default from the environment now
        /// (`$XDG_DATA_DIRS`; `UTI_MAGIKA=on`, `MagikaModel.isRequestedByEnvironment`).
        public init(followSymlinks: Bool = false, nameOnly: Bool = false, sampleSize: Int = 64 * 1024, magicDatabase: String? = nil,
                    sharedMIMEInfoDirectories: [String]? = nil, usesBuiltInSharedMIMEInfo: Bool = true, usesModel: Bool? = nil,
                    mimeNames: MIMENames = .standard) {
            self.followSymlinks = followSymlinks
            self.nameOnly = nameOnly
            self.sampleSize = sampleSize
            self.magicDatabase = magicDatabase
            self.sharedMIMEInfoDirectories = sharedMIMEInfoDirectories ?? SharedMIMEInfo.defaultDataDirectories()
            self.usesBuiltInSharedMIMEInfo = usesBuiltInSharedMIMEInfo
            self.usesModel = usesModel ?? MagikaModel.isRequestedByEnvironment
            self.mimeNames = mimeNames
        }
    }

    /// Whether this build of the library carries shared-mime-info 2.4's rules (the package trait
    /// `BuiltInSharedMIMEInfo`, on by default); without them identification reads the system's
    /// database only.
    public static var hasBuiltInSharedMIMEInfo: Bool { SharedMIMEInfo.Source.builtInIsAvailable }

    /// How this identifier reads files, fixed when it is made.
    public let options: Options
    private let magic: Magic?
    let sharedMIMEInfo: SharedMIMEInfo

    /// An identifier that reads files as `options` say.
    ///
    /// Identifiers made with the same shared-mime-info settings share one database, and libmagic is
    /// not opened until content first needs it, so making one is cheap.
    public init(options: Options = Options()) {
        self.options = options
        if options.pronom { PronomIdentifier.prepare() }
        self.magic = (options.magicDatabase ?? Magic.defaultDatabasePath).map { Magic(databasePath: $0) }
        self.sharedMIMEInfo = SharedMIMEInfo.database(for: .init(dataDirectories: options.sharedMIMEInfoDirectories,
                                                                 includesBuiltIn: options.usesBuiltInSharedMIMEInfo))
    }

    private init(options: Options, magic: Magic?, sharedMIMEInfo: SharedMIMEInfo) {
        self.options = options
        self.magic = magic
        self.sharedMIMEInfo = sharedMIMEInfo
    }

    /// This identifier with `usesModel` off, sharing its libmagic handles and databases: what a caller
    /// identifies with where the model must not run (see `asksModel(after:of:)`).
    package var withoutModel: FileIdentifier {
        var options = options
        options.usesModel = false
        return FileIdentifier(options: options, magic: magic, sharedMIMEInfo: sharedMIMEInfo)
    }

    /// This identifier with `pronom` on, sharing its libmagic handles and databases: for a caller that asks for
    /// PRONOM's formats on some requests only (a service's `?pronom=true`).
    package var withPronom: FileIdentifier {
        PronomIdentifier.prepare()
        var options = options
        options.pronom = true
        return FileIdentifier(options: options, magic: magic, sharedMIMEInfo: sharedMIMEInfo)
    }

    // MARK: Entry points

    /// Identifies the file at `path`; see `identify(fileAt:)` taking a `RawFilePath`.
    public func identify(fileAt path: String) throws(IdentificationError) -> Identification {
        try identify(fileAt: RawFilePath(path))
    }

    /// Identifies the file at `path` from its name and its content.
    ///
    /// Directories, bundles, symbolic links, mount points, FIFOs, sockets and devices are typed by
    /// `lstat` alone and never opened; a regular file is opened without blocking and at most
    /// `options.sampleSize` bytes of it are read (plus a ZIP's central directory at its end).
    /// - Throws: `IdentificationError` naming the path: missing, unreadable, a dangling link (with
    ///   `followSymlinks`).
    public func identify(fileAt path: RawFilePath) throws(IdentificationError) -> Identification {
        try identify(fileAt: path, seenRegular: false)
    }

    /// `identify(fileAt:)`; with `seenRegular`, for a path a walk has just found a regular file at (its
    /// `lstat` said so): the file is opened at once, and only when it is no longer a regular file, or cannot be
    /// opened, does the answer come from `identify(fileAt:)`'s own `lstat`, as it would have without the walk.
    /// `directory`: the directory the walk holds open that `path`'s last component is in, which the file is
    /// opened relative to (no path walked again); `nil` to open it by `path`.
    func identify(fileAt path: RawFilePath, seenRegular: Bool, in directory: FileDescriptor? = nil) throws(IdentificationError) -> Identification {
        let lastComponent = path.lastComponent
        let filename = String(decoding: lastComponent, as: UTF8.self)
        let name = NameMatching.evidence(for: filename)
        if options.nameOnly { return reported(Resolution.byNameOnly(name, filename: filename)) }
        do {
            if seenRegular, let identification = try identifyRegularFile(path, lastComponent: lastComponent, filename: filename, name: name, in: directory) {
                return reported(identification)
            }
            return reported(try identifyOnDisk(path, filename: filename, name: name, in: directory))
        } catch {
            throw IdentificationError(path: path.escaped, reason: error)
        }
    }

    /// Identifies the file open on `file`, by its content and by `name` (the name it is known by, for the
    /// name's evidence: nothing is opened or looked up by it). For a caller that opened the file itself
    /// (relative to a directory it walked, say) and acts on that same descriptor afterwards: what is
    /// identified is exactly what it holds, whatever the path leads to by then.
    ///
    /// A regular file is read from its start (at most `options.sampleSize` bytes, plus a ZIP's central
    /// directory at its end), whatever the descriptor's position; a FIFO, a socket or a device is typed by
    /// its kind, never read; a directory is a folder, or the package its name's extension names.
    /// - Throws: `IdentificationError` naming `name`: a descriptor that cannot be examined or read.
    public func identify(contentsOf file: FileDescriptor, name: RawFilePath) throws(IdentificationError) -> Identification {
        let filename = String(decoding: name.lastComponent, as: UTF8.self)
        let evidence = NameMatching.evidence(for: filename)
        if options.nameOnly { return reported(Resolution.byNameOnly(evidence, filename: filename)) }
        do throws(IdentificationError.Reason) {
            let status: Stat
            do {
                status = try file.status()
            } catch {
                throw .system(error)
            }
            if status.type == .directory { return reported(Resolution.directory(name: evidence, isMountPoint: false)) }
            if let special = Self.special(status, name: evidence) { return reported(special) }
            return reported(try identifyContent(FileBytes(file: file, count: Int(status.size)), name: evidence, filename: filename))
        } catch {
            throw IdentificationError(path: name.escaped, reason: error)
        }
    }

    /// Identifies bytes in memory; `filename` (optional) lets its name count as evidence.
    public func identify(data: some Collection<UInt8>, filename: String? = nil) throws(IdentificationError) -> Identification {
        try identify(source: MemoryBytes(storage: Array(data)), filename: filename)
    }

    /// Identifies bytes from any source (memory, a spool); `filename` (optional) lets its name count.
    func identify(source: some ByteSource, filename: String?) throws(IdentificationError) -> Identification {
        let lastComponent = filename.map { String(decoding: RawFilePath($0).lastComponent, as: UTF8.self) }
        let name = lastComponent.flatMap { NameMatching.evidence(for: $0) }
        if options.nameOnly { return reported(Resolution.byNameOnly(name, filename: filename ?? "")) }
        do {
            return reported(try identifyContent(source, name: name, filename: lastComponent))
        } catch {
            throw IdentificationError(path: filename ?? "-", reason: error)
        }
    }

    /// The name `identification`'s format goes by in `names`: its `mimeType` as if it had been made with
    /// `Options.mimeNames` set to `names` (a service answers each request in the names it asks for).
    public func mimeType(of identification: Identification, in names: MIMENames) -> String {
        sharedMIMEInfo.reportedMIMEType(for: identification.type, evidence: identification.evidence, names: names)
    }

    /// The identification with the MIME type to report, decided with the type.
    private func reported(_ identification: consuming Identification) -> Identification {
        var identification = identification
        identification.mimeType = sharedMIMEInfo.reportedMIMEType(for: identification.type, evidence: identification.evidence,
                                                                   names: options.mimeNames)
        return identification
    }

    // MARK: The file system

    /// The file at `path` by its kind, then its content. With `directory` (the directory the walk holds open
    /// that `path`'s last component is in) everything is asked relative to it, the last component alone, and a
    /// directory is a mount point when it is on another device than that directory; without it, by `path`.
    private func identifyOnDisk(_ path: RawFilePath, filename: String, name: NameEvidence?,
                                in directory: FileDescriptor? = nil) throws(IdentificationError.Reason) -> Identification {
        let here = directory ?? FileDescriptor.workingDirectory
        let target = directory == nil ? PathBytes(path.bytes) : PathBytes(path.lastComponent)
        var status: Stat
        do {
            status = try here.status(of: target)
        } catch {
            throw .system(error)
        }
        if status.type == .symbolicLink {
            let linkText = (try? here.linkTarget(of: target)).map { RawFilePath(bytes: $0).escaped } ?? "?"
            guard options.followSymlinks else {
                return Resolution.fileSystem(.symbolicLink, detail: "symbolic link to \(linkText)", name: name)
            }
            do {
                status = try here.status(of: target, followingLinks: true)
            } catch .tooManySymbolicLinkLevels {
                throw .linkLoop
            } catch .noSuchFileOrDirectory, .notDirectory {
                throw .danglingLink(target: linkText)
            } catch {
                throw .system(error)
            }
        }
        if status.type == .directory {
            if let directory {
                let parent = try? directory.status()
                return Resolution.directory(name: name, isMountPoint: parent.map({ $0.deviceID != status.deviceID }) == true)
            }
            return self.directory(path, status: status, name: name)
        }
        if let special = Self.special(status, name: name) { return special }
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(target, relativeTo: here, .readOnly, options: openOptions)
        } catch {
            throw .system(error)
        }
        defer { file.closeQuietly() }
        let opened: Stat
        do {
            opened = try file.status()
        } catch {
            throw .system(error)
        }
        guard opened.type == .regular else {
            // Replaced between lstat and open: type what is there now, by path, without reading it.
            return try identifyOnDisk(path, filename: filename, name: name, in: directory)
        }
        return try identifyContent(FileBytes(file: file, count: Int(opened.size)), name: name, filename: filename)
    }

    /// How a regular file is opened. Non-blocking: should the file have become a FIFO since it was seen,
    /// opening does not wait for a writer.
    private var openOptions: FileDescriptor.OpenOptions {
        var flags: FileDescriptor.OpenOptions = [.nonBlocking, FileDescriptor.OpenOptions(rawValue: O_NOCTTY)]
        if !options.followSymlinks { flags.insert(.noFollow) }
        return flags
    }

    /// A file a walk saw as regular, opened without asking `lstat` again: its identification while it still
    /// is a regular file; `nil` when it cannot be opened or is something else now, for the caller to ask
    /// by path (and answer, or fail, as it always would).
    private func identifyRegularFile(_ path: RawFilePath, lastComponent: [UInt8], filename: String, name: NameEvidence?,
                                     in directory: FileDescriptor?) throws(IdentificationError.Reason) -> Identification? {
        let opened = directory.map { try? FileDescriptor.open(PathBytes(lastComponent), relativeTo: $0, .readOnly, options: openOptions) }
            ?? (try? FileDescriptor.open(path, .readOnly, options: openOptions))
        guard let file = opened else { return nil }
        defer { file.closeQuietly() }
        guard let opened = try? file.status(), opened.type == .regular else { return nil }
        return try identifyContent(FileBytes(file: file, count: Int(opened.size)), name: name, filename: filename)
    }

    /// The type of a file that is not read: a FIFO, a socket, a device, an unknown kind; `nil` for a regular
    /// file (and a directory, which its path types).
    private static func special(_ status: Stat, name: NameEvidence?) -> Identification? {
        switch status.type {
        case .regular, .directory: nil
        case .fifo: Resolution.fileSystem(KnownTypes.namedPipe, detail: "FIFO (named pipe)", name: name)
        case .socket: Resolution.fileSystem(KnownTypes.socket, detail: "socket", name: name)
        case .characterSpecial: Resolution.fileSystem(KnownTypes.characterDevice, detail: "character device", name: name)
        case .blockSpecial: Resolution.fileSystem(KnownTypes.blockDevice, detail: "block device", name: name)
        default: Resolution.fileSystem(.item, detail: "unknown file kind", name: name)
        }
    }

    /// A directory at `path`: whether it is a mount point (its parent on another device, or itself), for the
    /// resolver's `Resolution.directory`.
    private func directory(_ path: RawFilePath, status: Stat, name: NameEvidence?) -> Identification {
        let parent = try? FileDescriptor.workingDirectory.status(of: RawFilePath(bytes: path.bytes + Array("/..".utf8)))
        let isRoot = parent.map { $0.deviceID == status.deviceID && $0.inode == status.inode } ?? false
        return Resolution.directory(name: name, isMountPoint: isRoot || parent.map({ $0.deviceID != status.deviceID }) == true)
    }

    // MARK: Content

    /// A file's content (a regular file, or bytes: never a directory), with what its name says.
    ///
    /// The kind of a file bounds its type, as on Apple's platforms: the name's candidates that are
    /// directories (packages, bundles: a Keynote document `x.key`) do not stand for a regular file, whose
    /// flat form (`com.apple.iWork.Keynote.sffkey`) does. The readers are asked about the flat forms; the
    /// resolver rules the directory types out, saying why.
    private func identifyContent(_ source: some ByteSource, name: NameEvidence?, filename: String?) throws(IdentificationError.Reason) -> Identification {
        var flat = name
        if let candidates = name?.candidates, candidates.contains(where: { $0.conforms(to: .directory) }) {
            flat?.candidates = candidates.filter { !$0.conforms(to: .directory) }
        }
        var identification = try identifyBytes(source, name: name, flat: flat, filename: filename)
        identification.fileSize = source.count
        return identification
    }

    /// The readers' part, over one `Sample` of the bytes (read and decoded once, for every reader): what the
    /// bytes are (`read`), then one resolver (`Resolution.resolve`) for every rule, which asks Magika's model
    /// when it needs it.
    private func identifyBytes(_ source: some ByteSource, name: NameEvidence?, flat: NameEvidence?, filename: String?) throws(IdentificationError.Reason) -> Identification {
        guard source.count > 0 else { return withPronom(Resolution.empty(name: flat), filename: filename) }
        let sample = try Sample(source, sampleSize: options.sampleSize)
        guard !sample.head.isEmpty else { return withPronom(Resolution.empty(name: flat), filename: filename) }
        var identification = try resolve(sample, name: name, flat: flat)
        if options.pronom {
            // The sample's prefix when a reader read it (text), so that PRONOM reads nothing again.
            let front = sample.prefixIfRead.map { $0.count <= options.pronomScanLimit ? $0 : Array($0.prefix(options.pronomScanLimit)) } ?? sample.head
            let pronom = try PronomIdentifier.identify(source, head: front, extension: Self.pronomExtension(filename),
                                                       scanLimit: options.pronomScanLimit, type: identification.type)
            identification.pronom = pronom
            Self.refine(&identification, by: pronom)
        }
        return identification
    }

    /// PRONOM's answer as a reading: the format's version the bytes match, where it is a type within the one the
    /// other readers found (PDF/A-1b within PDF), becomes the type, and the reading joins the evidence. Only a
    /// match by the bytes (a signature or a container's entries) and only one format: never by extension alone,
    /// never a choice among several.
    static func refine(_ identification: inout Identification, by pronom: PronomIdentification) {
        guard pronom.matches.count == 1, let best = pronom.matches.first, best.method != .extension else { return }
        // The catalog's types and words for the format, made once, while no registration has changed them.
        let catalog = PronomFormats.shared, format = Int(best.format)
        let current = catalog.carriers.indices.contains(format) && TypeDatabase.shared.generation == catalog.generation
        guard let version = current ? catalog.carriers[format].first : best.type else { return }
        // `PRONOM fmt/12: Portable Network Graphics 1.1 (byte match at 0, 16)`, made in the string's storage at once.
        var name = current ? catalog.details[format] : best.readingName, basis = best.basis
        let detail = name.withUTF8 { name in
            basis.withUTF8 { basis in
                String(unsafeUninitializedCapacity: name.count + basis.count + 3) { text in
                    guard let base = text.baseAddress else { return 0 }
                    var at = 0
                    func put(_ piece: UnsafeBufferPointer<UInt8>) {
                        guard let source = piece.baseAddress else { return }
                        (base + at).initialize(from: source, count: piece.count)
                        at += piece.count
                    }
                    put(name)
                    base[at] = UInt8(ascii: " ")
                    base[at + 1] = UInt8(ascii: "(")
                    at += 2
                    put(basis)
                    base[at] = UInt8(ascii: ")")
                    return at + 1
                }
            }
        }
        let reading = ContentEvidence(type: version, source: .pronom, mimeType: best.mimeType, isConclusive: true, detail: detail)
        if identification.evidence.otherReadings.isEmpty {
            identification.evidence.otherReadings.append(reading)
        } else {
            identification.evidence.otherReadings.insert(reading, at: 0)
        }
        guard version != identification.type, version.conforms(to: identification.type) else { return }
        identification.type = version
    }

    /// An empty file's identification, with PRONOM's answer for it when asked (by extension alone).
    private func withPronom(_ identification: Identification, filename: String?) -> Identification {
        guard options.pronom else { return identification }
        var identification = identification
        identification.pronom = PronomIdentifier.decide(matched: [], extension: Self.pronomExtension(filename), cutShort: false,
                                                        catalog: .shared, tables: .shared)
        return identification
    }

    /// A file name's extension as PRONOM's records give them: after the last dot, lower-case; `nil` for none.
    static func pronomExtension(_ filename: String?) -> String? {
        guard let filename, let dot = filename.utf8.lastIndex(of: UInt8(ascii: ".")) else { return nil }
        let bytes = filename.utf8[filename.utf8.index(after: dot)...]
        guard !bytes.isEmpty else { return nil }
        // An extension in ASCII (nearly all) folded byte by byte, in the string's own storage: `lowercased()`
        // cost 700 instructions a file over /usr/share.
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return String(filename[bytes.startIndex...]).lowercased() }
        return String(unsafeUninitializedCapacity: bytes.count) { buffer in
            var at = 0
            for byte in bytes {
                buffer[at] = CompiledTypeDatabase.folded(byte)
                at += 1
            }
            return at
        }
    }

    private func resolve<Source: ByteSource>(_ sample: Sample<Source>, name: NameEvidence?, flat: NameEvidence?) throws(IdentificationError.Reason) -> Identification {
        let source = sample.source
        let reading = try read(sample, name: flat)
        var name = name
        if let chosen = reading.language {
            // The language the text shows, first among the name's (GitHub Linguist's heuristics, or the one
            // language Linguist writes in an extension only binary formats claim).
            name?.candidates.removeAll { $0 == chosen.type }
            name?.candidates.insert(chosen.type, at: 0)
            name?.decidedBy = chosen.why
        }
        // The model's reading, a closure made only where the model is on (making it costs a capture per file).
        var model: (() throws(IdentificationError.Reason) -> ContentEvidence?)?
        if options.usesModel {
            model = { () throws(IdentificationError.Reason) -> ContentEvidence? in try self.modelReading(source, head: sample.head) }
        }
        return try Resolution.resolve(name: name, readings: reading.readings, encoding: reading.encoding, provenBinary: reading.provenBinary,
                                      model: model)
    }

    /// What Magika's model says of text that every other reader left plain and whose name names nothing (the
    /// resolver asks, `Resolution.resolve`): its reading, when the label is a text format uti knows and the
    /// score reaches Magika's threshold for it. A `#!` line that names no interpreter uti knows is left alone:
    /// the file says what runs it.
    private func modelReading(_ source: some ByteSource, head: [UInt8]) throws(IdentificationError.Reason) -> ContentEvidence? {
        guard !head.starts(with: [0x23, 0x21]), let model = MagikaModel.shared, let prediction = try model.predict(source), prediction.isConfident,
              let type = TypeDatabase.shared.declaredTypes(tag: prediction.label, tagClass: .magikaLabel).first,
              type != .plainText, type.conforms(to: .text) else { return nil }
        let score = (prediction.score * 1000).rounded() / 1000
        return ContentEvidence(type: type, source: .model, mimeType: type.preferredMIMEType, isConclusive: false,
                               detail: "Magika \(model.name): \(prediction.label) (score \(score))", score: prediction.score)
    }

    /// Whether this identifier would ask Magika's model about `spooled`, which an identifier with `usesModel`
    /// off identified as `identification`: for a caller that must not run the model where it is (an event
    /// loop), which identifies without it there and asks `refinedByModel` where it may.
    package func asksModel(after identification: Identification, of spooled: SpooledBytes) -> Bool {
        guard options.usesModel, Resolution.asksModel(identification), MagikaModel.shared != nil else { return false }
        return !((try? spooled.source.bytes(at: 0, length: 2)) ?? []).starts(with: [0x23, 0x21])
    }

    /// What identification with the model makes of `spooled`, given what `withoutModel` made of it
    /// (`identification`): the resolver's answer with the model's reading when it is asked and confident,
    /// else `identification` as it is. The rest of identification is not done again.
    package func refinedByModel(_ identification: Identification, of spooled: SpooledBytes, filename: String?) throws(IdentificationError) -> Identification {
        guard options.usesModel, Resolution.asksModel(identification) else { return identification }
        let source = spooled.source
        do {
            let head = try source.bytes(at: 0, length: min(4096, options.sampleSize))
            guard let reading = try modelReading(source, head: head) else { return identification }
            return reported(Resolution.withModel(identification, reading))
        } catch {
            throw IdentificationError(path: filename ?? "-", reason: error)
        }
    }

    /// Loads now what identification otherwise loads the first time it needs it, for a program that must
    /// answer its first request as fast as the others (a service, before it says it listens): libmagic's
    /// database, in `concurrency` handles (one for each identification running at once), the shared-mime-info
    /// databases with their indexes, and Magika's model when `options.usesModel` (`MagikaModel.status` says
    /// whether it loaded).
    public func prepare(concurrency: Int = 1) {
        magic?.preload(handles: max(1, concurrency))
        sharedMIMEInfo.preload()
        if options.usesModel { _ = MagikaModel.shared }
    }

    /// The language of text under an extension that only binary formats claim (`.gf`: TeX's generic font
    /// files) and that GitHub Linguist gives one or more languages (Grammatical Framework): the one language,
    /// or the one Linguist's heuristics choose among several; `nil` when they choose none.
    private func textLanguage(_ text: String, name: NameEvidence) -> (type: UTType, why: String)? {
        guard name.match == .filenameExtension, !name.candidates.isEmpty,
              !name.candidates.contains(where: { $0.conforms(to: .text) }) else { return nil }
        let languages = Languages.furtherCandidates(forExtension: name.tag).filter { $0.conforms(to: .text) }
        guard !languages.isEmpty else { return nil }
        let language = languages.count == 1 ? languages[0] : Languages.choice(forExtension: name.tag, text: text, among: languages)
        return language.map { ($0, "the bytes are text, which none of the types of .\(name.tag) is; GitHub Linguist writes \($0.tags(of: .linguistLanguage).first ?? $0.identifier) in it") }
    }

    /// What GitHub Linguist's heuristics choose for text under an extension several languages share (`.m`:
    /// Objective-C, MATLAB, Mercury ...), when the name's first type is one of them (a `.h`, which Apple calls
    /// a C header, is left alone): a language of the extension's, which the name's evidence then puts first.
    /// Linguist's heuristics look for what a language puts near the top (declarations, imports, a version
    /// line): the sample's text, not the whole file, keeps their regular expressions cheap.
    private func linguistChoice(_ text: String, name: NameEvidence) -> (type: UTType, why: String)? {
        guard name.match == .filenameExtension, Languages.hasHeuristics(forExtension: name.tag),
              let claimed = name.candidates.first, Languages.isLanguage(claimed, ofExtension: name.tag),
              let chosen = Languages.heuristicChoice(forExtension: name.tag, text: text, claimed: claimed), chosen != claimed,
              Languages.isLanguage(chosen, ofExtension: name.tag) else { return nil }
        return (chosen, "GitHub Linguist's heuristics for .\(name.tag): \(chosen.tags(of: .linguistLanguage).first ?? chosen.identifier)")
    }

    /// What the bytes say, every reader's opinion in order of authority: a container's entries, a signature,
    /// freedesktop's magic, the text's format, libmagic; and the language GitHub Linguist reads in the text,
    /// among the name's. Readers report; the resolver decides. The slower readers are not asked when a faster
    /// one settles what the name says (`NameAgreement.settles`); libmagic (the slowest) only for binary data
    /// that nothing conclusive the name agrees with has named.
    private func read(_ sample: Sample<some ByteSource>, name: NameEvidence?) throws(IdentificationError.Reason)
        -> (readings: [ContentEvidence], encoding: TextEncoding?, provenBinary: Bool, language: (type: UTType, why: String)?) {
        var readings: [ContentEvidence] = []
        func add(_ verdict: Verdict?, _ source: ContentEvidence.Source, conclusive: Bool, resemblance: Bool = false) {
            guard let verdict else { return }
            let type = verdict.type
            var reading = ContentEvidence(type: type, source: source, mimeType: verdict.mimeType ?? type.preferredMIMEType,
                                          isConclusive: conclusive, detail: verdict.detail)
            reading.isResemblance = resemblance
            if let existing = readings.firstIndex(where: { $0.type == type }) {
                // A second reader that proves what the first only suggested makes the reading conclusive, and one
                // that reads what the first only resembled makes it evidence.
                let held = readings[existing]
                if (conclusive && !held.isConclusive) || (held.isResemblance && !resemblance) { readings[existing] = reading }
                return
            }
            readings.append(reading)
        }
        let source = sample.source, head = sample.head
        var container = try ZipContainer.identify(source, prefix: head)
        if container == nil { container = try OLE2Container.identify(source, prefix: head) }
        add(container, .container, conclusive: true)
        if let signature = Signatures.verdict(head, in: source) {
            // A header whose shape other data may have too (MacBinary I's) is evidence, not proof.
            add(signature.verdict, .signature, conclusive: signature.isConclusive)
        }
        var candidates = name?.candidates ?? []
        // A signature or container the name agrees with (a .png whose signature proves PNG) settles it.
        if readings.contains(where: { NameAgreement.settles(candidates, $0) }) {
            return (readings, sample.headEncoding, try sample.isProvenBinary(), nil)
        }
        let prefix = try sample.prefix()
        let encoding = try sample.encoding()
        let text = try sample.text()
        var language: (type: UTType, why: String)?
        if let text, let name {
            language = textLanguage(text, name: name) ?? linguistChoice(text, name: name)
            if let chosen = language?.type {
                candidates.removeAll { $0 == chosen }
                candidates.insert(chosen, at: 0)
            }
        }
        // Text under a name with one candidate, a text format (a .py file that is valid UTF-8): the slower
        // readers are not asked.
        if let encoding, readings.isEmpty, candidates.count == 1, candidates[0].conforms(to: .text), candidates[0] != .plainText {
            add(Verdict(mimeType: "text/plain", detail: encoding.textDetail), .bytes, conclusive: false)
            return (readings, encoding, false, language)
        }
        for match in sharedMIMEInfo.magicMatches(prefix) {
            // shared-mime-info's lowest priorities, and rules that only see a keyword or a comment opener at the
            // start, are resemblances (a file starting with `//`, `class` or `def`): the resolver lets them
            // confirm a language the name names, never name one alone.
            let resemblance = match.priority < Self.resemblancePriority || match.isKeyword
            add(Verdict(mimeType: match.mimeType, detail: match.detail),
                .freedesktopMagic, conclusive: match.priority >= 80, resemblance: resemblance)
        }
        if let text {
            let xmlNamespaces = sharedMIMEInfo
            let formatSample = min(prefix.count, TextAnalysis.formatSampleSize)
            if let format = TextAnalysis.format(of: text, isComplete: formatSample == sample.count,
                                                xmlNamespaces: { xmlNamespaces.xmlType(namespace: $0, localName: $1) }) {
                add(format.verdict, .text, conclusive: format.isConclusive)
            }
        }
        // libmagic is for binary data that nothing cheaper has settled. Name and content agreeing (a .mo
        // file that freedesktop's magic calls a gettext catalogue) need it no more than text does: its
        // text tests are keyword heuristics (C for any file with braces) that cost regular expressions
        // over the whole buffer and, on the corpora, changed no answer for the better.
        let agreed = readings.contains { reading in !reading.isResemblance && candidates.contains { NameAgreement.of($0, with: reading) == .strict } }
        if encoding == nil, !readings.contains(where: { NameAgreement.settles(candidates, $0) }), !agreed,
           let mime = try libmagic(prefix) {
            if mime != "application/octet-stream" {
                add(Verdict(mimeType: mime, detail: "libmagic: \(mime)"), .libmagic, conclusive: !mime.hasPrefix("text/"))
            } else if let (type, description) = try libmagicDescribed(prefix) {
                // A format libmagic names only in words (LLVM bitcode, a GObject typelib): the type whose
                // `uti.libmagic-description` starts the description.
                add(Verdict(type: type, mimeType: nil, detail: "libmagic: \(description)"), .libmagic, conclusive: true)
            }
        }
        if let encoding {
            add(Verdict(mimeType: "text/plain", detail: encoding.textDetail), .bytes, conclusive: false)
        } else {
            add(Verdict(mimeType: "application/octet-stream", detail: "binary data"), .bytes, conclusive: false)
        }
        // Conclusive readings first, each group in the order of authority above.
        let ordered = readings.filter(\.isConclusive) + readings.filter { !$0.isConclusive }
        return (ordered, encoding, try sample.isProvenBinary(), language)
    }

    /// shared-mime-info magic below this priority is a resemblance, not evidence (TypeScript for `/*`).
    static let resemblancePriority = 20

    /// The type libmagic's description of the sample names (`UTTagClass.libmagicDescription`: how the
    /// description starts), with the description; `nil` when no type's does. Asked only where libmagic's MIME
    /// type is `application/octet-stream`.
    private func libmagicDescribed(_ prefix: [UInt8]) throws(IdentificationError.Reason) -> (UTType, String)? {
        let described = LibmagicDescriptions.current
        guard !described.prefixes.isEmpty, let description = try askLibmagic(prefix, { (magic, raw) throws(Magic.Failure) in try magic.description(of: raw) }),
              let type = described.type(describedAs: description) else { return nil }
        return (type, description)
    }

    /// libmagic's MIME type for the sample, when it names a declared type.
    private func libmagic(_ prefix: [UInt8]) throws(IdentificationError.Reason) -> String? {
        guard let mime = try askLibmagic(prefix, { (magic, raw) throws(Magic.Failure) in try magic.mimeType(of: raw) }) else { return nil }
        return Verdict(mimeType: mime, detail: "") == nil ? nil : mime
    }

    /// What `ask` gets of libmagic for the sample; `nil` without libmagic.
    private func askLibmagic(_ prefix: [UInt8], _ ask: (Magic, UnsafeRawBufferPointer) throws(Magic.Failure) -> String) throws(IdentificationError.Reason) -> String? {
        guard let magic else { return nil }
        let result: Result<String, Magic.Failure> = prefix.withUnsafeBytes { raw in
            Result { () throws(Magic.Failure) in try ask(magic, raw) }
        }
        switch result {
        case .success(let answer): return answer
        case .failure(let failure): throw .libmagic(failure.description)
        }
    }
}
