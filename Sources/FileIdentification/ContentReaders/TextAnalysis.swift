internal import UniformTypeIdentifiers
internal import CByteScan
#if canImport(Glibc)
import Glibc
#endif

/// Whether bytes are text, in which encoding, and which text format they look like.
enum TextAnalysis {
    /// How much of a text is decoded to recognise its format.
    static let formatSampleSize = 8 * 1024

    /// The encoding of `bytes` when they are text, or `nil` for binary data.
    ///
    /// A byte-order mark decides first. Without one, NUL bytes mean binary; valid UTF-8 is UTF-8 (ASCII
    /// when no byte is above 0x7F; a sequence cut by the end of the sample still counts); anything else
    /// is eight-bit text when control characters other than tab, newlines, form feed and escape are
    /// rare. A high-bit byte alone never makes text binary.
    static func encoding(of bytes: ArraySlice<UInt8>) -> TextEncoding? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return .utf8 }
        if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return .utf32LittleEndian }
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return .utf32BigEndian }
        if bytes.starts(with: [0xFF, 0xFE]) { return .utf16LittleEndian }
        if bytes.starts(with: [0xFE, 0xFF]) { return .utf16BigEndian }
        guard let (controls, highBit) = bytes.withUnsafeBufferPointer(scan) else { return wideEncoding(of: bytes) }
        if !highBit {
            if controls > 0, let shifted = shiftedISO2022(bytes, controls: controls) { return shifted }
            return controls * 100 > bytes.count ? nil : .ascii
        }
        if isUTF8(bytes) { return controls * 100 > bytes.count ? nil : .utf8 }
        // Eight-bit text: few C0 controls and few C1 bytes (0x80-0x9F are printable in Windows-1252 only).
        return controls * 50 > bytes.count ? nil : .eightBit
    }

    /// ISO-2022's 7-bit encodings that shift between ASCII and a double-byte character set with SO and SI:
    /// ISO-2022-KR (RFC 1557: `ESC $ ) C` once, before the first SO) and ISO-2022-CN (RFC 1922: `ESC $ ) A`,
    /// `ESC $ ) G`, `ESC $ * H`). Korean or Chinese text in them shifts at nearly every word, so SO and SI
    /// are not counted as control characters once a designation is there; others must be as few as in any
    /// text. `nil` without a designation. (ISO-2022-JP shifts by escapes alone, and is read as ASCII.)
    static func shiftedISO2022(_ bytes: ArraySlice<UInt8>, controls: Int) -> TextEncoding? {
        let designations: [(bytes: [UInt8], encoding: TextEncoding)] = [
            ([0x1B, 0x24, 0x29, 0x43], .iso2022KR), ([0x1B, 0x24, 0x29, 0x41], .iso2022CN),
            ([0x1B, 0x24, 0x29, 0x47], .iso2022CN), ([0x1B, 0x24, 0x2A, 0x48], .iso2022CN),
        ]
        var found: TextEncoding?
        var index = bytes.startIndex
        while found == nil, let escape = bytes[index...].firstIndex(of: 0x1B) {
            found = designations.first { bytes[escape...].starts(with: $0.bytes) }?.encoding
            index = escape + 1
        }
        guard let found else { return nil }
        let shifts = bytes.count { $0 == 0x0E || $0 == 0x0F }
        return (controls - shifts) * 100 > bytes.count ? nil : found
    }

    /// UTF-32 or UTF-16, either byte order, without a byte-order mark, for bytes with NULs in them: every code
    /// unit valid (no NUL unit, surrogates paired, scalars in range; a unit cut by the sample's end is left),
    /// sixteen characters at least, few control characters, half of them below U+0100 and those nearly all
    /// printable ASCII (markup, Latin text), which tables of binary numbers do not pass. `nil` for anything
    /// else. (What chardet's BOM-less test files are.)
    static func wideEncoding(of bytes: ArraySlice<UInt8>) -> TextEncoding? {
        guard bytes.count >= 8 else { return nil }
        // Read in place, the characters counted as they are decoded: most bytes that reach here are binary,
        // and fail at their first units.
        return bytes.withUnsafeBufferPointer { bytes -> TextEncoding? in
            /// What makes decoded characters plausible text.
            struct Tally {
                var count = 0, controls = 0, latin = 0, printable = 0

                mutating func add(_ scalar: UInt32) {
                    count += 1
                    if scalar < 0x20, scalar != 0x09, scalar != 0x0A, scalar != 0x0D, scalar != 0x0C { controls += 1 }
                    if scalar < 0x100 { latin += 1 }
                    if (0x20...0x7E).contains(scalar) || scalar == 0x09 || scalar == 0x0A || scalar == 0x0D { printable += 1 }
                }

                var isPlausible: Bool {
                    count >= 16 && controls * 100 <= count && latin * 2 >= count && printable * 10 >= latin * 9
                }
            }
            for bigEndian in [false, true] {
                var tally = Tally()
                var valid = true
                var index = 0
                while index + 3 < bytes.count {
                    let value = bigEndian
                        ? UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16 | UInt32(bytes[index + 2]) << 8 | UInt32(bytes[index + 3])
                        : UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24
                    if value == 0 || value > 0x10FFFF || (0xD800...0xDFFF).contains(value) { valid = false; break }
                    tally.add(value)
                    index += 4
                }
                if valid && tally.isPlausible { return bigEndian ? .utf32BigEndian : .utf32LittleEndian }
            }
            for bigEndian in [false, true] {
                var tally = Tally()
                var valid = true
                var index = 0
                var pendingHigh: UInt32?
                while index + 1 < bytes.count {
                    let unit = bigEndian ? UInt32(bytes[index]) << 8 | UInt32(bytes[index + 1]) : UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8
                    index += 2
                    if unit == 0 { valid = false; break }
                    if let high = pendingHigh {
                        guard (0xDC00...0xDFFF).contains(unit) else { valid = false; break }
                        tally.add(0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00))
                        pendingHigh = nil
                    } else if (0xD800...0xDBFF).contains(unit) {
                        pendingHigh = unit
                    } else if (0xDC00...0xDFFF).contains(unit) {
                        valid = false
                        break
                    } else {
                        tally.add(unit)
                    }
                }
                if valid && tally.isPlausible { return bigEndian ? .utf16BigEndian : .utf16LittleEndian }
            }
            return nil
        }
    }

    /// Whether bytes that are no text in any encoding (`encoding(of:)` gave `nil`) are proven binary: a NUL
    /// among them, or control characters more than one in ten. A few control characters in text (a Vim
    /// keymap's ^K, ISO-2022's shifts) leave it text to a name that says so.
    static func isProvenBinary(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard !bytes.contains(0) else { return true }
        let controls = bytes.count { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D && $0 != 0x0C && $0 != 0x1B && $0 != 0x08 }
        return controls * 10 > bytes.count
    }

    /// The C0 control characters in `bytes` (tab, line feed, carriage return, form feed, escape and
    /// backspace are not counted) and whether a byte has its high bit set; `nil` at a NUL. Sixteen bytes at a
    /// time (CByteScan's `uti_scan_text`).
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (controls: Int, highBit: Bool)? {
        var controls = 0
        var highBit: Int32 = 0
        guard uti_scan_text(bytes.baseAddress, bytes.count, &controls, &highBit) == 0 else { return nil }
        return (controls, highBit != 0)
    }

    /// Whether `bytes` are valid UTF-8, allowing one sequence cut short at the end.
    static func isUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return true }
            var index = 0
            while index < buffer.count {
                // Eight ASCII bytes at a time.
                if index + 8 <= buffer.count,
                   UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    index += 8
                    continue
                }
                let byte = base[index]
                let length: Int
                switch byte {
                case 0x00...0x7F: index += 1; continue
                case 0xC2...0xDF: length = 2
                case 0xE0...0xEF: length = 3
                case 0xF0...0xF4: length = 4
                default: return false
                }
                for offset in 1..<length {
                    guard index + offset < buffer.count else { return true }  // cut by the sample's end
                    let continuation = base[index + offset]
                    guard continuation & 0xC0 == 0x80 else { return false }
                    if offset == 1 {
                        if byte == 0xE0 && continuation < 0xA0 { return false }  // overlong
                        if byte == 0xED && continuation > 0x9F { return false }  // surrogates
                        if byte == 0xF0 && continuation < 0x90 { return false }  // overlong
                        if byte == 0xF4 && continuation > 0x8F { return false }  // above U+10FFFF
                    }
                }
                index += length
            }
            return true
        }
    }

    /// The text as a string, decoded from `encoding` (lossy; for format detection only).
    static func decode(_ bytes: ArraySlice<UInt8>, as encoding: TextEncoding) -> String {
        switch encoding {
        case .ascii, .utf8:
            let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes
            return String(decoding: body, as: UTF8.self)
        case .eightBit:
            // Each byte the code point of its number (ISO 8859-1), written as UTF-8 into the string's storage at
            // once: a view of scalars appended one by one took 2.7 million instructions for a 64 KiB sample.
            return String(unsafeUninitializedCapacity: bytes.count * 2) { text in
                var at = 0
                for byte in bytes {
                    if byte < 0x80 {
                        text[at] = byte
                        at += 1
                    } else {
                        text[at] = 0xC0 | byte >> 6
                        text[at + 1] = 0x80 | byte & 0x3F
                        at += 2
                    }
                }
                return at
            }
        case .iso2022KR, .iso2022CN:
            // What the readers need is the ASCII between the shifts: designations and SO/SI go, and each pair
            // of bytes of the double-byte set is a replacement character.
            var scalars = String.UnicodeScalarView()
            var shifted = false
            var index = bytes.startIndex
            while index < bytes.endIndex {
                let byte = bytes[index]
                if byte == 0x0E { shifted = true; index += 1; continue }
                if byte == 0x0F { shifted = false; index += 1; continue }
                if byte == 0x1B, bytes[index...].starts(with: [0x1B, 0x24]), index + 3 < bytes.endIndex {
                    index += 4  // ESC $ ) C and its kind: four bytes
                    continue
                }
                if shifted && byte >= 0x21 && byte <= 0x7E {
                    scalars.append("\u{FFFD}")
                    index += 2
                    continue
                }
                scalars.append(Unicode.Scalar(byte))
                index += 1
            }
            return String(scalars)
        case .utf16LittleEndian, .utf16BigEndian:
            let hasMark = bytes.starts(with: encoding == .utf16LittleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF])
            let body = Array(bytes.dropFirst(hasMark ? 2 : 0))
            var units: [UInt16] = []
            units.reserveCapacity(body.count / 2)
            var index = 0
            while index + 1 < body.count {
                let pair = encoding == .utf16LittleEndian
                    ? UInt16(body[index]) | UInt16(body[index + 1]) << 8
                    : UInt16(body[index]) << 8 | UInt16(body[index + 1])
                units.append(pair)
                index += 2
            }
            return String(decoding: units, as: UTF16.self)
        case .utf32LittleEndian, .utf32BigEndian:
            let hasMark = bytes.starts(with: encoding == .utf32LittleEndian ? [0xFF, 0xFE, 0x00, 0x00] : [0x00, 0x00, 0xFE, 0xFF])
            let body = Array(bytes.dropFirst(hasMark ? 4 : 0))
            var scalars = String.UnicodeScalarView()
            var index = 0
            while index + 3 < body.count {
                let value: UInt32 = encoding == .utf32LittleEndian
                    ? UInt32(body[index]) | UInt32(body[index + 1]) << 8 | UInt32(body[index + 2]) << 16 | UInt32(body[index + 3]) << 24
                    : UInt32(body[index]) << 24 | UInt32(body[index + 1]) << 16 | UInt32(body[index + 2]) << 8 | UInt32(body[index + 3])
                scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
                index += 4
            }
            return String(scalars)
        default:
            // An encoding this reader does not know: as UTF-8, lossily.
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// A text format recognised from the text itself.
    struct Format {
        /// How the format is named: by a MIME type, or by a type for a format no MIME type names.
        enum Name {
            case mimeType(String)
            case type(UTType)
        }

        var name: Name
        /// A `#!` line or an XML root element proves the format; JSON or CSV structure suggests it.
        var isConclusive: Bool
        var detail: String

        init(mimeType: String, isConclusive: Bool, detail: String) {
            self.init(name: .mimeType(mimeType), isConclusive: isConclusive, detail: detail)
        }

        init(name: Name, isConclusive: Bool, detail: String) {
            self.name = name
            self.isConclusive = isConclusive
            self.detail = detail
        }

        /// The verdict: the type named; `nil` for a MIME type no declared type claims.
        var verdict: Verdict? {
            switch name {
            case .mimeType(let mimeType): Verdict(mimeType: mimeType, detail: detail)
            case .type(let type): Verdict(type: type, detail: detail)
            }
        }
    }

    /// The MIME type of XML documents whose root element is a local name in a namespace (shared-mime-info's
    /// `XMLnamespaces`), `nil` for none.
    typealias XMLNamespaceRules = (_ namespace: String, _ localName: String) -> String?

    /// The format the text shows, if any: a script by its `#!` line, XML by its root element, HTML,
    /// JSON, CSV. `nil` means plain text as far as this reader can tell.
    static func format(of text: String, isComplete: Bool, xmlNamespaces: XMLNamespaceRules) -> Format? {
        let trimmed = text.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" })
        if text.hasPrefix("#!") {
            return shebang(String(text.prefix(while: { $0 != "\n" && $0 != "\r" })))
        }
        // A Vim or Emacs modeline naming the language (`vim: set ft=python:`, `-*- mode: ruby -*-`).
        if let modeline = Languages.modeline(in: text), let type = Languages.type(ofLanguageNamed: modeline.language) {
            return Format(name: .type(type), isConclusive: true, detail: "modeline: " + modeline.line.filter { $0 != "\r" })
        }
        if trimmed.hasPrefix("<") {
            if let markup = markup(trimmed, xmlNamespaces: xmlNamespaces) { return markup }
        }
        if trimmed.first == "{" || trimmed.first == "[" {
            if JSONCheck.isJSON(trimmed, isComplete: isComplete) {
                return Format(mimeType: "application/json", isConclusive: false, detail: "JSON structure")
            }
        }
        if let pem = pem(trimmed) { return pem }
        if let first = trimmed.first, "%{BF@s".contains(first) {
            if let marker = markers(trimmed) { return marker }
        }
        if isCSV(text) {
            return Format(mimeType: "text/csv", isConclusive: false, detail: "comma-separated lines")
        }
        return nil
    }

    /// What a PEM label (RFC 7468's, OpenPGP's armour of RFC 4880, OpenSSH's) says the block holds. A label
    /// not listed is PEM-encoded data of a kind no type names on its own (`RSA PRIVATE KEY`, `PUBLIC KEY`,
    /// `EC PARAMETERS`).
    static let pemLabels: [String: String] = [
        "CERTIFICATE": "application/x-x509-ca-cert", "X509 CERTIFICATE": "application/x-x509-ca-cert",
        "X.509 CERTIFICATE": "application/x-x509-ca-cert", "TRUSTED CERTIFICATE": "application/x-x509-ca-cert",
        "CERTIFICATE REQUEST": "application/pkcs10", "NEW CERTIFICATE REQUEST": "application/pkcs10",
        "X509 CRL": "application/pkix-crl",
        "PKCS7": "application/pkcs7-mime", "CMS": "application/pkcs7-mime",
        "PRIVATE KEY": "application/pkcs8", "ENCRYPTED PRIVATE KEY": "application/pkcs8-encrypted",
        "OPENSSH PRIVATE KEY": "text/x-ssh-private-key",
        "PGP MESSAGE": "application/pgp-encrypted", "PGP SIGNED MESSAGE": "application/pgp-signature",
        "PGP SIGNATURE": "application/pgp-signature", "PGP PUBLIC KEY BLOCK": "application/pgp-keys",
        "PGP PRIVATE KEY BLOCK": "application/pgp-keys",
    ]

    /// A PEM block (RFC 7468): `-----BEGIN <label>-----`, base64 lines, `-----END <label>-----`; the label says
    /// what it holds (`pemLabels`). A block that starts the text proves the format, since its first line says
    /// what it is: a PKCS #8 private key is no certificate for being named `.pem`. One after explanatory
    /// lines (RFC 7468, 5.2: OpenSSL's `Bag Attributes` headings and `subject=` lines, `openssl x509 -text`'s
    /// fields: each line a heading or an attribute with a `:` or an `=`) suggests it, when its END line follows; a block inside other text
    /// (a script holding a test certificate) is none.
    static func pem(_ text: Substring) -> Format? {
        // By bytes: this runs on every text file, and a search by characters cost a tenth of a classification.
        var text = text
        return text.withUTF8 { bytes -> Format? in
            let marker = Array("-----BEGIN ".utf8)
            let atStart = bytes.starts(with: marker)
            var begin = 0
            if !atStart {
                guard let found = firstOffset(of: [0x0A] + marker, in: bytes, from: 0) else { return nil }
                begin = found + 1
                let explanatory = bytes[..<found].split(whereSeparator: { $0 == 0x0A || $0 == 0x0D })
                guard explanatory.allSatisfy({ line in
                    line.allSatisfy { $0 == 0x20 || $0 == 0x09 } || line.contains(UInt8(ascii: ":")) || line.contains(UInt8(ascii: "="))
                        || line.suffix(10).elementsEqual("Attributes".utf8)
                }) else { return nil }
            }
            let labelStart = begin + marker.count
            guard let close = firstOffset(of: Array("-----".utf8), in: bytes, from: labelStart), close - labelStart <= 64 else { return nil }
            let label = bytes[labelStart..<close]
            // RFC 7468's labelchar: printable ASCII but the hyphen-minus, words separated by single spaces.
            guard let first = label.first, let last = label.last, first != 0x20, last != 0x20,
                  label.allSatisfy({ (0x20...0x7E).contains($0) && $0 != 0x2D }) else { return nil }
            let name = String(decoding: label, as: UTF8.self)
            guard atStart || firstOffset(of: Array("-----END \(name)-----".utf8), in: bytes, from: close + 5) != nil else { return nil }
            return Format(mimeType: pemLabels[name] ?? "application/x-pem-file", isConclusive: atStart, detail: "PEM block: \(name)")
        }
    }

    /// Where `needle` first occurs in `haystack` at or after `start` (CByteScan's `uti_find_literal`).
    static func firstOffset(of needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = haystack.baseAddress, !needle.isEmpty, start >= 0, needle.count <= haystack.count - start else { return nil }
        return needle.withUnsafeBufferPointer { pattern -> Int? in
            guard let hit = uti_find_literal(base + start, haystack.count - start, pattern.baseAddress, pattern.count) else { return nil }
            return UnsafeRawPointer(base).distance(to: hit)
        }
    }

    /// Text formats that announce themselves on their first line.
    private static func markers(_ text: Substring) -> Format? {
        let table: [(prefix: String, mime: String)] = [
            ("%PDF-", "application/pdf"),
            ("%!PS-Adobe", "application/postscript"),
            ("{\\rtf", "application/rtf"),
            ("ssh-ed25519 ", "text/x-ssh-public-key"),
            ("ssh-rsa ", "text/x-ssh-public-key"),
            ("BEGIN:VCARD", "text/vcard"),
            ("BEGIN:VCALENDAR", "text/calendar"),
            ("From ", "application/mbox"),
            ("@prefix ", "text/turtle"),
        ]
        for entry in table where text.hasPrefix(entry.prefix) {
            return Format(mimeType: entry.mime, isConclusive: true, detail: "text starts with \(entry.prefix)")
        }
        return nil
    }

    /// The interpreter of a `#!` line, mapped to a script type.
    static func shebang(_ line: String) -> Format? {
        var words = line.dropFirst(2).split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard !words.isEmpty else { return nil }
        var program = words.removeFirst().split(separator: "/").last.map(String.init) ?? ""
        if program == "env" {
            while let next = words.first, next.hasPrefix("-") { words.removeFirst() }
            program = words.first ?? ""
        }
        let interpreters: [(prefix: String, mime: String)] = [
            ("python3", "text/x-python3"), ("python2", "text/x-python2"), ("python", "text/x-python"), ("pypy", "text/x-python"),
            ("bash", "application/x-shellscript"), ("sh", "application/x-shellscript"),
            ("dash", "application/x-shellscript"), ("ash", "application/x-shellscript"),
            ("zsh", "application/x-shellscript"), ("ksh", "application/x-shellscript"),
            ("csh", "application/x-csh"), ("tcsh", "application/x-csh"), ("fish", "application/x-fishscript"),
            ("perl", "application/x-perl"), ("ruby", "application/x-ruby"), ("php", "application/x-php"),
            ("node", "application/javascript"), ("nodejs", "application/javascript"), ("deno", "application/javascript"),
            ("lua", "text/x-lua"), ("tclsh", "text/x-tcl"), ("wish", "text/x-tcl"), ("awk", "text/x-awk"),
            ("gawk", "text/x-gawk"), ("mawk", "text/x-awk"), ("nawk", "text/x-nawk"),
            ("make", "text/x-makefile"), ("Rscript", "text/x-r"), ("julia", "text/x-julia"), ("sed", "text/x-sed"),
            ("racket", "text/x-racket"), ("guile", "text/x-scheme"), ("escript", "text/x-erlang"),
        ]
        let name = program.lowercased()
        // The longest interpreter name that the program's name is, or starts with before a version (python3.11).
        for entry in interpreters where name == entry.prefix || (name.hasPrefix(entry.prefix) && name.dropFirst(entry.prefix.count).allSatisfy { $0.isNumber || $0 == "." }) {
            return Format(mimeType: entry.mime, isConclusive: true, detail: String(line.prefix(80)))
        }
        // GitHub Linguist's interpreters: `#!/usr/bin/env deno`, `#!/usr/bin/runghc`.
        if let type = Languages.type(ofInterpreter: name) {
            return Format(name: .type(type), isConclusive: true, detail: String(line.prefix(80)))
        }
        return Format(mimeType: "application/x-executable-script", isConclusive: false, detail: String(line.prefix(80)))
    }

    /// XML by its root element, or HTML.
    private static func markup(_ text: Substring, xmlNamespaces: XMLNamespaceRules) -> Format? {
        let head = prefix(text, characters: 4096)
        if startsHTMLDocument(head) {
            return Format(mimeType: "text/html", isConclusive: true, detail: "HTML document")
        }
        guard let root = rootElement(head) else {
            let lower = head.lowercased()
            for tag in ["<head", "<body", "<script", "<div", "<p>", "<table", "<title", "<meta", "<a href", "<iframe", "<style", "<h1"]
            where lower.firstRange(ofBytes: tag) != nil {
                return Format(mimeType: "text/html", isConclusive: false, detail: "HTML elements")
            }
            return nil
        }
        // shared-mime-info's root-element rules (XMLnamespaces): the element's local name in its namespace
        // first; a rule for a local name in no namespace is weaker than the dialects below.
        let qualified = root.split(separator: ":", maxSplits: 1)
        let localName = String(qualified.last ?? Substring(root))
        let namespace = namespaceURI(of: head, root: root, prefix: qualified.count == 2 ? String(qualified[0]) : nil) ?? ""
        if !namespace.isEmpty, let mime = xmlNamespaces(namespace, localName) {
            return Format(mimeType: mime, isConclusive: false, detail: "XML root element <\(root)> in \(namespace)")
        }
        let name = root.lowercased()
        let local = name.split(separator: ":").last.map(String.init) ?? name
        // A root element suggests a dialect but proves nothing against a name: dialects share roots
        // (a Windows Media playlist is <smil>), and any XML may be named for the schema it follows.
        if let dialect = Self.dialects[name] ?? Self.dialects[local] {
            return Format(name: dialect, isConclusive: false, detail: "XML root element <\(root)>")
        }
        if namespace.isEmpty, let mime = xmlNamespaces("", localName) {
            return Format(mimeType: mime, isConclusive: false, detail: "XML root element <\(root)>")
        }
        return Format(mimeType: "application/xml", isConclusive: false, detail: "XML root element <\(root)>")
    }

    /// XML vocabularies by their root element (lower-cased, with or without its prefix), made once.
    private static let dialects: [String: Format.Name] = [
        "html": .mimeType("text/html"), "svg": .mimeType("image/svg+xml"), "rss": .mimeType("application/rss+xml"), "feed": .mimeType("application/atom+xml"),
        "plist": .type(.xmlPropertyList), "stylesheet": .mimeType("application/xslt+xml"), "transform": .mimeType("application/xslt+xml"),
        "kml": .mimeType("application/vnd.google-earth.kml+xml"), "gpx": .mimeType("application/gpx+xml"), "math": .mimeType("application/mathml+xml"),
        "smil": .mimeType("application/smil+xml"), "xliff": .mimeType("application/xliff+xml"), "rdf": .mimeType("application/rdf+xml"),
        "opml": .mimeType("text/x-opml+xml"), "xsd": .mimeType("application/xml"), "schema": .mimeType("application/xml"), "wsdl:definitions": .mimeType("application/xml"),
        "x3d": .mimeType("model/x3d+xml"), "trainingcenterdatabase": .mimeType("application/vnd.garmin.tcx+xml"), "collada": .mimeType("model/vnd.collada+xml"), "metalink": .mimeType("application/metalink4+xml"),
        "playlist": .mimeType("application/xspf+xml"), "ttml": .mimeType("application/ttml+xml"), "tt": .mimeType("application/ttml+xml"),
        "gnc-v2": .mimeType("application/x-gnucash"), "abiword": .mimeType("application/x-abiword"), "mrss": .mimeType("application/rss+xml"),
        "project": .mimeType("application/xml"), "ui": .mimeType("application/x-gtk-builder"), "interface": .mimeType("application/x-gtk-builder"),
        "office:document": .mimeType("application/vnd.oasis.opendocument.text-flat-xml"), "fictionbook": .mimeType("application/x-fictionbook+xml"),
        "docbook": .mimeType("application/x-docbook+xml"), "book": .mimeType("application/x-docbook+xml"), "article": .mimeType("application/x-docbook+xml"),
        "xbel": .mimeType("application/x-xbel"), "mime-info": .mimeType("application/xml"), "component": .mimeType("application/xml"),
    ]

    /// The first `count` characters of `text`, as `String(text.prefix(count))` gives them. Text whose first
    /// `count` + 1 bytes are ASCII with no carriage return before a line feed (each byte a character of its
    /// own) is cut by bytes, without breaking graphemes; any other by characters.
    static func prefix(_ text: Substring, characters count: Int) -> String {
        let byteCut = text.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            guard bytes.count > count else { return bytes.count }  // the whole: fewer bytes than characters asked
            var previous: UInt8 = 0
            for byte in bytes[...count] {
                if byte >= 0x80 || (previous == 0x0D && byte == 0x0A) { return nil }
                previous = byte
            }
            return count
        } ?? nil
        guard let byteCut else { return String(text.prefix(count)) }
        return String(text.utf8.prefix(byteCut)) ?? String(text.prefix(count))
    }

    /// Whether the text starts `<!doctype html` or `<html`, in any case, as `lowercased().hasPrefix` says:
    /// by bytes when the first 15 are ASCII (then no later mark can join the prefix's last character),
    /// otherwise by lowercasing.
    static func startsHTMLDocument(_ text: String) -> Bool {
        let ascii = text.utf8.prefix(15).allSatisfy { $0 < 0x80 }
        guard ascii else {
            let lower = text.prefix(16).lowercased()
            return lower.hasPrefix("<!doctype html") || lower.hasPrefix("<html")
        }
        func startsFolded(_ prefix: StaticString) -> Bool {
            let expected = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
            guard text.utf8.count >= expected.count else { return false }
            return zip(text.utf8, expected).allSatisfy { byte, lower in (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == lower }
        }
        return startsFolded("<!doctype html") || startsFolded("<html")
    }

    /// The namespace the start tag of the root element `root` (as `rootElement` names it) declares for `prefix`
    /// (`xmlns:prefix="..."`), or its default namespace (`xmlns="..."`) when `prefix` is `nil`.
    static func namespaceURI(of text: String, root: String, prefix: String?) -> String? {
        guard let start = text.firstRange(ofBytes: "<" + root) else { return nil }
        // The tag's end and the value's quote found by bytes (each is ASCII, so where a scalar starts): by
        // characters, an SVG's start tag with its ten namespaces cost a tenth of the whole classification's
        // XML.
        let utf8 = text.utf8
        let end = utf8[start.upperBound...].firstIndex(of: UInt8(ascii: ">")) ?? utf8.endIndex
        let tag = text[start.upperBound..<end]
        let attribute = prefix.map { "xmlns:" + $0 } ?? "xmlns"
        var rest = tag[...]
        while let found = rest.firstRange(ofBytes: attribute) {
            rest = rest[found.upperBound...]
            let afterName = rest.drop(while: { $0.isWhitespace })
            guard afterName.first == "=" else { continue }
            let value = afterName.dropFirst().drop(while: { $0.isWhitespace })
            guard let quote = value.first, quote == "\"" || quote == "'" else { continue }
            let quoteByte = quote == "\"" ? UInt8(ascii: "\"") : UInt8(ascii: "'")
            let body = value.utf8.dropFirst()
            let close = body.firstIndex(of: quoteByte) ?? body.endIndex
            return String(text[body.startIndex..<close])
        }
        return nil
    }

    /// The name of the first element, past the XML declaration, processing instructions, comments
    /// and the document type declaration.
    static func rootElement(_ text: String) -> String? {
        // Text of ASCII alone (most XML's head) is read byte by byte, where a character is a byte; any other by
        // characters, as `Character`s compare (a mark after `<` makes another character).
        var bytes = text
        if let found = bytes.withUTF8({ $0.allSatisfy { $0 < 0x80 } ? rootElementOfASCII($0) : nil }) { return found }
        return rootElementByCharacters(text)
    }

    /// `rootElementByCharacters` for text whose bytes are all ASCII: the same steps on bytes. `.some(nil)` when
    /// there is no root element.
    private static func rootElementOfASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> String?? {
        // Character.isWhitespace among ASCII: tab, line feed, vertical tab, form feed, carriage return, space.
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        func starts(_ prefix: StaticString, at place: Int) -> Bool {
            let count = prefix.utf8CodeUnitCount
            return place + count <= bytes.count
                && UnsafeBufferPointer(start: prefix.utf8Start, count: count).elementsEqual(bytes[place..<(place + count)])
        }
        func find(_ needle: StaticString, from place: Int) -> Int? {
            TextAnalysis.firstOffset(of: Array(UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)), in: bytes, from: place)
        }
        var place = 0
        while true {
            while place < bytes.count, isSpace(bytes[place]) { place += 1 }
            guard starts("<", at: place) else { return .some(nil) }
            if starts("<?", at: place) {
                guard let end = find("?>", from: place) else { return .some(nil) }
                place = end + 2
            } else if starts("<!--", at: place) {
                guard let end = find("-->", from: place) else { return .some(nil) }
                place = end + 3
            } else if starts("<!", at: place) {
                guard let end = bytes[place...].firstIndex(of: UInt8(ascii: ">")) else { return .some(nil) }
                if bytes[place..<end].contains(UInt8(ascii: "[")), let close = find("]>", from: place) {
                    place = close + 2
                } else {
                    place = end + 1
                }
            } else {
                let start = place + 1
                var end = start
                while end < bytes.count, !isSpace(bytes[end]), bytes[end] != UInt8(ascii: ">"), bytes[end] != UInt8(ascii: "/") { end += 1 }
                let name = bytes[start..<end]
                guard let first = name.first, isLetter(first) || first == UInt8(ascii: "_"),
                      name.allSatisfy({ isLetter($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
                          || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ":") }),
                      name.count(where: { $0 == UInt8(ascii: ":") }) <= 1, name.last != UInt8(ascii: ":") else { return .some(nil) }
                return .some(String(decoding: name, as: UTF8.self))
            }
        }
    }

    /// The name of the first element, by characters (`rootElement`).
    private static func rootElementByCharacters(_ text: String) -> String? {
        var rest = Substring(text)
        while true {
            rest = rest.drop(while: { $0.isWhitespace })
            guard rest.hasPrefix("<") else { return nil }
            if rest.hasPrefix("<?") {
                guard let end = rest.firstRange(ofBytes: "?>") else { return nil }
                rest = rest[end.upperBound...]
            } else if rest.hasPrefix("<!--") {
                guard let end = rest.firstRange(ofBytes: "-->") else { return nil }
                rest = rest[end.upperBound...]
            } else if rest.hasPrefix("<!") {
                guard let end = rest.firstIndex(of: ">") else { return nil }
                // A DOCTYPE with an internal subset ends at "]>". (The bracket looked for before the first ">"
                // only: looked for in all the rest, a DOCTYPE without one walked the whole head, 4,096
                // characters, at every XML file.)
                if rest[..<end].contains("["), let close = rest.firstRange(ofBytes: "]>") {
                    rest = rest[close.upperBound...]
                } else {
                    rest = rest[rest.index(after: end)...]
                }
            } else {
                // An element's name (XML's Name, with at most one prefix), then the end of the name: a
                // `<https://...>` or `<user@host>` line of plain text is no element.
                let name = rest.dropFirst().prefix(while: { !$0.isWhitespace && $0 != ">" && $0 != "/" })
                guard let first = name.first, first.isLetter || first == "_",
                      name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." || $0 == ":" }),
                      name.count(where: { $0 == ":" }) <= 1, name.last != ":" else { return nil }
                let after = rest.dropFirst(name.count + 1).first
                guard after == nil || after?.isWhitespace == true || after == ">" || after == "/" else { return nil }
                return String(name)
            }
        }
    }

    /// Several lines with the same number (at least one) of commas outside quotes.
    static func isCSV(_ text: String) -> Bool {
        // Twenty lines are enough to see a table; look no further than the first 4 KiB.
        var text = text
        return text.withUTF8 { utf8 in
            // The commas outside quotes of each of the first twenty non-empty lines.
            var counts: [Int] = []
            counts.reserveCapacity(20)
            var commas = 0
            var inQuotes = false
            var lineHasBytes = false
            for byte in utf8.prefix(4096) {
                if byte == UInt8(ascii: "\n") {
                    if lineHasBytes {
                        counts.append(commas)
                        if counts.count == 20 { break }
                    }
                    commas = 0
                    inQuotes = false
                    lineHasBytes = false
                    continue
                }
                lineHasBytes = true
                if byte == UInt8(ascii: "\"") { inQuotes.toggle() } else if byte == UInt8(ascii: ","), !inQuotes { commas += 1 }
            }
            if lineHasBytes, counts.count < 20 { counts.append(commas) }
            // The last line may be cut by the sample's end.
            let complete = counts.dropLast()
            guard let first = complete.first, first >= 1, complete.count >= 2 else { return false }
            return complete.allSatisfy { $0 == first }
        }
    }
}

