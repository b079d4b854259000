import Foundation
import Testing
import UniformTypeIdentifiers

/// The declared type that claims a MIME type, whatever it conforms to.
func declaredType(mimeType: String) -> UTType? {
    UTType.types(tag: mimeType, tagClass: .mimeType, conformingTo: nil).first(where: \.isDeclared)
}

@Suite("Coverage of libmagic and freedesktop")
struct CoverageTests {
    @Test("every MIME type libmagic 5.44 can print resolves to a declared type")
    func libmagicMIMETypes() throws {
        let text = try String(contentsOf: Reference.directory.appending(path: "libmagic-5.44-all-mimes.txt"), encoding: .utf8)
        let mimeTypes = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        #expect(mimeTypes.count == 752)
        let unresolved = mimeTypes.filter { declaredType(mimeType: $0) == nil }
        #expect(unresolved.isEmpty, "\(unresolved.count) unresolved: \(unresolved.prefix(20))")
    }

    @Test("MIME aliases land on one type")
    func aliases() throws {
        let pairs = [
            ("application/x-gzip", "application/gzip"), ("application/x-bzip2", "application/x-bzip"),
            ("image/x-ms-bmp", "image/bmp"), ("application/x-zip-compressed", "application/zip"),
            ("text/x-script.python", "text/x-python"),
        ]
        for (alias, name) in pairs {
            let aliasType = try #require(declaredType(mimeType: alias), "\(alias)")
            let nameType = try #require(declaredType(mimeType: name), "\(name)")
            #expect(aliasType == nameType, "\(alias) and \(name)")
        }
    }

    /// Apple's own tag assignments, which stand where freedesktop lumps together types Apple tells apart
    /// (freedesktop's image/heif has image/heic as an alias; Apple declares public.heic for it), CoreTypes' and
    /// those of macOS's other system bundles (AVCHD's `.mts` is not freedesktop's MPEG-2 transport stream).
    private static func appleTagOwners() throws -> (extensions: [String: Set<String>], mimeTypes: [String: Set<String>]) {
        var extensions: [String: Set<String>] = [:], mimeTypes: [String: Set<String>] = [:]
        for row in try Reference.table("apple-system-types.tsv") + Reference.table("macos-system-bundle-types.tsv") {
            let identifier = row["identifier"] ?? ""
            for tag in Reference.words(row["filenameExtensions"]) { extensions[tag.lowercased(), default: []].insert(identifier) }
            for tag in Reference.words(row["mimeTypes"]) { mimeTypes[tag.lowercased(), default: []].insert(identifier) }
        }
        return (extensions, mimeTypes)
    }

