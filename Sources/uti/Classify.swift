import UTIReports
import ArgumentParser
import FileIdentification
import ContentDigests
import SystemPackage
import UniformTypeIdentifiers
#if canImport(Glibc)
import Glibc
#endif

extension UTI {
    struct Classify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "classify",
            abstract: "Classify whole directory trees, in parallel, with the same answers as `uti identify`.",
            discussion: """
                Walks each DIR (symbolic links are entries, never followed) and prints one record per entry \
                as it is done: a table, or --format ndjson|csv|tsv with path, identifier, mimeType, size, \
                confidence, mismatch and error. --summary prints counts and bytes per type instead, rolled up \
                the conformance tree. Paths that are not valid UTF-8 are printed with \\xNN for each byte \
                that is not (and \\\\ for a backslash), and ndjson marks them with "pathEscaped": true. \
                Exit status: 0 when every entry was classified, 1 when some could not be read.
                """
        )

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case table, ndjson, csv, tsv, json, droid
        }

        @OptionGroup var typeOptions: TypeOptions

        @OptionGroup var mimeNames: MIMENamesOption

        @Option(help: "table (default), ndjson, csv, tsv or droid (DROID's CSV export, with --pronom implied); with --summary: table or json.")
        var format: Format = .table

        @Flag(help: "With --format ndjson: each record is `uti identify --json`'s object (description, conformsTo, evidence ...; pronom with --pronom) with size and error.")
        var details = false

        @Flag(help: "Counts and bytes per type, rolled up the conformance tree, instead of one record per entry.")
        var summary = false

        @Option(name: .customLong("conforming-to"), help: ArgumentHelp("Keep entries whose type conforms to this identifier (repeatable: any of them).", valueName: "id"))
        var conformingTo: [String] = []

        @Flag(name: .customLong("mismatches-only"), help: "Keep files whose name claims another type than their content proves.")
        var mismatchesOnly = false

        @Flag(help: "Ask Magika's model about text nothing else names, when it is installed (also UTI_MAGIKA=on).")
        var model = false

        @Flag(name: .customLong("include-hidden"), help: "Walk into entries whose names start with a dot.")
        var includeHidden = false

        @Option(name: .customLong("max-depth"), help: "How deep to go below each DIR (0: the directories themselves).")
        var maxDepth: Int?

        @Flag(name: .customLong("one-file-system"), help: "Stay on the file system of each DIR.")
        var oneFileSystem = false

        @Option(help: ArgumentHelp("Leave out entries whose name matches this pattern, and everything below them (repeatable).", valueName: "glob"))
        var exclude: [String] = []

        @Option(name: .customLong("files-from"), help: ArgumentHelp("Classify the paths listed in FILE (- for standard input), one per line, instead of walking.", valueName: "file"), completion: .file())
        var filesFrom: String?

        @Flag(name: .customShort("0"), help: "With --files-from: paths are separated by NUL bytes, as `find -print0` writes them.")
        var nulSeparated = false

        @Option(help: ArgumentHelp("Identify with this many threads (default: one per processor); a job scheduler that gives the process fewer cores says so here.", valueName: "n"))
        var jobs: Int?

        @Flag(help: "Print entries in a stable order (names sorted within each directory) rather than as they are done.")
        var sorted = false

        @Flag(help: ArgumentHelp(
            "Read the members of archives too (tar, ZIP, 7-Zip, RAR, cpio, ar, ISO 9660, compressed streams...), without extracting: one record each after the archive's, its path ARCHIVE#MEMBER.",
            discussion: "Archives in archives are opened to a depth; --archive-limit sets the limits; records say which one stopped a reading (truncated). See docs/CommandLine.md."))
        var archives = false

        @Option(name: .customLong("archive-limit"), help: ArgumentHelp(ArchiveLimitsArgument.help, valueName: "name=value"))
        var archiveLimit: [String] = []

        @Flag(help: ArgumentHelp(
            "Identify PRONOM's formats and versions too, by DROID's signatures: PUID, format name and version in each record.",
            discussion: "As DROID and Siegfried report them; see docs/CommandLine.md."))
        var pronom = false

        @Option(help: ArgumentHelp("A digest of each file's contents: md5, sha1 or sha256 (reads every byte of every file).", valueName: "algorithm"))
        var hash: String?

        /// `--hash`'s algorithm.
        var digest: ContentDigest? { hash.flatMap { ContentDigest(rawValue: $0.lowercased()) } }

        @Argument(help: "Directories (or files) to classify.", completion: .file())
        var directories: [String] = []

        func validate() throws {
            if directories.isEmpty && filesFrom == nil { throw ValidationError("Give a directory to classify, or --files-from.") }
            if filesFrom != nil && !directories.isEmpty { throw ValidationError("--files-from and directories cannot be combined.") }
            if nulSeparated && filesFrom == nil { throw ValidationError("-0 goes with --files-from.") }
            if details && (format != .ndjson || summary) { throw ValidationError("--details goes with --format ndjson.") }
            if let maxDepth, maxDepth < 0 { throw ValidationError("--max-depth must be 0 or more.") }
            if let jobs, jobs < 1 { throw ValidationError("--jobs must be 1 or more.") }
            if summary && ![.table, .json].contains(format) { throw ValidationError("--summary prints a table or --format json.") }
            if !summary && format == .json { throw ValidationError("--format json is for --summary; records are ndjson.") }
            if let hash, ContentDigest(rawValue: hash.lowercased()) == nil {
                throw ValidationError("--hash takes md5, sha1 or sha256, not '\(hash)'.")
            }
            if format == .droid && archives { throw ValidationError("--format droid writes files, not archives' members: leave out --archives.") }
            if !archiveLimit.isEmpty && !archives { throw ValidationError("--archive-limit goes with --archives.") }
            if case .failure(let problem) = ArchiveLimitsArgument.parse(archiveLimit) { throw ValidationError(problem.description) }
        }

        func run() throws {
            try typeOptions.loadDeclarations()
            var supertypes: [UTType] = []
            for identifier in conformingTo {
                guard let type = UTType(identifier) else {
                    Terminal.error(UnknownIdentifier.message(identifier))
                    throw ExitCode(2)
                }
                supertypes.append(type)
            }
            var identifierOptions = FileIdentifier.Options(usesModel: model ? true : nil, mimeNames: mimeNames.names)
            identifierOptions.pronom = pronom || format == .droid
            let identifier = FileIdentifier(options: identifierOptions)
            // DROID's rows name their folder's row: folders come before what they hold.
            var options = ClassificationOptions(includeHidden: includeHidden, maxDepth: maxDepth, oneFileSystem: oneFileSystem,
                                                exclude: exclude, sorted: sorted || format == .droid)
            if let jobs { options.workers = jobs }
            if archives { options.archives = try ArchiveLimitsArgument.parse(archiveLimit).get() }
            options.digest = digest
            let classification: Classification
            var list: FileDescriptor?
            if let filesFrom {
                do {
                    list = filesFrom == "-" ? .standardInput : try FileDescriptor.open(FilePath(filesFrom), .readOnly, options: [.closeOnExec])
                } catch {
                    Terminal.error("\(filesFrom): \(error)")
                    throw ExitCode(2)
                }
                classification = identifier.classify(pathsFrom: list ?? .standardInput, nulSeparated: nulSeparated, options: options)
            } else {
                classification = identifier.classify(directories: directories.map(RawArguments.path(for:)), options: options)
            }
            defer { if let list, list != .standardInput { try? list.close() } }

            var output = StandardOutput()
            var progress = Progress()
            var tally = Tally()
            tally.pronom = pronom
            var failed = false
            var droidIDs = DroidIDs()
            var writer = RecordWriter(format: format, details: details, archives: archives, pronom: pronom || format == .droid)
            writer.digest = digest
            if !summary, let header = writer.header { output.line(header) }
            // The options read once, not per entry (a property wrapper's getter is a call each time).
            let mismatchesOnly = mismatchesOnly, summary = summary, format = format, rendersInPlace = writer.rendersInPlace
            let filtered = mismatchesOnly || !supertypes.isEmpty
            // Borrowed, never copied: a copy of an entry retains each of its strings and arrays.
            func write(_ entry: borrowing ClassifiedEntry) {
                progress.count(entry)
                // Read in place: a copy of an identification retains each of its strings and arrays.
                switch entry.result {
                case .failure:
                    failed = true
                    if filtered { return }
                case .success(let identification):
                    if mismatchesOnly && !identification.isMismatch { return }
                    if !supertypes.isEmpty && !supertypes.contains(where: { identification.type.conforms(to: $0) }) { return }
                }
                if summary {
                    tally.add(entry)
                } else if rendersInPlace {
                    output.line { writer.record(entry, into: &$0) }
                } else if format == .droid {
                    output.raw(Array(writer.droidRow(entry, id: &droidIDs).utf8) + [UInt8(ascii: "\n")])
                } else if format == .csv {
                    // RFC 4180's quoting carries any character: a name's line break stays one, inside quotes,
                    // so that no escape makes two names read back alike.
                    output.raw(Array(writer.record(entry).utf8) + [UInt8(ascii: "\n")])
                } else {
                    output.line(writer.record(entry))
                }
            }
            classification.forEachBatch { batch in
                // An archive's members follow it, each a record of its own.
                for index in batch.indices {
                    write(batch[index])
                    for member in batch[index].members.indices { write(batch[index].members[member]) }
                }
                if progress.isDue {
                    output.flush()
                    progress.draw()
                }
                return true
            }
            progress.erase()
            if summary {
                for line in format == .json ? [tally.json.rendered] : tally.table { output.line(line) }
            }
            output.flush()
            if failed { throw ExitCode(1) }
        }
    }
}

