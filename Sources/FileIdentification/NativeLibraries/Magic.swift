internal import CMagic
internal import Synchronization
internal import SystemCalls
internal import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// libmagic, wrapped the way it must be used from many threads.
///
/// A `magic_t` is not thread-safe and `magic_open`/`magic_load` must not run concurrently, so
/// handles live in a pool: a caller takes one, uses it alone, and gives it back; handles are
/// opened and loaded under one lock. Every answer is copied out before the handle is reused.
/// The database path is always passed explicitly, so `$MAGIC` and `$HOME` change nothing.
/// `MAGIC_COMPRESS` is never set, and at most `bytesMax` bytes of a buffer are examined.
final class Magic: Sendable {
    /// An error from libmagic, naming the call.
    struct Failure: Error, CustomStringConvertible {
        var call: String
        var message: String
        var description: String { "\(call): \(message)" }
    }

    /// The compiled database this pool loads.
    let databasePath: String
    /// `MAGIC_PARAM_BYTES_MAX`: how many bytes libmagic may examine.
    let bytesMax: Int

    /// Idle handles, as the addresses of their `magic_t` (integers are `Sendable`; a handle is only
    /// ever used by the thread that took it out of this pool).
    private let idle = Mutex<[UInt]>([])
    private static let loading = Mutex(())

    /// The first compiled database found in the usual places of Debian and other distributions.
    static let defaultDatabasePath: String? = {
        for path in ["/usr/lib/file/magic.mgc", "/usr/share/misc/magic.mgc", "/usr/share/file/magic.mgc", "/etc/magic.mgc"]
        where Processes.isReadable(path) {
            return path
        }
        return nil
    }()

    init(databasePath: String, bytesMax: Int = 1 << 20) {
        self.databasePath = databasePath
        self.bytesMax = bytesMax
    }

    deinit {
        for address in idle.withLock({ $0 }) {
            if let cookie = OpaquePointer(bitPattern: address) { magic_close(cookie) }
        }
    }

    /// The MIME type libmagic gives a buffer.
    ///
    /// The corresponding C function is `magic_buffer`.
    /// - Throws: `Failure` when libmagic fails or answers with something that is not a MIME type.
    func mimeType(of bytes: UnsafeRawBufferPointer) throws(Failure) -> String {
        try Self.validated(answer(for: bytes, flags: Self.handleFlags), call: "magic_buffer")
    }

    /// libmagic's description of a buffer (`file -b`'s answer): what it says of formats it gives no MIME type
    /// (`LLVM IR bitcode`, `G-IR binary database`). The handle describes for this call, then names MIME
    /// types again.
    ///
    /// The corresponding C functions are `magic_setflags` and `magic_buffer`.
    func description(of bytes: UnsafeRawBufferPointer) throws(Failure) -> String {
        try answer(for: bytes, flags: MAGIC_ERROR)
    }

    /// The flags every handle is opened with: MIME types; MAGIC_ERROR reports I/O problems as errors instead
    /// of describing them. Never MAGIC_COMPRESS.
    private static let handleFlags = MAGIC_MIME_TYPE | MAGIC_ERROR

    /// libmagic's answer for a buffer, with `flags` set for the call and the handle's own set back after.
    private func answer(for bytes: UnsafeRawBufferPointer, flags: Int32) throws(Failure) -> String {
        let cookie = try take()
        defer { giveBack(cookie) }
        if flags != Self.handleFlags {
            guard magic_setflags(cookie, flags) == 0 else { throw Failure(call: "magic_setflags", message: Self.lastError(cookie)) }
        }
        defer { if flags != Self.handleFlags { _ = magic_setflags(cookie, Self.handleFlags) } }
        guard let result = magic_buffer(cookie, bytes.baseAddress, min(bytes.count, bytesMax)) else {
            throw Failure(call: "magic_buffer", message: Self.lastError(cookie))
        }
        return String(cString: result)
    }

    /// A MIME type is `type/subtype`; libmagic in MIME mode can still answer with a sentence
    /// (`regular file, no read permission`), which is an error, never a type.
    private static func validated(_ answer: String, call: String) throws(Failure) -> String {
        let trimmed = answer.split(separator: ";").first.map { $0.trimming { $0 == " " } } ?? ""
        let parts = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
              !trimmed.contains(" "), !trimmed.contains(",") else {
            throw Failure(call: call, message: "not a MIME type: \(answer)")
        }
        return trimmed.lowercased()
    }

    /// Opens handles until `handles` are idle (each loads the database), so that as many identifications at
    /// once find one ready; a failure to open one is left for the identification that needs it to report.
    func preload(handles: Int) {
        // Taken all at once (idle ones first, then new ones), then all given back.
        var taken: [magic_t] = []
        for _ in 0..<handles {
            guard let cookie = try? take() else { break }
            taken.append(cookie)
        }
        for cookie in taken { giveBack(cookie) }
    }

    private func take() throws(Failure) -> magic_t {
        if let address = idle.withLock({ $0.popLast() }), let cookie = OpaquePointer(bitPattern: address) {
            return cookie
        }
        let address = try Self.loading.withLock { _ throws(Failure) -> UInt in
            UInt(bitPattern: try Self.open(databasePath: databasePath, bytesMax: bytesMax))
        }
        guard let cookie = OpaquePointer(bitPattern: address) else {
            throw Failure(call: "magic_open", message: "no handle")
        }
        return cookie
    }

    private func giveBack(_ cookie: magic_t) {
        idle.withLock { $0.append(UInt(bitPattern: cookie)) }
    }

    /// A new handle with the database loaded. Callers hold `loading`.
    ///
    /// The corresponding C functions are `magic_open`, `magic_setparam` and `magic_load`.
    private static func open(databasePath: String, bytesMax: Int) throws(Failure) -> magic_t {
        guard let cookie = magic_open(handleFlags) else {
            throw Failure(call: "magic_open", message: Errno.current.description)
        }
        var limit = bytesMax
        if magic_setparam(cookie, MAGIC_PARAM_BYTES_MAX, &limit) != 0 {
            let message = lastError(cookie)
            magic_close(cookie)
            throw Failure(call: "magic_setparam", message: message)
        }
        if magic_load(cookie, databasePath) != 0 {
            let message = lastError(cookie)
            magic_close(cookie)
            throw Failure(call: "magic_load", message: message)
        }
        return cookie
    }

    private static func lastError(_ cookie: magic_t) -> String {
        magic_error(cookie).map { String(cString: $0) } ?? "unknown error"
    }
}