/// A validator for JSON that stops at the end of the sample without failing.
enum JSONCheck {
    static func isJSON(_ text: Substring, isComplete: Bool) -> Bool {
        var parser = Parser(scalars: Array(text.unicodeScalars.prefix(65_536)))
        let cut = !isComplete || text.unicodeScalars.count > 65_536
        switch parser.value(depth: 0) {
        case .valid:
            parser.skipWhitespace()
            return parser.index == parser.scalars.count || (parser.index < parser.scalars.count && isJSONLines(parser))
        case .truncated: return cut
        case .invalid: return false
        }
    }

    /// JSON Lines: another value follows after a newline.
    private static func isJSONLines(_ parser: Parser) -> Bool {
        parser.scalars[parser.index] == "{" || parser.scalars[parser.index] == "["
    }

    enum Outcome { case valid, truncated, invalid }

    struct Parser {
        let scalars: [Unicode.Scalar]
        var index = 0

        mutating func skipWhitespace() {
            while index < scalars.count, [" ", "\n", "\r", "\t"].contains(scalars[index]) { index += 1 }
        }

        mutating func value(depth: Int) -> Outcome {
            guard depth < 512 else { return .invalid }
            skipWhitespace()
            guard index < scalars.count else { return .truncated }
            switch scalars[index] {
            case "{": return container(close: "}", depth: depth, keyed: true)
            case "[": return container(close: "]", depth: depth, keyed: false)
            case "\"": return string()
            case "t": return literal("true")
            case "f": return literal("false")
            case "n": return literal("null")
            default: return number()
            }
        }