/// One record per entry in the chosen format.
struct RecordWriter {
    let format: UTI.Classify.Format
    /// ndjson records as `uti identify --json`'s objects, with size and error.
    var details = false
    /// `--archives`: members' records, and the columns that say what archives and members are.
    var archives = false
    /// `--pronom`: PRONOM's PUID, format name and version, and its warning.
    var pronom = false
    /// `--hash`: the digest's column (and ndjson field).
    var digest: ContentDigest?

    static let columns = ["path", "identifier", "mimeType", "size", "confidence", "mismatch", "error"]
    /// The columns `--archives` adds in CSV and TSV.
    static let archiveColumns = ["depth", "modified", "encrypted", "members", "truncated"]
    /// The columns `--pronom` adds in CSV and TSV (and fields in ndjson).
    static let pronomColumns = ["puid", "formatName", "formatVersion", "pronomWarning"]

    /// `--pronom`'s fields of an entry: the best format's PUID, name and version, and the warning.
    func pronomFields(_ identification: Identification?) -> [String?] {
        guard let pronom = identification?.pronom else { return [nil, nil, nil, nil] }
        let best = pronom.matches.first
        return [best?.puid, best?.name, best?.version, pronom.warning]
    }

    var header: String? {
        let columns = Self.columns + (archives ? Self.archiveColumns : []) + (pronom ? Self.pronomColumns : [])
            + (digest.map { [$0.rawValue] } ?? [])
        switch format {
        case .droid: return DroidCSV.header(digest: digest)
        case .csv: return columns.joined(separator: ",")
        case .tsv: return columns.joined(separator: "\t")
        case .table: return "IDENTIFIER".padding(44) + "MIME TYPE".padding(36) + "SIZE".leftPadded(12) + "  PATH"
        case .ndjson, .json: return nil
        }
    }

