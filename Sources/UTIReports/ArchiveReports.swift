package import FileIdentification
import FoundationEssentials
import UniformTypeIdentifiers

/// `--archive-limit NAME=VALUE`, the limits of `uti identify --archives` and `uti classify --archives`, and of
/// the service's `?archives=true` and `/rmeta`: one option, repeatable, one name per `ArchiveLimits` property.
package enum ArchiveLimitsArgument {
    /// The names, what each sets, and how its value is written.
    package static let names: [(name: String, help: String)] = [
        ("bytes", "bytes decompressed in all (a size: 8G)"),
        ("ratio", "bytes decompressed per byte of the archive, past the first MiB (a number: 100)"),
        ("members", "members in all (a number: 100000)"),
        ("depth", "archives deep: 1 opens none inside (a number: 8)"),
        ("path", "bytes of a member's path (a number: 4096)"),
        ("time", "seconds for one archive with all inside it (a number: 60)"),
        ("memory", "held in memory at once, of members opened by offset (a size: 32M)"),
        ("spool", "spooled to disk at once, of those members (a size: 1G)"),
        ("spool-dir", "where they are spooled (a directory; default $TMPDIR, else /tmp)"),
    ]

    /// The help text of the option.
    package static var help: String {
        "Limit the reading of archives' members, as NAME=VALUE (repeatable): " + names.map { "\($0.name), \($0.help)" }.joined(separator: "; ") + "."
    }

    /// The limits `arguments` set over the defaults, or what is wrong with one of them.
    package static func parse(_ arguments: [String]) -> Result<ArchiveLimits, Problem> {
        var limits = ArchiveLimits()
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "=") else {
                return .failure(Problem(description: "--archive-limit \(argument): write NAME=VALUE, NAME one of \(names.map(\.name).joined(separator: ", "))."))
            }
            let name = String(argument[..<equals]), value = String(argument[argument.index(after: equals)...])
            func count() -> Int? { Int(value).flatMap { $0 > 0 ? $0 : nil } }
            func size() -> Int? { ByteCount(argument: value).flatMap { $0.bytes > 0 ? Int($0.bytes) : nil } }
            let parsed: Bool
            switch name {
            case "bytes": parsed = size().map { limits.maxExpandedBytes = $0 } != nil
            case "ratio": parsed = count().map { limits.maxRatio = $0 } != nil
            case "members": parsed = count().map { limits.maxMembers = $0 } != nil
            case "depth": parsed = count().map { limits.maxDepth = $0 } != nil
            case "path": parsed = count().map { limits.maxPathLength = $0 } != nil
            case "time": parsed = count().map { limits.timeLimit = .seconds($0) } != nil
            case "memory": parsed = size().map { limits.memoryBudget = $0 } != nil
            case "spool": parsed = size().map { limits.spoolBudget = $0 } != nil
            case "spool-dir": parsed = !value.isEmpty && { limits.spoolDirectory = value; return true }()
            default:
                return .failure(Problem(description: "--archive-limit \(argument): no limit is called \(name); the names are \(names.map(\.name).joined(separator: ", "))."))
            }
            guard parsed else {
                let help = names.first { $0.name == name }?.help ?? ""
                return .failure(Problem(description: "--archive-limit \(argument): \(name) takes \(help), more than 0."))
            }
        }
        return .success(limits)
    }

    package struct Problem: Error, CustomStringConvertible {
        package var description: String
    }
}

/// What a record says of an archive member beyond its identification, and of an archive whose members were
/// read: the members of the JSON objects (`uti identify --json --archives`, `uti classify --archives`), and
/// the words of a text line.
package enum ArchiveReport {
    /// A member's: its depth, size, time, and encryption, and why its own reading (when it is an archive)
    /// stopped.
    package static func fields(of member: ArchiveMember) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [("depth", .integer(member.depth)), ("size", JSONValue(member.size)),
                                             ("modified", JSONValue(member.modified.map(time)))]
        if member.isEncrypted { fields.append(("encrypted", .boolean(true))) }
        if let count = member.memberCount { fields.append(("members", .integer(count))) }
        if let truncated = member.truncated { fields.append(("truncated", .string(truncated.rawValue))) }
        if let problem = member.problem { fields.append(("problem", .string(problem))) }
        return fields
    }

    /// A member's whole object under `archive` (`ARCHIVE#MEMBER`): `uti identify --json`'s object, or its path
    /// and error, then the member's fields.
    package static func object(of member: ArchiveMember, in archive: RawFilePath) -> JSONValue {
        let path = member.path(in: archive)
        var object: JSONValue
        switch member.result {
        case .success(let identification): object = IdentificationReport(identification, path: path.dataText, pathEscaped: !path.isValidUTF8).json
        case .failure(let error): object = .object([("path", .string(path.dataText)), ("error", .string(error.message))])
        }
        object.append(fields(of: member))
        return object
    }

    /// An archive's: how many members were read, and why the reading stopped early.
    package static func fields(of reading: ArchiveReading) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [("members", .integer(reading.memberCount))]
        if let format = reading.format { fields.append(("archiveFormat", .string(format))) }
        if let truncated = reading.truncated { fields.append(("truncated", .string(truncated.rawValue))) }
        if let problem = reading.problem { fields.append(("problem", .string(problem))) }
        return fields
    }

    /// What a text line adds for an archive: `[3 members]`, `[2 members, truncated: ratio]`.
    package static func words(_ reading: ArchiveReading) -> String {
        var words = "\(reading.memberCount) member" + (reading.memberCount == 1 ? "" : "s")
        if let truncated = reading.truncated { words += ", truncated: \(truncated.rawValue)" + (reading.problem.map { " (\($0))" } ?? "") }
        return " [" + words + "]"
    }

    /// What a text line adds for a member: `[encrypted]`, `[truncated: depth]`.
    package static func words(_ member: ArchiveMember) -> String {
        var words: [String] = []
        if member.isEncrypted { words.append("encrypted") }
        if let count = member.memberCount { words.append("\(count) member" + (count == 1 ? "" : "s")) }
        if let truncated = member.truncated { words.append("truncated: \(truncated.rawValue)" + (member.problem.map { " (\($0))" } ?? "")) }
        return words.isEmpty ? "" : " [" + words.joined(separator: ", ") + "]"
    }

    /// Seconds since 1970 as ISO 8601 in UTC (`2024-05-01T12:00:00Z`); past what four-digit years hold, the
    /// number of seconds.
    package static func time(_ seconds: Int64) -> String {
        let date = Date(timeIntervalSince1970: Double(seconds))
        guard ISO8601Dates.writable.contains(date) else { return String(seconds) }
        return ISO8601Dates.string(date)
    }
}

extension JSONValue {
    /// Adds members at the end of an object (nothing, to a value that is not one).
    package mutating func append(_ fields: [(String, JSONValue)]) {
        guard case .object(let members) = self else { return }
        self = .object(members + fields)
    }
}
