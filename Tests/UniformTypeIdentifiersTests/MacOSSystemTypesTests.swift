import Testing
import UniformTypeIdentifiers

/// Apple's identifiers beyond CoreTypes: what `UTType(filenameExtension:)` answers on a
/// Mac for formats that macOS's other system bundles declare (camera RAW, disk images, AVCHD, Mail, Music,
/// Photos, Terminal, Contacts, Chess, iChat ...), from the public records in
/// `TypeDB/sources/macos-system-bundle-types.tsv` (its README says which).
@Suite("macOS's answers beyond CoreTypes")
struct MacOSSystemTypesTests {
    static let answers: [(String, String)] = [
        ("cr2", "com.canon.cr2-raw-image"),
        ("cr3", "com.canon.cr3-raw-image"),
        ("crw", "com.canon.crw-raw-image"),
        ("nef", "com.nikon.raw-image"),
        ("nrw", "com.nikon.nrw-raw-image"),
        ("arw", "com.sony.arw-raw-image"),
        ("srf", "com.sony.raw-image"),
        ("sr2", "com.sony.sr2-raw-image"),
        ("raf", "com.fuji.raw-image"),
        ("orf", "com.olympus.raw-image"),
        ("rw2", "com.panasonic.rw2-raw-image"),
        ("raw", "com.panasonic.raw-image"),
        ("pef", "com.pentax.raw-image"),
        ("srw", "com.samsung.raw-image"),
        ("3fr", "com.hasselblad.3fr-raw-image"),
        ("fff", "com.hasselblad.fff-raw-image"),
        ("mos", "com.leafamerica.raw-image"),
        ("mrw", "com.konicaminolta.raw-image"),
        ("dcr", "com.kodak.raw-image"),
        ("erf", "com.epson.raw-image"),
        ("iiq", "com.phaseone.raw-image"),
        ("rwl", "com.leica.rwl-raw-image"),
        ("pwl", "com.leica.pwl-raw-image"),
        ("dng", "com.adobe.raw-image"),
        ("dxo", "com.dxo.raw-image"),
        ("dds", "com.microsoft.dds"),
        ("ktx", "org.khronos.ktx"),
        ("astc", "org.khronos.astc"),
        ("pvr", "public.pvr"),
        ("pbm", "public.pbm"),
        ("pgm", "public.pbm"),
        ("ppm", "public.pbm"),
        ("pfm", "public.pbm"),
        ("hdr", "public.radiance"),
        ("pic", "com.apple.pict"),
        ("dmg", "com.apple.disk-image-udif"),
        ("udif", "com.apple.disk-image-udif"),
        ("cdr", "com.apple.disk-image-cdr"),
        ("dvdr", "com.apple.disk-image-cdr"),
        ("asif", "com.apple.disk-image-sparse"),
        ("dmgpart", "com.apple.disk-image-udif-segment"),
        ("iso", "public.iso-image"),
        ("toast", "com.roxio.disk-image-toast"),
        ("ndif", "com.apple.disk-image-ndif"),
        ("smi", "com.apple.disk-image-smi"),
        ("dart", "com.apple.disk-image-dart"),
        ("dc42", "com.apple.disk-image-dc42"),
        ("mts", "public.avchd-mpeg-2-transport-stream"),
        ("m2ts", "public.avchd-mpeg-2-transport-stream"),
        ("bdmv", "public.avchd-content"),
        ("bdm", "public.avchd-content"),
        ("eml", "com.apple.mail.email"),
        ("emlx", "com.apple.mail.emlx"),
        ("mbox", "com.apple.mail.mbox"),
        ("itl", "com.apple.itunes.db"),
        ("ipa", "com.apple.itunes.ipa"),
        ("ipsw", "com.apple.itunes.ipsw"),
        ("ipg", "com.apple.itunes.ipg"),
        ("nvf", "com.apple.itunes.nvf"),
        ("pcast", "com.apple.itunes.podcast"),
        ("itpc", "com.apple.itunes.podcast"),
        ("itlp", "com.apple.music.itlp"),
        ("rmp", "com.apple.music.rmp-playlist"),
        ("hvpl", "com.apple.music.visual"),
        ("tvdb", "com.apple.tv.database"),
        ("ite", "com.apple.tv.ite"),
        ("aae", "com.apple.photos.apple-adjustment-envelope"),
        ("slm", "com.apple.photos.slow-motion-video-sidecar"),
        ("ipmeta", "com.apple.iphoto.ipmeta"),
        ("ipspot", "com.apple.iphoto.ipspot"),
        ("term", "com.apple.terminal.session"),
        ("tool", "com.apple.terminal.shell-script"),
        ("action", "com.apple.automator-action"),
        ("wflow", "com.apple.shortcuts.workflow-file"),
        ("abcdp", "com.apple.addressbook.person"),
        ("abcdg", "com.apple.addressbook.group"),
        ("pgn", "com.apple.chess.pgn"),
        ("game", "com.apple.chess.game"),
        ("ichat", "com.apple.ichat.transcript"),
        ("chat", "com.apple.ichat.transcript"),
        ("icbu", "com.apple.ical.backup-package"),
        ("note", "com.apple.notes.note"),
        ("spx", "com.apple.systemprofiler.document"),
        ("wdmon", "com.apple.wireless-diagnostics.wdmon"),
        ("pset", "com.apple.pdf-printer-settings"),
        ("blank", "com.apple.preview.blank"),
        ("sfont", "com.apple.cfr-font"),
        ("ips", "com.apple.ips"),
        ("board", "com.apple.freeform.board"),
        ("ibooks", "com.apple.ibooks-container"),
        ("proto", "public.protobuf-source"),
        ("nasm", "public.nasm-assembly-source"),
        ("cl", "public.opencl-source"),
    ]