        private mutating func container(close: Unicode.Scalar, depth: Int, keyed: Bool) -> Outcome {
            index += 1
            skipWhitespace()
            guard index < scalars.count else { return .truncated }
            if scalars[index] == close { index += 1; return .valid }
            while true {
                if keyed {
                    skipWhitespace()
                    guard index < scalars.count else { return .truncated }
                    guard scalars[index] == "\"" else { return .invalid }
                    let key = string()
                    guard case .valid = key else { return key }
                    skipWhitespace()
                    guard index < scalars.count else { return .truncated }
                    guard scalars[index] == ":" else { return .invalid }
                    index += 1
                }
                let item = value(depth: depth + 1)
                guard case .valid = item else { return item }
                skipWhitespace()
                guard index < scalars.count else { return .truncated }
                if scalars[index] == "," { index += 1; continue }
                if scalars[index] == close { index += 1; return .valid }
                return .invalid
            }
        }

        private mutating func string() -> Outcome {
            index += 1
            while index < scalars.count {
                let scalar = scalars[index]
                if scalar == "\\" { index += 2; continue }
                if scalar == "\"" { index += 1; return .valid }
                if scalar.value < 0x20 { return .invalid }
                index += 1
            }
            return .truncated
        }

        private mutating func literal(_ word: String) -> Outcome {
            for expected in word.unicodeScalars {
                guard index < scalars.count else { return .truncated }
                guard scalars[index] == expected else { return .invalid }
                index += 1
            }
            return .valid
        }