    /// The JSON members `--archives` adds to a record: an archive's or a member's.
    func archiveFields(_ entry: ClassifiedEntry) -> [(String, JSONValue)] {
        if let member = entry.member { return ArchiveReport.fields(of: member).filter { $0.0 != "size" } }
        if let reading = entry.archive { return ArchiveReport.fields(of: reading) }
        return []
    }

    /// The CSV and TSV fields `--archives` adds (`archiveColumns`).
    func archiveColumnFields(_ entry: ClassifiedEntry) -> [String] {
        if let member = entry.member {
            return [String(member.depth), member.modified.map(ArchiveReport.time) ?? "", member.isEncrypted ? "true" : "false",
                    member.memberCount.map { String($0) } ?? "", member.truncated?.rawValue ?? ""]
        }
        if let reading = entry.archive {
            return ["0", "", "false", String(reading.memberCount), reading.truncated?.rawValue ?? ""]
        }
        return ["0", "", "false", "", ""]
    }

    /// Whether `record(_:into:)` writes this format's records (plain ndjson, the common case of a large tree).
    var rendersInPlace: Bool { format == .ndjson && !details }

    /// A plain ndjson record, written into `output` as `record(_:)` would render it, with no value built.
    func record<Output: ByteSink & ~Copyable>(_ entry: ClassifiedEntry, into output: inout Output) {
        func key(_ name: StaticString) {
            name.withUTF8Buffer { output.append(bytes: $0) }
        }
        /// A size in decimal, its digits written in place.
        func number(_ value: Int?) {
            guard let value else { return key("null") }
            output.append(decimal: value)
        }
        key("{\"path\":")
        // A path of printable ASCII without a quote or a backslash (nearly every one) goes as its bytes are; any
        // other is made text (`dataText`: valid UTF-8 as it is, other bytes escaped) and quoted.
        let plainPath = entry.path.bytes.withUnsafeBufferPointer { bytes -> Bool in
            guard PrintableASCII.test(bytes, allowingQuotes: false) else { return false }
            output.append(UInt8(ascii: "\""))
            output.append(bytes: bytes)
            output.append(UInt8(ascii: "\""))
            return true
        }
        if !plainPath { JSONValue.quote(entry.path.dataText, into: &output) }
        var pronomAnswer: PronomIdentification?
        switch entry.result {
        case .success(let identification):
            if pronom { pronomAnswer = identification.pronom }
            key(",\"identifier\":")
            JSONValue.quote(identification.type.identifier, into: &output)
            key(",\"mimeType\":")
            JSONValue.quote(identification.mimeType, into: &output)
            key(",\"size\":")
            number(entry.size)
            key(",\"confidence\":")
            JSONValue.quote(identification.confidence.rawValue, into: &output)
            key(identification.isMismatch ? ",\"mismatch\":true,\"error\":null" : ",\"mismatch\":false,\"error\":null")
        case .failure(let error):
            key(",\"identifier\":null,\"mimeType\":null,\"size\":")
            number(entry.size)
            key(",\"confidence\":null,\"mismatch\":null,\"error\":")
            JSONValue.quote(error.message, into: &output)
        }
        if !plainPath, !entry.path.isValidUTF8 { key(",\"pathEscaped\":true") }
        if pronom {
            // The fields `pronomFields` gives, under the names of `pronomColumns`, written in place.
            if let pronom = pronomAnswer {
                // The best match's fields read where they are (no copy of the match).
                let matches = pronom.matches, any = !matches.isEmpty
                func field(_ name: StaticString, _ value: String?) {
                    key(name)
                    if let value { JSONValue.quote(value, into: &output) } else { key("null") }
                }
                field(",\"puid\":", any ? matches[0].puid : nil)
                field(",\"formatName\":", any ? matches[0].name : nil)
                field(",\"formatVersion\":", any ? matches[0].version : nil)
                field(",\"pronomWarning\":", pronom.warning)
            } else {
                key(",\"puid\":null,\"formatName\":null,\"formatVersion\":null,\"pronomWarning\":null")
            }
        }
        if let digest {
            output.append(UInt8(ascii: ","))
            JSONValue.quote(digest.rawValue, into: &output)
            output.append(UInt8(ascii: ":"))
            if let value = entry.digest { JSONValue.quote(value, into: &output) } else { key("null") }
        }
        if archives, case let fields = archiveFields(entry), !fields.isEmpty {
            // The fields as an object rendered, its braces left out.
            let rendered = Array(JSONValue.object(fields).rendered.utf8)
            output.append(UInt8(ascii: ","))
            rendered.withUnsafeBufferPointer { output.append(bytes: UnsafeBufferPointer(rebasing: $0.dropFirst().dropLast())) }
        }
        key("}")
    }

