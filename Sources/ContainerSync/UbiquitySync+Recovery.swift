internal import AppContainers
internal import SystemCalls
internal import SystemPackage
internal import UniformTypeIdentifiers

/// What a run of rclone that died (killed, or the machine lost) was about to change: the listings of both
/// sides it wrote before its first transfer (`<name>.path1.lst-new` and `.path2.lst-new`, rclone 1.60's
/// bisync), set aside by the next sync as `.lst-dead` until that container's sync is done.
///
/// A member of a conflict pair whose size or time differs from what its side held before the dead run was
/// written during it: a copy that run made, perhaps cut short (rclone 1.60 writes in place). Only such a
/// copy, a prefix of the other member that the dead run did not write, is taken as cut short
/// (`ConflictNames.resolvePairs`); any other pair is a conflict like any other.
struct DeadRunListings {
    /// A file's size and modification time as a listing gives them.
    struct Entry: Equatable {
        var size: Int
        var seconds: Int64
    }

    /// Path1 (this machine) and Path2 (the remote): path in the container → entry.
    var sides: [[String: Entry]]

    static let newSuffix = ".lst-new"
    static let deadSuffix = ".lst-dead"
    /// The most bytes read of one listing (rclone's line per file: hundreds of thousands of files).
    static let sizeLimit = 1 << 30

    /// The listings set aside in `workdir`, `nil` when there are none (no run died there).
    init?(workdir: FileDescriptor) {
        let names = ((try? workdir.directoryEntries()) ?? []).map { String(decoding: $0, as: UTF8.self) }
        var sides: [[String: Entry]] = [[:], [:]]
        var found = false
        for name in names where name.hasSuffix(Self.deadSuffix) {
            let side = name.hasSuffix(".path1" + Self.deadSuffix) ? 0 : name.hasSuffix(".path2" + Self.deadSuffix) ? 1 : -1
            guard side >= 0, let bytes = try? RegularFile.read(name, relativeTo: workdir, limit: Self.sizeLimit) else { continue }
            found = true
            for line in bytes.split(separator: UInt8(ascii: "\n")) {
                if let (path, entry) = Self.parse(line) { sides[side][path] = entry }
            }
        }
        guard found else { return nil }
        self.sides = sides
    }

    /// Sets the dead run's new listings aside (replacing older ones), for `init(workdir:)`.
    static func setAside(in workdir: FileDescriptor, names: [String]) {
        for name in names where name.hasSuffix(newSuffix) {
            let dead = String(name.dropLast(newSuffix.count)) + deadSuffix
            try? workdir.rename(name, to: workdir, as: dead)
        }
    }

    /// Forgets them: the container's sync after the dead run is done.
    static func discard(in workdir: FileDescriptor) {
        for name in (try? workdir.directoryEntries()) ?? [] where name.count > deadSuffix.utf8.count && name.suffix(deadSuffix.utf8.count).elementsEqual(deadSuffix.utf8) {
            try? workdir.remove(PathBytes(name))
        }
    }

    /// Whether the dead run wrote the file `status` describes, on `side` (0: here, 1: the remote), at `path`:
    /// it had no such file before, or another size or time (to the second: some remotes keep no more).
    func wrote(_ path: String, side: Int, status: Stat) -> Bool {
        guard let before = sides[side][path] else { return true }
        return before.size != Int(status.size) || abs(before.seconds - Int64(status.st_mtim.tv_sec)) > 1
    }

    /// One listing line, `- <size> <hash> <id> <time> "<path>"` (the path as Go's `%q` writes it); `nil` for
    /// the header and anything else.
    static func parse(_ line: ArraySlice<UInt8>) -> (String, Entry)? {
        guard let quote = line.firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        let fields = line[..<quote].split(separator: UInt8(ascii: " "))
        guard fields.count == 5, let size = Int(String(decoding: fields[1], as: UTF8.self)), size >= 0,
              let seconds = secondsSince1970(fields[4]), let path = goUnquoted(line[quote...]) else { return nil }
        return (path, Entry(size: size, seconds: seconds))
    }

    /// `2026-11-26T21:54:16.241755375+0000` as whole seconds since 1970.
    static func secondsSince1970(_ text: ArraySlice<UInt8>) -> Int64? {
        ISO8601Dates.rcloneSeconds(String(decoding: text, as: UTF8.self))
    }

    /// A string quoted as Go's `%q` writes one (`"a\"b\n\u00e9\xff"`), its bytes as they were; `nil` when it
    /// is not one.
    static func goUnquoted(_ text: ArraySlice<UInt8>) -> String? {
        var bytes = text
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\"") else { return nil }
        bytes = bytes.dropFirst().dropLast()
        var result: [UInt8] = []
        var index = bytes.startIndex
        func hex(_ count: Int) -> UInt32? {
            guard index + count <= bytes.endIndex else { return nil }
            var value: UInt32 = 0
            for byte in bytes[index..<(index + count)] {
                guard let digit = UInt32(String(UnicodeScalar(byte)), radix: 16) else { return nil }
                value = value * 16 + digit
            }
            index += count
            return value
        }
        while index < bytes.endIndex {
            let byte = bytes[index]
            index += 1
            guard byte == UInt8(ascii: "\\") else {
                guard byte != UInt8(ascii: "\"") else { return nil }
                result.append(byte)
                continue
            }
            guard index < bytes.endIndex else { return nil }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "a"): result.append(0x07)
            case UInt8(ascii: "b"): result.append(0x08)
            case UInt8(ascii: "f"): result.append(0x0C)
            case UInt8(ascii: "n"): result.append(0x0A)
            case UInt8(ascii: "r"): result.append(0x0D)
            case UInt8(ascii: "t"): result.append(0x09)
            case UInt8(ascii: "v"): result.append(0x0B)
            case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"): result.append(escape)
            case UInt8(ascii: "x"):
                guard let value = hex(2) else { return nil }
                result.append(UInt8(value))
            case UInt8(ascii: "u"), UInt8(ascii: "U"):
                guard let value = hex(escape == UInt8(ascii: "u") ? 4 : 8), let scalar = Unicode.Scalar(value) else { return nil }
                result += Array(String(scalar).utf8)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                let digits = [escape] + Array(bytes[index..<min(index + 2, bytes.endIndex)])
                guard digits.count == 3, digits.allSatisfy({ (0x30...0x37).contains($0) }) else { return nil }
                index += 2
                let value = digits.reduce(0) { $0 * 8 + Int($1 - 0x30) }
                guard value <= 0xFF else { return nil }
                result.append(UInt8(value))
            default:
                return nil
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
