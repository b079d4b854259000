import UTIReports
import FileIdentification
import UniformTypeIdentifiers

/// `uti classify --summary`: the summary as a table or as JSON.
struct Tally {
    private var summary = ClassificationSummary()

    mutating func add(_ entry: ClassifiedEntry) { summary.add(entry) }

    var table: [String] {
        var lines = ["TYPE".padding(56) + "FILES".leftPadded(10) + "BYTES".leftPadded(12) + "  (of which exactly this type)"]
        for row in summary.rows {
            let name = String(repeating: "  ", count: row.depth) + row.type.identifier
            var line = name.padding(56) + Self.grouped(row.totalCount).leftPadded(10) + Self.size(row.totalBytes).leftPadded(12)
            if row.count > 0 && row.count != row.totalCount { line += "  (\(Self.grouped(row.count)), \(Self.size(row.bytes)))" }
            lines.append(line)
        }
        lines.append("\(Self.grouped(summary.entries)) entries, \(Self.size(summary.bytes)), \(Self.grouped(summary.errors)) not readable")
        return lines
    }

    var json: JSONValue {
        .object([
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
        ])
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