    func record(_ entry: ClassifiedEntry) -> String {
        // Data formats carry any character by their own quoting; the table is for a terminal.
        let path = format == .table ? entry.path.escaped : entry.path.dataText
        let identification = entry.identification
        var fields: [String] {
            [
                path,
                identification?.type.identifier ?? "",
                identification?.mimeType ?? "",
                entry.size.map { String($0) } ?? "",
                identification?.confidence.rawValue ?? "",
                identification.map { $0.isMismatch ? "true" : "false" } ?? "",
                entry.error?.message ?? "",
            ]
        }
        switch format {
        case .ndjson where details:
            var members: [(String, JSONValue)]
            if let identification, case .object(let report) = IdentificationReport(identification, path: path, pathEscaped: !entry.path.isValidUTF8).json {
                members = report
            } else {
                members = [("path", .string(path))]
                if !entry.path.isValidUTF8 { members.append(("pathEscaped", .boolean(true))) }
                members += [("identifier", .null), ("mimeType", .null), ("conformsTo", .null), ("confidence", .null), ("mismatch", .null)]
            }
            members += [("size", JSONValue(entry.size)), ("error", JSONValue(entry.error?.message))]
            if let digest { members.append((digest.rawValue, JSONValue(entry.digest))) }
            if archives { members += archiveFields(entry) }
            return JSONValue.object(members).rendered
        case .ndjson, .json:
            var bytes: [UInt8] = []
            record(entry, into: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        case .csv:
            return (fields + (archives ? archiveColumnFields(entry) : []) + (pronom ? pronomFields(identification).map { $0 ?? "" } : [])
                    + (digest != nil ? [entry.digest ?? ""] : []))
                .map(Self.csvField).joined(separator: ",")
        case .tsv:
            return (fields + (archives ? archiveColumnFields(entry) : []) + (pronom ? pronomFields(identification).map { $0 ?? "" } : [])
                    + (digest != nil ? [entry.digest ?? ""] : []))
                .map(Self.tsvField).joined(separator: "\t")
        case .droid:
            var ids = DroidIDs()
            return droidRow(entry, id: &ids)
        case .table:
            if let error = entry.error { return "error: \(error.message)".column(80) + "".leftPadded(12) + "  " + path }
            guard let identification else { return path }
            var line = identification.type.identifier.column(44) + identification.mimeType.column(36)
                + (entry.size.map { String($0) } ?? "-").leftPadded(12) + "  " + path
            if identification.isMismatch { line += "  [mismatch]" }
            if pronom, let best = identification.pronom?.matches.first {
                line += "  [\(best.puid)\(best.version.isEmpty ? "" : " " + best.version)]"
            }
            if let member = entry.member {
                line += ArchiveReport.words(member)
            } else if let reading = entry.archive {
                line += ArchiveReport.words(reading)
            }
            return line
        }
    }

    /// RFC 4180: quoted when it holds a comma, a quote or a line break (`\r\n` among them, one character to
    /// Swift, hence the scalars); quotes doubled; everything else as it is.
    static func csvField(_ field: String) -> String {
        guard field.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Tab-separated values cannot quote: backslash, tab and line breaks are escaped as \\, \t, \n, \r.
    static func tsvField(_ field: String) -> String {
        guard field.contains(where: { $0 == "\\" || $0 == "\t" || $0 == "\n" || $0 == "\r" }) else { return field }
        var result = ""
        for character in field {
            switch character {
            case "\\": result += "\\\\"
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            default: result.append(character)
            }
        }
        return result
    }
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }

    /// The string right-aligned in `width` columns.
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}


/// Identifiers for `--format droid`'s ID and PARENT_ID columns: each entry numbered from 1 in the order written,
/// a directory remembered so that its entries name it as their parent.
struct DroidIDs {
    private var next = 1
    private var directories: [[UInt8]: Int] = [:]

