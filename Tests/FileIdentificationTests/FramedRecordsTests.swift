import FileIdentification
import SystemPackage
import Testing

/// One record in `uti identify --framed -`'s format.
private func record(_ name: [UInt8], _ content: [UInt8]) -> [UInt8] {
    let nameLength = UInt32(name.count), contentLength = UInt64(content.count)
    return (0..<4).reversed().map { UInt8(truncatingIfNeeded: nameLength >> ($0 * 8)) } + name
        + (0..<8).reversed().map { UInt8(truncatingIfNeeded: contentLength >> ($0 * 8)) } + content
}

@Suite("FramedRecords: the reader of framed records")
struct FramedRecordsTests {
    @Test("records come back as they were written: any name bytes, empty content, content past the memory share")
    func roundTrip() throws {
        let large = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let written: [([UInt8], [UInt8])] = [(Array("photo.png".utf8), [0x89, 0x50, 0x4E, 0x47]), (Array("empty".utf8), []),
                                             ([0x63, 0x61, 0x66, 0xE9, 0x0A], large), ([], Array("no name".utf8))]
        let input = written.flatMap { record($0.0, $0.1) }
        var records = FramedRecords(bytes: input, memoryLimit: 1024)
        var read: [([UInt8], [UInt8])] = []
        while let next = try records.next() {
            #expect(next.spoolError == nil)
            read.append((next.name, try next.content.source.bytes(at: 0, length: Int.max)))
        }
        #expect(read.map(\.0) == written.map(\.0))
        #expect(read.map(\.1) == written.map(\.1))
        #expect(records.consumed == input.count)
        #expect(try records.next() == nil, "the end stays the end")
    }

    @Test("input cut anywhere within a record is an error naming the record, where it starts, and what is missing")
    func cutShort() throws {
        let first = record(Array("a.txt".utf8), Array("hello".utf8))
        let second = record(Array("b.txt".utf8), Array("world!".utf8))
        for cut in 1..<second.count {
            var records = FramedRecords(bytes: first + second.prefix(cut))
            #expect(try records.next()?.name == Array("a.txt".utf8))
            do {
                _ = try records.next()
                Issue.record("cut at \(cut): no error")
            } catch {
                #expect(error.record == 2 && error.offset == first.count && error.errno == nil, "\(error)")
                let expected = cut < 4 ? "within its name length" : cut < 9 ? "within its name" : cut < 17 ? "within its content length"
                    : "within its content (\(cut - 17) of 6 bytes)"
                #expect(error.description.contains(expected), "cut at \(cut): \(error)")
                #expect(error.description.hasPrefix("record 2 (at byte \(first.count)) is not a record"))
            }
        }
    }

    @Test("lengths out of bounds are refused before anything is allocated for them")
    func lengthsOutOfBounds() {
        let longName: [UInt8] = [0, 0, 0x10, 0x01]  // 4,097
        var records = FramedRecords(bytes: longName + [UInt8](repeating: 0x41, count: 16))
        #expect(throws: FramedRecords.Failure.self) { _ = try records.next() }
        let huge: [UInt8] = [0, 0, 0, 1, 0x41, 0x80, 0, 0, 0, 0, 0, 0, 0]  // 2^63
        records = FramedRecords(bytes: huge)
        do {
            _ = try records.next()
            Issue.record("a content length of 2^63 was taken")
        } catch {
            #expect(error.problem.contains("more than 2^63 - 1"))
        }
    }

    @Test("a stream that cannot be read is an error carrying the errno")
    func readFailure() {
        var calls = 0
        var records = FramedRecords { (raw: UnsafeMutableRawBufferPointer) throws(Errno) -> Int in
            calls += 1
            if calls > 1 { throw Errno.ioError }
            raw[0] = 0
            return 1
        }
        do {
            _ = try records.next()
            Issue.record("no error")
        } catch {
            #expect(error.errno == .ioError && error.record == 1, "\(error)")
        }
    }

    @Test("isWaiting says when the next byte must be waited for: not while a record read with the last one is still buffered")
    func waiting() throws {
        var records = FramedRecords(bytes: record(Array("a".utf8), [1, 2, 3]) + record(Array("b".utf8), [4]))
        #expect(records.isWaiting, "nothing read yet")
        _ = try records.next()
        #expect(!records.isWaiting, "the second record came with the first read")
        _ = try records.next()
        #expect(records.isWaiting)
        #expect(try records.next() == nil)
    }
}
