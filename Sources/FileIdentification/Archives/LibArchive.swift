internal import CArchive
#if canImport(Glibc)
import Glibc
#endif

/// libarchive (Debian's libarchive13), loaded with `dlopen` the first time archives' members are read.
///
/// Linked, it would be loaded at every start of `uti` with what it links (libxml2, ICU, nettle, the
/// compression libraries): 2 ms more for every `uti identify`, a command that never reads a member. Its
/// declarations come from its headers (Debian's libarchive-dev), so each function's type is libarchive's own.
final class LibArchive: Sendable {
    typealias Archive = OpaquePointer
    typealias Entry = OpaquePointer

    let readNew: @convention(c) () -> Archive?
    let readFree: @convention(c) (Archive?) -> Int32
    let supportFilterAll: @convention(c) (Archive?) -> Int32
    /// The formats read: every one `archive_read_support_format_all` enables but mtree, which is a text
    /// listing of files on disk (whose reader would open the files it names), and raw.
    let supportFormats: [@convention(c) (Archive?) -> Int32]
    let supportFormatRaw: @convention(c) (Archive?) -> Int32
    let setReadCallback: @convention(c) (Archive?, (@convention(c) (Archive?, UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafeRawPointer?>?) -> Int)?) -> Int32
    let setSeekCallback: @convention(c) (Archive?, (@convention(c) (Archive?, UnsafeMutableRawPointer?, Int64, Int32) -> Int64)?) -> Int32
    let setSkipCallback: @convention(c) (Archive?, (@convention(c) (Archive?, UnsafeMutableRawPointer?, Int64) -> Int64)?) -> Int32
    let setCallbackData: @convention(c) (Archive?, UnsafeMutableRawPointer?) -> Int32
    let open: @convention(c) (Archive?) -> Int32
    let nextHeader: @convention(c) (Archive?, UnsafeMutablePointer<Entry?>?) -> Int32
    let readDataBlock: @convention(c) (Archive?, UnsafeMutablePointer<UnsafeRawPointer?>?, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<Int64>?) -> Int32
    let skipData: @convention(c) (Archive?) -> Int32
    let errorString: @convention(c) (Archive?) -> UnsafePointer<CChar>?
    let errorNumber: @convention(c) (Archive?) -> Int32
    let formatCode: @convention(c) (Archive?) -> Int32
    let formatName: @convention(c) (Archive?) -> UnsafePointer<CChar>?
    let filterCount: @convention(c) (Archive?) -> Int32
    let hasEncryptedEntries: @convention(c) (Archive?) -> Int32
    let entryPathname: @convention(c) (Entry?) -> UnsafePointer<CChar>?
    let entryPathnameUTF8: @convention(c) (Entry?) -> UnsafePointer<CChar>?
    let entrySize: @convention(c) (Entry?) -> Int64
    let entrySizeIsSet: @convention(c) (Entry?) -> Int32
    let entryModificationTime: @convention(c) (Entry?) -> time_t
    let entryModificationTimeIsSet: @convention(c) (Entry?) -> Int32
    let entryFileType: @convention(c) (Entry?) -> mode_t
    let entryIsEncrypted: @convention(c) (Entry?) -> Int32
    let entrySymlink: @convention(c) (Entry?) -> UnsafePointer<CChar>?
    let entryHardlink: @convention(c) (Entry?) -> UnsafePointer<CChar>?

    /// The library, or why it could not be loaded (said once per process, the same way each time).
    static let shared: Result<LibArchive, LoadFailure> = {
        do throws(LoadFailure) {
            return .success(try LibArchive())
        } catch {
            return .failure(error)
        }
    }()

    struct LoadFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// The formats read (`archive_read_support_format_NAME`).
    static let formats = ["7zip", "ar", "cab", "cpio", "iso9660", "lha", "rar", "rar5", "tar", "warc", "xar", "zip"]

    /// The names Debian and other distributions install the library under.
    static let candidates = ["libarchive.so.13", "libarchive.so"]