    /// The entry's ID and its parent directory's (0: not written before it).
    mutating func assign(_ path: [UInt8], isDirectory: Bool) -> (id: Int, parent: Int) {
        let id = next
        next += 1
        var parentPath = path
        while parentPath.count > 1, parentPath.last == UInt8(ascii: "/") { parentPath.removeLast() }
        if let slash = parentPath.lastIndex(of: UInt8(ascii: "/")) { parentPath = Array(parentPath[..<max(slash, 1)]) } else { parentPath = [] }
        let parent = directories[parentPath] ?? 0
        if isDirectory {
            var own = path
            while own.count > 1, own.last == UInt8(ascii: "/") { own.removeLast() }
            directories[own] = id
        }
        return (id, parent)
    }
}

/// DROID's CSV export, as preservation workflows import it: one row per file, every field quoted, the columns
/// DROID writes; a file with several formats has FORMAT_COUNT above 1 and one more PUID, MIME_TYPE, FORMAT_NAME,
/// FORMAT_VERSION group per further format, as DROID's own export does.
enum DroidCSV {
    static func header(digest: ContentDigest?) -> String {
        (["ID", "PARENT_ID", "URI", "FILE_PATH", "NAME", "METHOD", "STATUS", "SIZE", "TYPE", "EXT", "LAST_MODIFIED",
          "EXTENSION_MISMATCH", digest.map { $0.rawValue.uppercased() + "_HASH" } ?? "HASH", "FORMAT_COUNT",
          "PUID", "MIME_TYPE", "FORMAT_NAME", "FORMAT_VERSION"]).map(quoted).joined(separator: ",")
    }

