internal import Crypto
public import FileIdentification
internal import SystemCalls
public import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// A digest of a file's whole contents, as archives' tools report one beside each file's format (DROID's and
/// Siegfried's MD5, SHA-1 and SHA-256), computed by swift-crypto: a `FileDigester` for
/// `ClassificationOptions.digest`. A module of its own, so that what links FileIdentification alone builds no
/// cryptography.
public enum ContentDigest: String, Sendable, Hashable, CaseIterable, FileDigester {
    /// MD5 (RFC 1321): what DROID computes by default; for matching records, not for security.
    case md5
    /// SHA-1 (FIPS 180-4).
    case sha1
    /// SHA-256 (FIPS 180-4).
    case sha256

    /// The digest's name, as `--hash` takes it and as a column is named (`sha256`).
    public var name: String { rawValue }

    /// The digest of what `file` holds from its current position to its end, in lower-case hex.
    public func hex(of file: FileDescriptor) throws(Errno) -> String {
        switch self {
        case .md5: try Self.digest(Insecure.MD5(), file)
        case .sha1: try Self.digest(Insecure.SHA1(), file)
        case .sha256: try Self.digest(SHA256(), file)
        }
    }

    private static func digest<H: HashFunction>(_ function: H, _ file: FileDescriptor) throws(Errno) -> String {
        var hasher = function
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            // The system call inside, the error outside: the standard library's closures rethrow untyped.
            let count = buffer.withUnsafeMutableBytes { raw in retryingInterrupted { Glibc.read(file.rawValue, raw.baseAddress, raw.count) } }
            if count < 0 { throw Errno.current }
            if count == 0 { break }
            buffer.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in hasher.finalize() { text += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: text, as: UTF8.self)
    }
}