    private init() throws(LoadFailure) {
        var handle: UnsafeMutableRawPointer?
        for candidate in Self.candidates {
            if let opened = dlopen(candidate, RTLD_NOW | RTLD_LOCAL) {
                handle = opened
                break
            }
        }
        guard let handle else {
            throw LoadFailure(description: "libarchive is not installed (\(Self.candidates.joined(separator: ", ")) not found: apt-get install libarchive13)")
        }
        // The handle stays open for the process: the functions below point into it.
        func load<Function>(_ name: String, as type: Function.Type) throws(LoadFailure) -> Function {
            guard let symbol = dlsym(handle, name) else { throw LoadFailure(description: "libarchive without \(name): too old (3.3 or later is needed)") }
            return unsafeBitCast(symbol, to: type)
        }
        readNew = try load("archive_read_new", as: (@convention(c) () -> Archive?).self)
        readFree = try load("archive_read_free", as: (@convention(c) (Archive?) -> Int32).self)
        supportFilterAll = try load("archive_read_support_filter_all", as: (@convention(c) (Archive?) -> Int32).self)
        supportFormats = try Self.formats.map { (format) throws(LoadFailure) in
            try load("archive_read_support_format_" + format, as: (@convention(c) (Archive?) -> Int32).self)
        }
        supportFormatRaw = try load("archive_read_support_format_raw", as: (@convention(c) (Archive?) -> Int32).self)
        setReadCallback = try load("archive_read_set_read_callback", as: (@convention(c) (Archive?, (@convention(c) (Archive?, UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafeRawPointer?>?) -> Int)?) -> Int32).self)
        setSeekCallback = try load("archive_read_set_seek_callback", as: (@convention(c) (Archive?, (@convention(c) (Archive?, UnsafeMutableRawPointer?, Int64, Int32) -> Int64)?) -> Int32).self)
        setSkipCallback = try load("archive_read_set_skip_callback", as: (@convention(c) (Archive?, (@convention(c) (Archive?, UnsafeMutableRawPointer?, Int64) -> Int64)?) -> Int32).self)
        setCallbackData = try load("archive_read_set_callback_data", as: (@convention(c) (Archive?, UnsafeMutableRawPointer?) -> Int32).self)
        open = try load("archive_read_open1", as: (@convention(c) (Archive?) -> Int32).self)
        nextHeader = try load("archive_read_next_header", as: (@convention(c) (Archive?, UnsafeMutablePointer<Entry?>?) -> Int32).self)
        readDataBlock = try load("archive_read_data_block",
                                 as: (@convention(c) (Archive?, UnsafeMutablePointer<UnsafeRawPointer?>?, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<Int64>?) -> Int32).self)
        skipData = try load("archive_read_data_skip", as: (@convention(c) (Archive?) -> Int32).self)
        errorString = try load("archive_error_string", as: (@convention(c) (Archive?) -> UnsafePointer<CChar>?).self)
        errorNumber = try load("archive_errno", as: (@convention(c) (Archive?) -> Int32).self)
        formatCode = try load("archive_format", as: (@convention(c) (Archive?) -> Int32).self)
        formatName = try load("archive_format_name", as: (@convention(c) (Archive?) -> UnsafePointer<CChar>?).self)
        filterCount = try load("archive_filter_count", as: (@convention(c) (Archive?) -> Int32).self)
        hasEncryptedEntries = try load("archive_read_has_encrypted_entries", as: (@convention(c) (Archive?) -> Int32).self)
        entryPathname = try load("archive_entry_pathname", as: (@convention(c) (Entry?) -> UnsafePointer<CChar>?).self)
        entryPathnameUTF8 = try load("archive_entry_pathname_utf8", as: (@convention(c) (Entry?) -> UnsafePointer<CChar>?).self)
        entrySize = try load("archive_entry_size", as: (@convention(c) (Entry?) -> Int64).self)
        entrySizeIsSet = try load("archive_entry_size_is_set", as: (@convention(c) (Entry?) -> Int32).self)
        entryModificationTime = try load("archive_entry_mtime", as: (@convention(c) (Entry?) -> time_t).self)
        entryModificationTimeIsSet = try load("archive_entry_mtime_is_set", as: (@convention(c) (Entry?) -> Int32).self)
        entryFileType = try load("archive_entry_filetype", as: (@convention(c) (Entry?) -> mode_t).self)
        entryIsEncrypted = try load("archive_entry_is_encrypted", as: (@convention(c) (Entry?) -> Int32).self)
        entrySymlink = try load("archive_entry_symlink", as: (@convention(c) (Entry?) -> UnsafePointer<CChar>?).self)
        entryHardlink = try load("archive_entry_hardlink", as: (@convention(c) (Entry?) -> UnsafePointer<CChar>?).self)
    }

    /// The last error libarchive recorded on `archive`, or `fallback`.
    func error(_ archive: Archive, or fallback: String) -> String {
        errorString(archive).map { String(cString: $0) } ?? fallback
    }

    // libarchive's constants, from its headers.
    static let ok = ARCHIVE_OK
    static let eof = ARCHIVE_EOF
    static let warn = ARCHIVE_WARN
    static let rawFormat = ARCHIVE_FORMAT_RAW
    static let warcFormat = ARCHIVE_FORMAT_WARC
    /// `archive_errno` when no format reads the bytes (`ARCHIVE_ERRNO_FILE_FORMAT`).
    static let unrecognizedFormat = EILSEQ
    // `archive_entry_filetype`'s values (archive_entry.h's AE_IF*, macros with casts that Swift does not
    // import): POSIX's file type bits, in octal as the header writes them.
    static let regularFile: mode_t = 0o100000
    static let directory: mode_t = 0o040000
    static let symbolicLink: mode_t = 0o120000
    static let fifo: mode_t = 0o010000
    static let characterDevice: mode_t = 0o020000
    static let blockDevice: mode_t = 0o060000
    static let socket: mode_t = 0o140000
}