    /// A field in double quotes, quotes doubled (DROID quotes every field).
    static func quoted(_ field: String) -> String { "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    /// `path` made absolute against the working directory, without `.` components.
    static func absolute(_ path: [UInt8]) -> [UInt8] {
        guard path.first != UInt8(ascii: "/") else { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        var base = Array(buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
        var rest = path[...]
        while rest.starts(with: Array("./".utf8)) { rest = rest.dropFirst(2) }
        if rest == Array(".".utf8)[...] { return base }
        if base.last != UInt8(ascii: "/") { base.append(UInt8(ascii: "/")) }
        return base + rest
    }

    /// `file:` and the path, each byte outside RFC 3986's unreserved characters and `/` percent-encoded.
    static func uri(_ path: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out = Array("file:".utf8)
        for byte in path {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The modification time as DROID writes it: local time, `yyyy-MM-ddTHH:mm:ss`; "" when it cannot be read.
    static func modified(_ path: RawFilePath) -> String {
        guard let status = try? FileDescriptor.workingDirectory.status(of: path) else { return "" }
        var seconds = status.st_mtim.tv_sec
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return "" }
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension RecordWriter {
    /// One row of `--format droid`.
    func droidRow(_ entry: ClassifiedEntry, id ids: inout DroidIDs) -> String {
        let identification = entry.identification
        let isDirectory = identification?.type.conforms(to: .directory) == true && identification?.fileSize == nil
        let absolute = DroidCSV.absolute(entry.path.bytes)
        let (id, parent) = ids.assign(absolute, isDirectory: isDirectory)
        let name = String(decoding: entry.path.lastComponent, as: UTF8.self)
        let ext = isDirectory ? "" : name.split(separator: ".", omittingEmptySubsequences: false).dropFirst().last.map(String.init) ?? ""
        let pronom = identification?.pronom
        let matches = pronom?.matches ?? []
        let method: String
        switch matches.first?.method {
        case .signature?: method = "Signature"
        case .container?: method = "Container"
        case .extension?: method = "Extension"
        case nil: method = ""
        }
        let mismatch = pronom?.warning?.hasPrefix("extension mismatch") == true
        let status = entry.error.map { "Error: " + $0.message } ?? "Done"
        var fields = [String(id), parent == 0 ? "" : String(parent), DroidCSV.uri(absolute), String(decoding: absolute, as: UTF8.self), name,
                      isDirectory ? "" : method, status, isDirectory ? "" : entry.size.map { String($0) } ?? "",
                      isDirectory ? "Folder" : (identification.map(FileIdentifier.holdsMembers) == true ? "Container" : "File"), ext,
                      DroidCSV.modified(entry.path), isDirectory ? "false" : (mismatch ? "true" : "false"), entry.digest ?? "",
                      isDirectory ? "" : String(matches.count)]
        if matches.isEmpty {
            fields += ["", "", "", ""]
        }
        for match in matches {
            fields += [match.puid, match.mimeType ?? "", match.name, match.version]
        }
        return fields.map(DroidCSV.quoted).joined(separator: ",")
    }
}
