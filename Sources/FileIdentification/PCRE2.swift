#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Perl-compatible regular expressions from the system's PCRE2 library (`libpcre2-8.so.0`, which every
/// Debian and Ubuntu system has: grep needs it), loaded when first needed, for GitHub Linguist's
/// heuristics. Their patterns are Ruby's; PCRE2 reads nearly all of them as Ruby does (`^` and `$` at line
/// ends, ASCII `\w`, `\s`, `\d` and `\b`), and its compiled, JIT-translated patterns match in microseconds
/// where Swift's `Regex` takes milliseconds on a page of text. Without the library, or for a pattern it
/// does not accept (a class intersection, `[a&&[^b]]`), `pattern(_:)` answers `nil` and the caller uses
/// Swift's `Regex`.
enum PCRE2 {
    /// A compiled pattern: immutable once compiled, so any thread may match with it (PCRE2's rule).
    final class Pattern: @unchecked Sendable {
        fileprivate let code: OpaquePointer
        private let library: Library

        fileprivate init(code: OpaquePointer, library: Library) {
            self.code = code
            self.library = library
        }

        deinit { library.codeFree(code) }

        /// Whether the pattern matches somewhere in `text`; `nil` when PCRE2 gave up (its match or JIT
        /// stack limit: a pattern that backtracks without end on these bytes).
        func matches(in text: String) -> Bool? {
            var text = text
            return text.withUTF8 { bytes -> Bool? in
                guard let data = library.matchDataCreate(1, nil) else { return nil }
                defer { library.matchDataFree(data) }
                let result: Int32
                if let base = bytes.baseAddress {
                    result = library.match(code, base, bytes.count, 0, PCRE2.noUTFCheck, data, nil)
                } else {
                    // Empty text still needs a valid pointer.
                    var none: UInt8 = 0
                    result = library.match(code, &none, 0, 0, PCRE2.noUTFCheck, data, nil)
                }
                // 0: a match, with too small a vector for its groups (one pair is all this asks for).
                if result >= 0 { return true }
                return result == PCRE2.errorNoMatch ? false : nil
            }
        }
    }

    /// The pattern compiled for Ruby's sense of lines (`^`, `$` at every line), as UTF-8; `nil` when the
    /// library is not there or does not accept the pattern. Compiled once per process.
    static func pattern(_ source: String) -> Pattern? {
        if let known = cache.withLock({ $0[source] }) { return known }
        let compiled = library.flatMap { compile(source, with: $0) }
        cache.withLock { $0[source] = .some(compiled) }
        return compiled
    }

    private static let cache = Mutex<[String: Pattern?]>([:])

    private static func compile(_ source: String, with library: Library) -> Pattern? {
        var error: Int32 = 0
        var offset = 0
        let compiled = source.withCString { pointer in
            pointer.withMemoryRebound(to: UInt8.self, capacity: source.utf8.count) {
                library.compile($0, source.utf8.count, multiline | utf | matchInvalidUTF, &error, &offset, nil)
            }
        }
        guard let compiled else { return nil }
        // JIT translation makes matching several times faster; without it (no JIT on this machine) PCRE2
        // interprets, which is still correct.
        _ = library.jitCompile(compiled, jitComplete)
        return Pattern(code: compiled, library: library)
    }

    // pcre2.h's values.
    private static let multiline: UInt32 = 0x0000_0400
    private static let utf: UInt32 = 0x0008_0000
    private static let matchInvalidUTF: UInt32 = 0x0400_0000
    private static let jitComplete: UInt32 = 0x0000_0001
    fileprivate static let noUTFCheck: UInt32 = 0x4000_0000
    fileprivate static let errorNoMatch: Int32 = -1

    /// The entry points this uses, from the loaded library.
    fileprivate struct Library: @unchecked Sendable {
        typealias Compile = @convention(c) (UnsafePointer<UInt8>?, Int, UInt32, UnsafeMutablePointer<Int32>?,
                                            UnsafeMutablePointer<Int>?, OpaquePointer?) -> OpaquePointer?
        typealias JITCompile = @convention(c) (OpaquePointer?, UInt32) -> Int32
        typealias MatchDataCreate = @convention(c) (UInt32, OpaquePointer?) -> OpaquePointer?
        typealias Match = @convention(c) (OpaquePointer?, UnsafePointer<UInt8>?, Int, Int, UInt32, OpaquePointer?,
                                          OpaquePointer?) -> Int32
        typealias Free = @convention(c) (OpaquePointer?) -> Void

        let compile: Compile
        let jitCompile: JITCompile
        let matchDataCreate: MatchDataCreate
        let match: Match
        let matchDataFree: Free
        let codeFree: Free
    }

    /// The library, or `nil` when it cannot be loaded. `UTI_PCRE2=off` in the environment turns it off (to
    /// compare with Swift's `Regex`, or where a system's copy misbehaves).
    private static let library: Library? = {
        if let setting = getenv("UTI_PCRE2"), String(cString: setting) == "off" { return nil }
        guard let handle = dlopen("libpcre2-8.so.0", RTLD_NOW | RTLD_LOCAL) else { return nil }
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            dlsym(handle, name).map { unsafeBitCast($0, to: type) }
        }
        guard let compile = symbol("pcre2_compile_8", as: Library.Compile.self),
              let jitCompile = symbol("pcre2_jit_compile_8", as: Library.JITCompile.self),
              let matchDataCreate = symbol("pcre2_match_data_create_8", as: Library.MatchDataCreate.self),
              let match = symbol("pcre2_match_8", as: Library.Match.self),
              let matchDataFree = symbol("pcre2_match_data_free_8", as: Library.Free.self),
              let codeFree = symbol("pcre2_code_free_8", as: Library.Free.self) else {
            dlclose(handle)
            return nil
        }
        return Library(compile: compile, jitCompile: jitCompile, matchDataCreate: matchDataCreate, match: match,
                       matchDataFree: matchDataFree, codeFree: codeFree)
    }()

    /// Whether the library was loaded.
    static var isAvailable: Bool { library != nil }
}