        private mutating func number() -> Outcome {
            let start = index
            while index < scalars.count, "-+.eE0123456789".unicodeScalars.contains(scalars[index]) { index += 1 }
            if index == start { return .invalid }
            return index == scalars.count ? .truncated : .valid
        }
    }
}

extension StringProtocol {
    /// The first range of `needle` here, its bytes compared (`memmem`): for a needle of ASCII what
    /// `firstRange(of:)` finds, without comparing `Character`s one by one (and XML's syntax is one of code
    /// points, not of grapheme clusters: `?>` before a combining mark still ends a processing instruction).
    func firstRange(ofBytes needle: String) -> Range<Index>? {
        let offset = utf8.withContiguousStorageIfAvailable { haystack -> Int? in
            var needle = needle
            return needle.withUTF8 { needle -> Int? in
                guard !needle.isEmpty, needle.count <= haystack.count, let base = haystack.baseAddress,
                      let hit = uti_find_literal(base, haystack.count, needle.baseAddress, needle.count) else { return nil }
                return UnsafeRawPointer(base).distance(to: hit)
            }
        }
        guard let offset else { return firstRange(of: needle) }
        guard let offset else { return nil }
        let lower = utf8.index(utf8.startIndex, offsetBy: offset)
        return lower..<utf8.index(lower, offsetBy: needle.utf8.count)
    }
}
