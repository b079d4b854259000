import Testing
import UniformTypeIdentifiers

@Suite("Apple's system types")
struct AppleTypesTests {
    @Test("all 964 Apple types are declared with their conformance, tags and description")
    func everyAppleType() throws {
        let rows = try Reference.table("apple-system-types.tsv")
        #expect(rows.count == 964)
        for row in rows {
            let identifier = try #require(row["identifier"])
            guard let type = UTType(identifier) else {
                Issue.record("\(identifier) is not declared")
                continue
            }
            #expect(type.identifier == identifier)
            #expect(type.isDeclared)
            let declaration = try #require(TypeDatabase.shared.declaration(of: type))
            #expect(declaration.kind == (row["group"] == "system" ? .exported : .imported), "\(identifier)")
            // Exactly Apple's parents, and so exactly Apple's supertypes: what other sources know of a format (a
            // ZIP container, an IFF chunk layout) is in its tags, never in its conformance.
            let parents = Reference.words(row["conformsTo"])
            #expect(type.directSupertypes.map(\.identifier) == parents, "\(identifier) conformance")
            let extensions = Reference.words(row["filenameExtensions"])
            #expect(Array((type.tags[.filenameExtension] ?? []).prefix(extensions.count)) == extensions, "\(identifier) extensions")
            let mimeTypes = Reference.words(row["mimeTypes"])
            #expect(Array((type.tags[.mimeType] ?? []).prefix(mimeTypes.count)) == mimeTypes, "\(identifier) MIME types")
            if let description = row["description"], !description.isEmpty {
                #expect(declaration.typeDescription == description, "\(identifier) description")
            }
        }
    }

    @Test("every Apple extension and MIME type leads to an Apple type that claims it, public types first")
    func tagsLeadToAppleTypes() throws {
        let rows = try Reference.table("apple-system-types.tsv")
        var claimants: [String: [String]] = [:]
        for row in rows {
            for tag in Reference.words(row["filenameExtensions"]) { claimants["e:" + tag.lowercased(), default: []].append(row["identifier"] ?? "") }
            for tag in Reference.words(row["mimeTypes"]) { claimants["m:" + tag.lowercased(), default: []].append(row["identifier"] ?? "") }
        }
        for (key, identifiers) in claimants {
            let tag = String(key.dropFirst(2))
            let tagClass: UTTagClass = key.hasPrefix("e:") ? .filenameExtension : .mimeType
            let expected = identifiers.first(where: { $0.hasPrefix("public.") }) ?? identifiers[0]
            let best = UTType.types(tag: tag, tagClass: tagClass, conformingTo: nil).first
            #expect(best?.identifier == expected, "\(tagClass.rawValue) \(tag)")
        }
    }

    @Test("macOS's documented choices for shared extensions")
    func documentedPreferences() {
        #expect(UTType(filenameExtension: "plist")?.identifier == "com.apple.property-list")
        #expect(UTType(filenameExtension: "mp4")?.identifier == "public.mpeg-4")
        #expect(UTType(filenameExtension: "xml")?.identifier == "public.xml")
        #expect(UTType(filenameExtension: "otf")?.identifier == "public.opentype-font")
    }

    @Test("the 140 UTType constants name declared types with the real declaration's conformance")
    func constants() throws {
        let rows = try Reference.table("uttype-constants.tsv")
        #expect(rows.count == 140)
        for row in rows {
            let identifier = try #require(row["identifier"])
            let type = try #require(UTType(identifier), "\(identifier) is not declared")
            let declared = Reference.words(row["dataset_conformsTo"])
            for parent in declared {
                #expect(type.directSupertypes.map(\.identifier).contains(parent), "\(identifier) conforms to \(parent)")
            }
        }
        let constants: [UTType] = [
            .item, .content, .compositeContent, .diskImage, .data, .directory, .resolvable, .symbolicLink,
            .executable, .mountPoint, .aliasFile, .urlBookmarkData, .url, .fileURL, .text, .plainText,
            .utf8PlainText, .utf16ExternalPlainText, .utf16PlainText, .delimitedText, .commaSeparatedText,
            .tabSeparatedText, .utf8TabSeparatedText, .rtf, .html, .xml, .yaml, .css, .sourceCode,
            .assemblyLanguageSource, .cSource, .objectiveCSource, .swiftSource, .cPlusPlusSource,
            .objectiveCPlusPlusSource, .cHeader, .cPlusPlusHeader, .script, .appleScript, .osaScript,
            .osaScriptBundle, .javaScript, .shellScript, .perlScript, .pythonScript, .rubyScript, .phpScript,
            .makefile, .json, .propertyList, .xmlPropertyList, .binaryPropertyList, .pdf, .rtfd, .flatRTFD,
            .webArchive, .image, .jpeg, .tiff, .gif, .png, .icns, .bmp, .ico, .rawImage, .svg, .livePhoto, .heif,
            .heic, .heics, .webP, .exr, .dng, .jpegxl, .threeDContent, .usd, .usdz, .realityFile, .sceneKitScene,
            .arReferenceObject, .audiovisualContent, .movie, .video, .audio, .quickTimeMovie, .mpeg, .mpeg2Video,
            .mpeg2TransportStream, .mp3, .mpeg4Movie, .mpeg4Audio, .appleProtectedMPEG4Audio,
            .appleProtectedMPEG4Video, .avi, .aiff, .wav, .midi, .playlist, .m3uPlaylist, .folder, .volume, .package,
            .bundle, .pluginBundle, .spotlightImporter, .quickLookGenerator, .xpcService, .framework, .application,
            .applicationBundle, .applicationExtension, .unixExecutable, .exe, .systemPreferencesPane, .archive,
            .gzip, .bz2, .zip, .appleArchive, .tarArchive, .spreadsheet, .presentation, .database, .message,
            .contact, .vCard, .toDoItem, .calendarEvent, .emailMessage, .internetLocation, .internetShortcut, .font,
            .bookmark, .pkcs12, .x509Certificate, .epub, .log, .ahap, .geoJSON, .linkPresentationMetadata,
        ]
        #expect(constants.count == 140)
        for constant in constants { #expect(constant.isDeclared, "\(constant.identifier)") }
        #expect(Set(constants.map(\.identifier)) == Set(rows.compactMap { $0["identifier"] }))
    }
}