    @Test("every freedesktop type resolves, with its aliases, globs and sub-class-of relations",
          arguments: ["freedesktop.org-2.4.xml.in", "freedesktop.org-2.2.xml"])
    func freedesktop(file: String) throws {
        let url = Reference.directory.appending(path: file)
        let types = try Reference.freedesktopTypes(at: url)
        #expect(types.count > 800)
        let appleTypes = Set(try (Reference.table("apple-system-types.tsv") + Reference.table("macos-system-bundle-types.tsv")).compactMap { $0["identifier"] })
        let apple = try Self.appleTagOwners()
        // The older copy (2.2, as Debian 12 installs it) must resolve, aliases and globs included, but where 2.4 moved a
        // glob, split an alias into a type of its own or changed a sub-class-of relation (2.2 had C#
        // under C source, *.pyx as Python), 2.4 is what the database follows.
        let current = file == "freedesktop.org-2.4.xml.in"
        for mime in types {
            guard let type = declaredType(mimeType: mime.name) else {
                Issue.record("\(mime.name) does not resolve")
                continue
            }
            for alias in mime.aliases {
                let aliasType = declaredType(mimeType: alias)
                let applesOwn = aliasType.map { apple.mimeTypes[alias]?.contains($0.identifier) == true } ?? false
                #expect(aliasType == type || applesOwn || (!current && aliasType != nil), "alias \(alias) of \(mime.name) (\(type.identifier))")
            }
            for ext in mime.extensions {
                let claimants = UTType.types(tag: ext, tagClass: .filenameExtension, conformingTo: nil)
                let applesOwn = claimants.first.map { apple.extensions[ext]?.contains($0.identifier) == true } ?? false
                let resolves = claimants.first?.isDeclared == true
                #expect(claimants.contains(type) || applesOwn || (!current && resolves), "*.\(ext) of \(mime.name) (\(type.identifier))")
            }
            guard current else { continue }
            for parent in mime.parents {
                guard var parentType = declaredType(mimeType: parent) else {
                    Issue.record("parent \(parent) of \(mime.name) does not resolve")
                    continue
                }
                // An Apple type keeps exactly Apple's parents: freedesktop's parent is no conformance, and where
                // it says what the files also are to a reader (an EPUB is a ZIP archive, an .xls file an OLE2
                // compound file), the type's `uti.kind-of` tags name it (or a type of which it is a kind).
                if appleTypes.contains(type.identifier) {
                    if !type.conforms(to: parentType), let container = Self.container(of: parentType) {
                        #expect(Self.kinds(of: type).contains { $0.conforms(to: container) || Self.kinds(of: $0).contains { $0.conforms(to: container) } },
                                "\(mime.name) (\(type.identifier)) sub-class-of \(parent): \(container.identifier) is not among its kinds")
                    }
                    continue
                }
                // freedesktop files scripts under application/x-executable ("runnable"); a script is an
                // executable but not a Unix binary.
                if parentType == .unixExecutable && type.conforms(to: .text) { parentType = .executable }
                // An edge that would close a cycle is left out.
                #expect(type.conforms(to: parentType) || parentType.conforms(to: type),
                        "\(mime.name) (\(type.identifier)) sub-class-of \(parent) (\(parentType.identifier))")
            }
        }
    }

    static let containerFormats = ["public.zip-archive", "uti.mime.application.x-ole-storage", "uti.mime.application.x-riff",
                                   "uti.mime.application.x-iff", "org.tukaani.xz-archive", "public.tiff"].compactMap { UTType($0) }

    /// The container format `type` is or is stored in by its conformance, if any.
    static func container(of type: UTType) -> UTType? {
        containerFormats.first { type.conforms(to: $0) }
    }

    /// What a type's own and its supertypes' `uti.kind-of` tags name.
    static func kinds(of type: UTType) -> [UTType] {
        ([type] + type.orderedSupertypes).flatMap { $0.tags(of: UTTagClass(rawValue: "uti.kind-of")) }.compactMap { UTType($0) }
    }

    @Test("conformance answers real questions")
    func conformanceByFamily() throws {
        let appleTypes = Set(try Reference.table("apple-system-types.tsv").compactMap { $0["identifier"] })
        let types = try Reference.freedesktopTypes(at: Reference.directory.appending(path: "freedesktop.org-2.4.xml.in"))
        let families: [(prefix: String, supertype: UTType)] = [
            ("image/", .image), ("audio/", .audio), ("video/", .audiovisualContent), ("font/", .font), ("text/", .text),
        ]
        for mime in types {
            guard let type = declaredType(mimeType: mime.name) else { continue }
            // Apple's classification stands for Apple's types (EPS is PostScript, an M3U file a playlist);
            // playlists filed under audio/ and video/ are playlists; text/x-devicetree-binary is text in name only.
            let exempt = appleTypes.contains(type.identifier) || type.conforms(to: .playlist)
                || mime.name == "text/x-devicetree-binary"
            for family in families where mime.name.hasPrefix(family.prefix) && !exempt {
                #expect(type.conforms(to: family.supertype), "\(mime.name) (\(type.identifier)) conforms to \(family.supertype)")
            }
            #expect(type.conforms(to: .item) || type.identifier.hasPrefix("public.") == false && !type.conforms(to: .data),
                    "\(mime.name) (\(type.identifier)) conforms to public.item")
        }
        let checks: [(String, UTType)] = [
            ("text/x-python", .pythonScript), ("application/x-shellscript", .shellScript), ("text/markdown", .plainText),
            ("application/x-7z-compressed", .archive), ("application/x-rar", .archive), ("application/x-xz", .archive),
            ("application/vnd.debian.binary-package", .archive), ("font/woff2", .font), ("audio/flac", .audio),
            ("video/x-matroska", .movie), ("video/webm", .movie), ("image/webp", .image), ("application/x-executable", .executable),
            ("application/json", .json), ("application/xml", .xml), ("image/svg+xml", .xml), ("text/x-csrc", .sourceCode),
            ("application/x-sharedlib", .executable), ("text/x-ruby", .script),
        ]
        for (mime, supertype) in checks {
            let type = try #require(declaredType(mimeType: mime), "\(mime)")
            #expect(type.conforms(to: supertype), "\(mime) (\(type.identifier)) conforms to \(supertype)")
        }
    }

    @Test("every declared type that has a tag a file's name or MIME type matches is an item")
    func taggedTypesAreItems() {
        // A PUID names a format in PRONOM's registry, not a file: Apple's abstract com.apple.disk-image carries
        // PRONOM's fmt/1071 and stays as Apple declares it (public.disk-image, public.archive: no item).
        for declaration in TypeDatabase.shared.declarations where declaration.tags.contains(where: { $0.key.rawValue != "org.nationalarchives.pronom.puid" && !$0.value.isEmpty }) {
            guard let type = UTType(declaration.identifier) else { continue }
            #expect(type.conforms(to: .item), "\(declaration.identifier)")
        }
    }
}

