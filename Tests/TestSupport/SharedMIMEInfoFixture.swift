import Foundation

/// Compiled shared-mime-info databases made for tests, as `update-mime-database` lays them out.
public enum SharedMIMEInfoFixture {
    /// The two types the crafted databases have rules for: one shared-mime-info 2.4 knows (the Commodore
    /// cartridge), one it does not (MARC records, which only libmagic names), each with a marker of its own.
    public static let rules = [("application/x-commodore-crt", "UTI-TEST-CRT"), ("application/marc", "UTI-TEST-MRC")]

    /// A data directory (what `$XDG_DATA_DIRS` lists) holding a compiled database (`mime/magic`, `types`,
    /// `version`) of the given version, with the two rules above.
    public static func dataDirectory(version: String, in directory: TemporaryDirectory) throws -> String {
        let share = try directory.makeDirectory("share-\(version)/mime")
        var magic = Array("MIME-Magic\0\n".utf8)
        for (type, value) in rules {
            magic += Array("[50:\(type)]\n>0=".utf8) + [0, UInt8(value.utf8.count)] + Array(value.utf8) + [UInt8(ascii: "\n")]
        }
        try Data(magic).write(to: URL(filePath: share + "/magic"))
        try Data("application/x-commodore-crt\napplication/marc\n".utf8).write(to: URL(filePath: share + "/types"))
        try Data("\(version)\n".utf8).write(to: URL(filePath: share + "/version"))
        return directory.file("share-\(version)")
    }

    /// Three files: a real Commodore 64 cartridge header, and one with each crafted marker.
    public static func samples(in directory: TemporaryDirectory) throws -> [String] {
        let padding = [UInt8](repeating: 0, count: 64)
        return [
            try directory.write(Array("C64 CARTRIDGE   ".utf8) + padding, to: "cartridge"),
            try directory.write(Array("UTI-TEST-CRT".utf8) + padding, to: "crafted-cartridge"),
            try directory.write(Array("UTI-TEST-MRC".utf8) + padding, to: "crafted-marc"),
        ]
    }
}
