import Foundation
import Testing
import UniformTypeIdentifiers
@testable import FileIdentification

/// Formats content sniffing used to miss (issue 13, part 2), each made here from its specification, identified
/// by content alone (no name) and named as the format's registered media type.
@Suite("Content: formats behind tags, at the end, or a byte away from another")
struct FormatSniffingTests {
    let identifier = FileIdentifier()

    /// An ID3v2.4 tag of `size` bytes (syncsafe), with a footer when `footer`.
    static func id3(size: Int, footer: Bool = false) -> [UInt8] {
        let syncsafe = [UInt8((size >> 21) & 0x7F), UInt8((size >> 14) & 0x7F), UInt8((size >> 7) & 0x7F), UInt8(size & 0x7F)]
        let header = Array("ID3".utf8) + [4, 0, footer ? 0x10 : 0] + syncsafe
        return header + [UInt8](repeating: 0, count: size) + (footer ? Array("3DI".utf8) + [4, 0, 0x10] + syncsafe : [])
    }

    static let flacStream: [UInt8] = Array("fLaC".utf8) + [0x80, 0, 0, 0x22] + [UInt8](repeating: 0, count: 34) + [0xFF, 0xF8, 0x69, 0x08]
    /// ADTS frames: sync, MPEG-4, layer 00, no CRC; AAC LC, 44.1 kHz, stereo, 7-byte frames.
    static let adtsFrames: [UInt8] = Array(repeating: [0xFF, 0xF1, 0x50, 0x80, 0x00, 0xFF, 0xFC], count: 8).flatMap { $0 }
    /// MPEG-1 Layer III frame headers.
    static let mp3Frames: [UInt8] = Array(repeating: [0xFF, 0xFB, 0x90, 0x64] + [UInt8](repeating: 0, count: 413), count: 3).flatMap { $0 }

    private func mime(_ bytes: [UInt8]) throws -> String { try identifier.identify(data: bytes).mimeType }

    @Test("FLAC and AAC behind an ID3v2 tag are FLAC and AAC; MP3 behind one stays MP3", arguments: [false, true])
    func taggedAudio(footer: Bool) throws {
        for size in [0, 100, 5000, 300_000] {
            let tag = Self.id3(size: size, footer: footer)
            let flac = try identifier.identify(data: tag + Self.flacStream)
            #expect(flac.mimeType == "audio/flac" && flac.type.identifier == "org.xiph.flac", "\(size): \(flac.evidence)")
            let aac = try identifier.identify(data: tag + Self.adtsFrames)
            #expect(aac.type == UTType("public.aac-audio") && aac.mimeType == "audio/aac", "\(size): \(aac.evidence)")
            #expect(try identifier.identify(data: tag + Self.mp3Frames).type == .mp3, "\(size)")
        }
        // A tag whose size is not syncsafe, or that runs past the end, leaves the answer at MP3.
        #expect(try mime(Array("ID3".utf8) + [4, 0, 0, 0x80, 0, 0, 0] + Self.flacStream) == "audio/mpeg")
        #expect(try mime(Self.id3(size: 50).prefix(30) + []) == "audio/mpeg")
    }

    @Test("JPEG-LS (an SOF55 marker after SOI) is not JPEG")
    func jpegLS() throws {
        let jls: [UInt8] = [0xFF, 0xD8, 0xFF, 0xF7, 0x00, 0x0B, 0x08, 0x00, 0x10, 0x00, 0x10, 0x01, 0x01, 0x11, 0x00, 0xFF, 0xDA]
        let found = try identifier.identify(data: jls)
        #expect(found.mimeType == "image/jls" && found.type.conforms(to: .image), "\(found.evidence)")
        #expect(try identifier.identify(data: [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1]).type == .jpeg)
    }

    @Test("a TrueType collection is one type of its own, font/collection")
    func fontCollection() throws {
        let ttc: [UInt8] = Array("ttcf".utf8) + [0, 1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 20, 0, 0, 0, 40] + [UInt8](repeating: 0, count: 40)
        let found = try identifier.identify(data: ttc)
        #expect(found.mimeType == "font/collection" && found.type.identifier == "public.truetype-collection-font", "\(found.evidence)")
    }

    @Test("Parquet, by its magic at both ends, conclusively")
    func parquet() throws {
        let body = [UInt8](repeating: 0x15, count: 64)
        let found = try identifier.identify(data: Array("PAR1".utf8) + body + [40, 0, 0, 0] + Array("PAR1".utf8))
        #expect(found.mimeType == "application/vnd.apache.parquet", "\(found.evidence)")
        #expect(found.evidence.content?.detail == "Parquet magic", "the signature decides: \(found.evidence)")
    }

    @Test("a Creative Voice file")
    func creativeVoice() throws {
        let voc = Array("Creative Voice File".utf8) + [0x1A, 0x1A, 0x00, 0x0A, 0x01, 0x29, 0x11, 0x01, 0x02, 0x00, 0x00, 0xA5, 0x00, 0x80, 0x80, 0x00]
        #expect(try mime(voc) == "audio/x-voc")
    }

    @Test("an Apple UDIF disk image, by the koly trailer in its last 512 bytes")
    func udif() throws {
        var trailer = Array("koly".utf8) + [0, 0, 0, 4, 0, 0, 2, 0]
        trailer += [UInt8](repeating: 0, count: 512 - trailer.count)
        let image = [UInt8](repeating: 0x5A, count: 4096) + trailer
        let found = try identifier.identify(data: image)
        #expect(found.mimeType == "application/x-apple-diskimage" && found.type.identifier == "com.apple.disk-image-udif", "\(found.evidence)")
        #expect(try mime(image.dropLast()) != "application/x-apple-diskimage", "the trailer must end the file")
    }
}
