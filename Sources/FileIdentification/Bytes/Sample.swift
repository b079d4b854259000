/// A file's bytes as identification's readers see them, read and decoded once and handed to every reader:
/// the head (the first 4 KiB, where every signature and container header is), the sample (the first
/// `sampleSize` bytes, read only when a reader needs more than the head), its text encoding, and its text
/// (the first `TextAnalysis.formatSampleSize` bytes, decoded once, for the text formats' reader and GitHub
/// Linguist's heuristics alike). A class so that what one reader caused to be read or decoded the next one
/// finds; used by one identification on one thread.
final class Sample<Source: ByteSource> {
    let source: Source
    let head: [UInt8]
    let sampleSize: Int

    private var cachedPrefix: [UInt8]?
    private var cachedEncoding: TextEncoding??
    private var cachedText: String??

    /// Reads the head of `source`.
    init(_ source: Source, sampleSize: Int) throws(IdentificationError.Reason) {
        self.source = source
        self.sampleSize = sampleSize
        head = try source.bytes(at: 0, length: min(4096, sampleSize))
    }

    /// The size of the whole file.
    var count: Int { source.count }

    /// The head's text encoding, `nil` when it is not text (what the readers that settle a file by its head
    /// report with).
    private(set) lazy var headEncoding: TextEncoding? = TextAnalysis.encoding(of: head[...])

    /// The first `sampleSize` bytes (the head, when the file or the sample is no longer). Only what follows
    /// the head is read, into the same buffer: the head is not read twice.
    func prefix() throws(IdentificationError.Reason) -> [UInt8] {
        if let cachedPrefix { return cachedPrefix }
        let length = min(sampleSize, count)
        guard head.count < length else {
            cachedPrefix = head
            return head
        }
        var failure: IdentificationError.Reason?
        let prefix = [UInt8](unsafeUninitializedCapacity: length) { buffer, filled in
            let start = UnsafeMutableBufferPointer(rebasing: buffer[..<head.count]).initialize(fromContentsOf: head)
            let rest = UnsafeMutableBufferPointer(rebasing: buffer[start..<length])
            // The system call inside, the error outside: closures of the standard library rethrow untyped.
            switch Result(catching: { () throws(IdentificationError.Reason) -> Int in try source.read(at: start, into: rest) }) {
            case .success(let read): filled = start + read
            case .failure(let error):
                filled = start
                failure = error
            }
        }
        if let failure { throw failure }
        cachedPrefix = prefix
        return prefix
    }

    /// The first `sampleSize` bytes when a reader has read them already, else `nil` (nothing is read).
    var prefixIfRead: [UInt8]? { cachedPrefix }

    /// The sample's text encoding, `nil` when it is no text in any encoding uti reads.
    func encoding() throws(IdentificationError.Reason) -> TextEncoding? {
        if let cachedEncoding { return cachedEncoding }
        let prefix = try prefix()
        let encoding = prefix.count == head.count ? headEncoding : TextAnalysis.encoding(of: prefix[...])
        cachedEncoding = .some(encoding)
        return encoding
    }

    /// The sample's first `TextAnalysis.formatSampleSize` bytes as text, decoded once; `nil` when the sample is
    /// no text. Formats and languages show themselves at the start: 8 KiB is plenty, and cheap to decode.
    func text() throws(IdentificationError.Reason) -> String? {
        if let cachedText { return cachedText }
        guard let encoding = try encoding() else {
            cachedText = .some(nil)
            return nil
        }
        let decoded = TextAnalysis.decode(try prefix().prefix(TextAnalysis.formatSampleSize), as: encoding)
        cachedText = .some(decoded)
        return decoded
    }

    /// Whether the sample is proven binary (`TextAnalysis.isProvenBinary`): no text, and a NUL or many control
    /// characters in it. Of the head alone when nothing more was read.
    func isProvenBinary() throws(IdentificationError.Reason) -> Bool {
        if let cachedPrefix { return try encoding() == nil && TextAnalysis.isProvenBinary(cachedPrefix[...]) }
        return headEncoding == nil && TextAnalysis.isProvenBinary(head[...])
    }
}
