import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Testing
@testable import UTIService

/// A POSIX tar (ustar) of `entries`, made here: a 512-byte header each (name, mode, size, checksum), the data
/// padded to 512 bytes, two empty blocks at the end.
func tarArchive(_ entries: [(name: String, data: [UInt8])]) -> [UInt8] {
    var output: [UInt8] = []
    for (name, data) in entries {
        var header = [UInt8](repeating: 0, count: 512)
        func put(_ text: String, at offset: Int) { for (index, byte) in text.utf8.enumerated() { header[offset + index] = byte } }
        func octal(_ value: Int, digits: Int) -> String {
            let text = String(value, radix: 8)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        put(name, at: 0)
        put("0000644", at: 100)
        put("0000000", at: 108)
        put("0000000", at: 116)
        put(octal(data.count, digits: 11), at: 124)
        put("14700000000", at: 136)
        put("        ", at: 148)
        header[156] = UInt8(ascii: "0")
        put("ustar", at: 257)
        put("00", at: 263)
        let sum = header.reduce(0) { $0 + Int($1) }
        put(octal(sum, digits: 6) + "\0 ", at: 148)
        output += header + data + [UInt8](repeating: 0, count: (512 - data.count % 512) % 512)
    }
    return output + [UInt8](repeating: 0, count: 1024)
}

@Suite("Archives' members over HTTP: /identify?archives=true and Tika's /rmeta, in process")
struct ArchiveContractTests {
    static let notes = Array("three lines\nof plain\ntext\n".utf8)
    /// A tar holding a text file, a PNG, and a tar holding a text file.
    static let archive = tarArchive([("notes.txt", notes), ("pic.png", png),
                                     ("inner.tar", tarArchive([("deep.txt", Array("deeper\n".utf8))])), ("last.txt", Array("last\n".utf8))])

    @Test("?archives=true: the upload's object, then each member's with its path, depth and size")
    func identifyWithMembers() async throws {
        try await Contract().test { client in
            let answer = try await client.execute(uri: "/identify?archives=true&name=bundle.tar", method: .put, body: ByteBuffer(bytes: Self.archive))
            #expect(answer.status == .ok, "\(answer.text)")
            let objects = try #require(answer.array)
            #expect(objects.map { $0["path"] as? String } == ["bundle.tar", "bundle.tar#notes.txt", "bundle.tar#pic.png", "bundle.tar#inner.tar",
                                                             "bundle.tar#inner.tar#deep.txt", "bundle.tar#last.txt"])
            #expect(objects.map { $0["identifier"] as? String } == ["public.tar-archive", "public.plain-text", "public.png", "public.tar-archive",
                                                                   "public.plain-text", "public.plain-text"])
            #expect(objects[0]["members"] as? Int == 5)
            #expect(objects[4]["depth"] as? Int == 2)
            #expect(objects[1]["size"] as? Int == Self.notes.count)
            // Without it, the one object, as ever; a value that is not a boolean is refused.
            let plain = try await client.execute(uri: "/identify?name=bundle.tar", method: .put, body: ByteBuffer(bytes: Self.archive))
            #expect(plain.object?["identifier"] as? String == "public.tar-archive" && plain.object?["members"] == nil)
            let refused = try await client.execute(uri: "/identify?archives=maybe", method: .put, body: ByteBuffer(bytes: Self.archive))
            #expect(refused.status == .badRequest)
            // Several files as multipart/form-data: each part's object and its members', in order.
            let boundary = "uti-archive-parts"
            var body = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"a\"; filename=\"one.tar\"\r\n\r\n".utf8) + Self.archive
            body += Array("\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"b\"; filename=\"pic.png\"\r\n\r\n".utf8) + png
            body += Array("\r\n--\(boundary)--\r\n".utf8)
            let parts = try await client.execute(uri: "/identify?archives=true", method: .post,
                                                 headers: [.contentType: "multipart/form-data; boundary=\(boundary)"], body: ByteBuffer(bytes: body))
            #expect(parts.array?.map { $0["path"] as? String } == ["one.tar", "one.tar#notes.txt", "one.tar#pic.png", "one.tar#inner.tar",
                                                                   "one.tar#inner.tar#deep.txt", "one.tar#last.txt", "pic.png"], "\(parts.text)")
            // Accept: text/plain, one MIME type a line.
            let plainLines = try await client.execute(uri: "/identify?archives=true", method: .put, headers: [.accept: "text/plain"],
                                                      body: ByteBuffer(bytes: Self.archive))
            #expect(plainLines.text == "application/x-tar\ntext/plain\nimage/png\napplication/x-tar\ntext/plain\ntext/plain\n")
            // A file that is no archive: its object alone, in the array.
            let image = try await client.execute(uri: "/identify?archives=true", method: .put, body: ByteBuffer(bytes: png))
            #expect(image.array?.count == 1)
        }
    }

    @Test("PUT /rmeta answers Tika's recursive JSON: the container first, children before their parent, every value a string")
    func rmeta() async throws {
        try await Contract().test { client in
            let answer = try await client.execute(uri: "/rmeta", method: .put, headers: [HTTPField.Name("File-Name")!: "bundle.tar"],
                                                  body: ByteBuffer(bytes: Self.archive))
            #expect(answer.status == .ok, "\(answer.text)")
            let objects = try #require(answer.array)
            #expect(objects.count == 6)
            #expect(objects[0]["Content-Type"] as? String == "application/x-tar")
            #expect(objects[0]["X-TIKA:embedded_depth"] as? String == "0")
            #expect(objects[0]["resourceName"] as? String == "bundle.tar")
            #expect(objects.dropFirst().map { $0["X-TIKA:embedded_resource_path"] as? String }
                    == ["/notes.txt", "/pic.png", "/inner.tar/deep.txt", "/inner.tar", "/last.txt"])
            #expect(objects.dropFirst().map { $0["X-TIKA:embedded_id_path"] as? String } == ["/1", "/2", "/3/4", "/3", "/5"])
            #expect(objects[3]["X-TIKA:embedded_depth"] as? String == "2")
            #expect(objects[1]["Content-Type"] as? String == "text/plain")
            #expect(objects[2]["Content-Type"] as? String == "image/png")
            for object in objects {
                for (key, value) in object { #expect(value is String, "\(key) is not a string") }
            }
            // Tika's cap on members: N of them, and the container says the limit was reached.
            let capped = try await client.execute(uri: "/rmeta/ignore", method: .put, headers: [HTTPField.Name("maxEmbeddedResources")!: "2"],
                                                  body: ByteBuffer(bytes: Self.archive))
            #expect(capped.array?.count == 3)
            #expect(capped.array?.first?["X-TIKA:EXCEPTION:embedded_resource_limit_reached"] as? String == "true")
            // A cap past what any archive holds caps nothing; a cap that is no number is a 400.
            let huge = try await client.execute(uri: "/rmeta", method: .put, headers: [HTTPField.Name("maxEmbeddedResources")!: "8714306089524929063207"],
                                                body: ByteBuffer(bytes: Self.archive))
            #expect(huge.array?.count == 6)
            let bad = try await client.execute(uri: "/rmeta", method: .put, headers: [HTTPField.Name("maxEmbeddedResources")!: "ten"],
                                               body: ByteBuffer(bytes: Self.archive))
            #expect(bad.status == .badRequest)
            // Text extraction is not served: 501, with the reason.
            let text = try await client.execute(uri: "/rmeta/text", method: .put, body: ByteBuffer(bytes: Self.archive))
            #expect(text.status == .notImplemented)
        }
    }
}
