import UTIReports
import FileIdentification
import UniformTypeIdentifiers

/// `uti classify --summary`: the summary as a table or as JSON.
struct Tally {
    private var summary = ClassificationSummary()
    /// With --pronom: files and bytes per PRONOM format and version (the best match; "" for none).
    private var formats: [String: (name: String, version: String, count: Int, bytes: Int)] = [:]
    var pronom = false

    mutating func add(_ entry: ClassifiedEntry) {
        summary.add(entry)
        guard pronom, let identification = entry.identification, identification.pronom != nil else { return }
        let best = identification.pronom?.matches.first
        let key = best?.puid ?? ""
        let size = entry.size ?? 0
        if let known = formats[key] {
            formats[key] = (known.name, known.version, known.count + 1, known.bytes + size)
        } else {
            formats[key] = (best?.name ?? "(no PRONOM format)", best?.version ?? "", 1, size)
        }
    }

    /// The formats by files, most first, then by PUID.
    private var formatRows: [(puid: String, name: String, version: String, count: Int, bytes: Int)] {
        formats.map { ($0.key, $0.value.name, $0.value.version, $0.value.count, $0.value.bytes) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.puid < $1.puid }
    }

    var table: [String] {
        var lines = ["TYPE".padding(56) + "FILES".leftPadded(10) + "BYTES".leftPadded(12) + "  (of which exactly this type)"]
        for row in summary.rows {
            let name = String(repeating: "  ", count: row.depth) + row.type.identifier
            var line = name.padding(56) + Self.grouped(row.totalCount).leftPadded(10) + Self.size(row.totalBytes).leftPadded(12)
            if row.count > 0 && row.count != row.totalCount { line += "  (\(Self.grouped(row.count)), \(Self.size(row.bytes)))" }
            lines.append(line)
        }
        lines.append("\(Self.grouped(summary.entries)) entries, \(Self.size(summary.bytes)), \(Self.grouped(summary.errors)) not readable")
        if pronom {
            lines += ["", "PUID".padding(14) + "FORMAT".padding(52) + "VERSION".padding(14) + "FILES".leftPadded(10) + "BYTES".leftPadded(12)]
            for row in formatRows {
                lines.append((row.puid.isEmpty ? "-" : row.puid).padding(14) + String(row.name.prefix(50)).padding(52)
                             + String(row.version.prefix(12)).padding(14) + Self.grouped(row.count).leftPadded(10) + Self.size(row.bytes).leftPadded(12))
            }
        }
        return lines
    }

    var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("entries", .integer(summary.entries)),
            ("bytes", .integer(summary.bytes)),
            ("errors", .integer(summary.errors)),
            ("types", .array(summary.rows.map { row in
                .object([
                    ("identifier", .string(row.type.identifier)),
                    ("description", JSONValue(row.type.localizedDescription)),
                    ("parent", JSONValue(row.parent?.identifier)),
                    ("depth", .integer(row.depth)),
                    ("count", .integer(row.count)),
                    ("bytes", .integer(row.bytes)),
                    ("totalCount", .integer(row.totalCount)),
                    ("totalBytes", .integer(row.totalBytes)),
                ])
            })),
        ]
        if pronom {
            members.append(("formats", .array(formatRows.map { row in
                .object([("puid", row.puid.isEmpty ? .null : .string(row.puid)), ("name", .string(row.name)), ("version", .string(row.version)),
                         ("count", .integer(row.count)), ("bytes", .integer(row.bytes))])
            })))
        }
        return .object(members)
    }

    /// 1,204
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result += "," }
            result.append(digit)
        }
        return result
    }

    /// `17.5 MiB`: the one byte-count format of the command line (`ByteCount.describe`, powers of 1,024).
    static func size(_ bytes: Int) -> String {
        ByteCount.describe(Int64(bytes))
    }
}