    /// Asked as the records were made (`UTTypeCreatePreferredIdentifierForTag` with no conformance: any
    /// item, so that the bundles `.action` and `.hvpl` count); data types answer the same to
    /// `UTType(filenameExtension:)`, which asks for data.
    @Test("each extension gets macOS's identifier")
    func extensions() {
        for (tag, identifier) in Self.answers {
            let type = UTType(filenameExtension: tag, conformingTo: .item)
            #expect(type?.identifier == identifier, "\(tag)")
            if let type, type.conforms(to: .data) {
                #expect(UTType(filenameExtension: tag) == type, "\(tag)")
            }
        }
        #expect(Self.answers.count >= 80)
    }

    @Test("freedesktop's and Tika's names of these formats are names of Apple's identifier, not types of their own", arguments: [
        ("image/x-canon-cr2", "com.canon.cr2-raw-image"), ("image/x-nikon-nef", "com.nikon.raw-image"),
        ("image/x-sony-arw", "com.sony.arw-raw-image"), ("image/x-fuji-raf", "com.fuji.raw-image"),
        ("image/x-raw-fuji", "com.fuji.raw-image"), ("image/x-adobe-dng", "com.adobe.raw-image"),
        ("application/x-apple-diskimage", "com.apple.disk-image-udif"), ("image/ktx", "org.khronos.ktx"),
        ("image/x-dds", "com.microsoft.dds"), ("application/mbox", "com.apple.mail.mbox"),
        ("message/x-emlx", "com.apple.mail.emlx"), ("image/astc", "org.khronos.astc"),
    ])
    func otherVocabularies(mime: String, identifier: String) {
        #expect(UTType(mimeType: mime)?.identifier == identifier)
    }

    @Test("RAW formats are camera raw images; disk images are disk images; a renamed identifier conforms to the new one")
    func conformance() throws {
        let raw = try #require(UTType("public.camera-raw-image"))
        for identifier in ["com.canon.cr2-raw-image", "com.canon.cr3-raw-image", "com.nikon.raw-image", "com.sony.arw-raw-image"] {
            #expect(UTType(identifier)?.conforms(to: raw) == true, "\(identifier)")
        }
        let disk = try #require(UTType("public.disk-image"))
        for identifier in ["com.apple.disk-image-udif", "com.apple.disk-image-ndif", "com.apple.disk-image-sparse"] {
            #expect(UTType(identifier)?.conforms(to: disk) == true, "\(identifier)")
        }
        let renamed = try #require(UTType("com.apple.ical.backup"))
        #expect(renamed.conforms(to: try #require(UTType("com.apple.ical.backup-package"))))
        #expect(UTType(filenameExtension: "pic") == UTType("com.apple.pict"), "CoreTypes' answer stands")
    }
}
