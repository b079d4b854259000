internal import CPCRE2
import Synchronization

/// Perl-compatible regular expressions from PCRE2 (linked as libmagic is: `libpcre2-8`, Debian's
/// libpcre2-dev to build, libpcre2-8-0 to run), for GitHub Linguist's heuristics. Their patterns are Ruby's,
/// which `make-typedb.py` writes in PCRE2's syntax where the two differ (a class intersection as a
/// lookahead; `ruby_pattern` in TypeDB/tools/typedb/rubyregex.py); PCRE2 reads them as Ruby does (`^` and
/// `$` at line ends, ASCII `\w`, `\s`, `\d` and `\b`).
/// Compiled and JIT-translated once per process, a pattern matches a page of text in microseconds.
enum PCRE2 {
    /// A compiled pattern: immutable once compiled, so any thread may match with it (PCRE2's rule).
    final class Pattern: @unchecked Sendable {
        fileprivate let code: OpaquePointer

        fileprivate init(code: OpaquePointer) {
            self.code = code
        }

        deinit { pcre2_code_free_8(code) }

        /// Whether the pattern matches somewhere in `text`; `nil` when PCRE2 gave up (its match or JIT
        /// stack limit: a pattern that backtracks without end on these bytes).
        func matches(in text: String) -> Bool? {
            var text = text
            return text.withUTF8 { bytes -> Bool? in
                guard let data = pcre2_match_data_create_8(1, nil) else { return nil }
                defer { pcre2_match_data_free_8(data) }
                let result: Int32
                if let base = bytes.baseAddress {
                    result = pcre2_match_8(code, base, bytes.count, 0, PCRE2_NO_UTF_CHECK, data, nil)
                } else {
                    // Empty text still needs a valid pointer.
                    var none: UInt8 = 0
                    result = pcre2_match_8(code, &none, 0, 0, PCRE2_NO_UTF_CHECK, data, nil)
                }
                // 0: a match, with too small a vector for its groups (one pair is all this asks for).
                if result >= 0 { return true }
                return result == PCRE2_ERROR_NOMATCH ? false : nil
            }
        }
    }

    /// The pattern compiled for Ruby's sense of lines (`^`, `$` at every line), as UTF-8; `nil` when PCRE2
    /// does not accept it (a rule that needs it then fails). Compiled once per process.
    static func pattern(_ source: String) -> Pattern? {
        if let known = cache.withLock({ $0[source] }) { return known }
        let compiled = compile(source)
        cache.withLock { $0[source] = .some(compiled) }
        return compiled
    }

    private static let cache = Mutex<[String: Pattern?]>([:])

    private static func compile(_ source: String) -> Pattern? {
        var error: Int32 = 0
        var offset = 0
        var source = source
        let compiled = source.withUTF8 { bytes in
            pcre2_compile_8(bytes.baseAddress, bytes.count, PCRE2_MULTILINE | PCRE2_UTF | PCRE2_MATCH_INVALID_UTF, &error, &offset, nil)
        }
        guard let compiled else { return nil }
        // JIT translation makes matching several times faster; without it (no JIT on this machine) PCRE2
        // interprets, which is still correct.
        _ = pcre2_jit_compile_8(compiled, PCRE2_JIT_COMPLETE)
        return Pattern(code: compiled)
    }
}