@Suite("Apache Tika's names")
struct TikaNameTests {
    /// Every `<mime-type type="...">` and `<alias type="...">` of TypeDB/apache-tika.xml.
    static func names() throws -> [String] {
        let text = try String(contentsOf: Reference.packageRoot.appending(path: "TypeDB/apache-tika.xml"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("<mime-type type=\"") || trimmed.hasPrefix("<alias type=\"") else { return nil }
            return trimmed.split(separator: "\"", omittingEmptySubsequences: false)[1].lowercased()
        }
    }

    @Test("every name Tika has that Linux lacks resolves to a declared type")
    func everyNameResolves() throws {
        let names = try Self.names()
        #expect(names.count > 500)
        let unresolved = names.filter { declaredType(mimeType: $0) == nil }
        #expect(unresolved.isEmpty, "\(unresolved.count) unresolved: \(unresolved.prefix(20))")
    }

    @Test("Tika's name for a type Linux names is another name for it; Linux's stays preferred")
    func otherNames() throws {
        let dng = try #require(declaredType(mimeType: "image/x-adobe-dng"))
        #expect(declaredType(mimeType: "image/x-raw-adobe") == dng)
        #expect(dng.preferredMIMEType == "image/x-adobe-dng")
        #expect(declaredType(mimeType: "image/icns") == declaredType(mimeType: "image/x-icns"))
        let visio = try #require(declaredType(mimeType: "application/vnd.ms-visio.drawing.main+xml"))
        #expect(declaredType(mimeType: "application/vnd.ms-visio.drawing") == visio)
        #expect(visio.preferredMIMEType == "application/vnd.ms-visio.drawing.main+xml")
        // An Apple type with no MIME type of its own takes Tika's.
        #expect(declaredType(mimeType: "text/x-applescript")?.identifier == "com.apple.applescript.text")
        #expect(declaredType(mimeType: "application/x-plist")?.identifier == "com.apple.xml-property-list")
        // Formats that only share an extension stay apart: Tika's SAS data sets are not Sound Designer II.
        #expect(declaredType(mimeType: "application/x-sas-data-v6")?.identifier == "uti.mime.application.x-sas-data-v6")
    }

    @Test("a format only Tika names is a type of its own, placed in the hierarchy")
    func typesOfTheirOwn() throws {
        let stata = try #require(declaredType(mimeType: "application/x-stata-dta"))
        #expect(stata.identifier == "uti.mime.application.x-stata-dta")
        #expect(stata.conforms(to: .data))
        #expect(stata.tags[.filenameExtension] == ["dta"])
        let properties = try #require(declaredType(mimeType: "text/x-java-properties"))
        #expect(properties.identifier == "uti.mime.text.x-java-properties")
        #expect(properties.conforms(to: .plainText))
    }
}
