internal import CLibcrypto
public import FileIdentification
internal import SystemCalls
public import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// A digest of a file's whole contents, as archives' tools report one beside each file's format (DROID's and
/// Siegfried's MD5, SHA-1 and SHA-256), computed by OpenSSL's libcrypto (its EVP digests, the system's library
/// through pkg-config, as zlib and libmagic are): a `FileDigester` for `ClassificationOptions.digest`. A module of
/// its own, so that what links FileIdentification alone links no cryptography.
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
        // A context per file: the digest's state, libcrypto's allocation (nil only when memory ran out).
        guard let context = EVP_MD_CTX_new() else { throw Errno.noMemory }
        defer { EVP_MD_CTX_free(context) }
        let algorithm = switch self {
        case .md5: EVP_md5()
        case .sha1: EVP_sha1()
        case .sha256: EVP_sha256()
        }
        // A libcrypto that refuses the algorithm (MD5 where only FIPS's provider is loaded) says so here.
        guard EVP_DigestInit_ex(context, algorithm, nil) == 1 else { throw Errno.notSupported }
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            // The system call inside, the error outside: the standard library's closures rethrow untyped.
            let count = buffer.withUnsafeMutableBytes { raw in retryingInterrupted { Glibc.read(file.rawValue, raw.baseAddress, raw.count) } }
            if count < 0 { throw Errno.current }
            if count == 0 { break }
            guard buffer.withUnsafeBytes({ EVP_DigestUpdate(context, $0.baseAddress, count) }) == 1 else { throw Errno.notSupported }
        }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1 else { throw Errno.notSupported }
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(Int(length) * 2)
        for byte in digest.prefix(Int(length)) { text += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: text, as: UTF8.self)
    }
}
