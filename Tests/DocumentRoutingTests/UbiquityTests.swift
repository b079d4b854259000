import Foundation
import DocumentRouting
import TestSupport
import Testing
import UniformTypeIdentifiers
#if canImport(Glibc)
import Glibc
#endif

/// iCloud containers and the key-value store through the library: declaration, sharing, layout, lookup, the
/// storage view, the store's model and limits. (Syncing: UbiquitySyncTests; the command line: UbiquityCommandTests.)
@Suite("iCloud containers and the key-value store, in the library")
struct UbiquityTests {
    static let container = "iCloud.com.example.notes"

    /// An Info.plist with iCloud entitlements, written in the workspace; its path.
    static func manifest(_ workspace: Workspace, _ identifier: String, containers: [String] = [container], legacy: [String] = [],
                         store: String? = nil, team: String? = nil, extra: [String: Any] = [:]) throws -> String {
        var plist: [String: Any] = ["CFBundleIdentifier": identifier]
        if !containers.isEmpty { plist["com.apple.developer.icloud-container-identifiers"] = containers }
        if !legacy.isEmpty { plist["com.apple.developer.ubiquity-container-identifiers"] = legacy }
        if let store { plist["com.apple.developer.ubiquity-kvstore-identifier"] = store }
        if let team { plist["com.apple.developer.team-identifier"] = team }
        plist.merge(extra) { $1 }
        let path = workspace.path + "/apps/\(identifier).plist"
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0).write(to: URL(filePath: path))
        return path
    }

    static func mode(_ path: String) -> mode_t? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return status.st_mode & 0o777
    }

    @Test("an app's containers are made under Mobile Documents with Apple's names (. as ~), private, with Documents/; the first is the primary")
    func layoutAndLookup() throws {
        let workspace = try Workspace()
        try workspace.registry.register(appAt: try Self.manifest(workspace, "com.example.notes", containers: [Self.container],
                                                                 legacy: ["ABCDE12345.com.example.notes", Self.container], team: "ABCDE12345"))
        let root = workspace.registry.root
        let primary = root + "/Mobile Documents/iCloud~com~example~notes"
        #expect(Self.mode(primary) == 0o700 && Self.mode(primary + "/Documents") == 0o700 && Self.mode(root + "/Mobile Documents") == 0o700)
        #expect(try workspace.registry.path(ofUbiquityContainer: nil, for: "com.example.notes") == primary)
        #expect(try workspace.registry.path(ofUbiquityContainer: "ABCDE12345.com.example.notes", for: "com.example.NOTES")
            == root + "/Mobile Documents/ABCDE12345~com~example~notes")
        let app = try workspace.registry.app("com.example.notes")
        #expect(app.manifest.ubiquityContainers == [Self.container, "ABCDE12345.com.example.notes"], "listed once each, the iCloud key's first")
        let containers = try workspace.registry.ubiquityContainers()
        #expect(containers.map(\.identifier) == [Self.container, "ABCDE12345.com.example.notes"])
        #expect(containers.first?.members == ["com.example.notes"] && containers.first?.path == primary)
    }

    @Test("asking for a container the app does not name, or from an app that names none, is refused with the reason")
    func lookupRefusals() throws {
        let workspace = try Workspace()
        try workspace.registry.register(appAt: try Self.manifest(workspace, "com.example.notes"))
        try workspace.registry.register(appAt: try Self.manifest(workspace, "com.example.plain", containers: []))
        for (container, app, kind) in [("iCloud.com.example.other", "com.example.notes", RegistryError.Kind.notAUbiquityMember),
                                       (nil, "com.example.plain", .noUbiquityContainer), ("../../etc", "com.example.notes", .invalidUbiquityIdentifier)] {
            do {
                _ = try workspace.registry.path(ofUbiquityContainer: container, for: app)
                Issue.record("\(app) was given \(container ?? "a container")")
            } catch {
                #expect(error.kind == kind, "\(error)")
            }
        }
    }

    @Test("hostile container and store identifiers refuse the manifest, naming the key, and make nothing", arguments: [
        "iCloud.com.example/../../x", "..", "iCloud..x", "iCloud.com.example/x", "iCloud.com\u{0}x", "$(TeamIdentifierPrefix)com.example.notes",
        "iCloud.com.example." , "nodots", String(repeating: "a.", count: 150) + "x",
    ])
    func hostileIdentifiers(identifier: String) throws {
        for (containers, store, key) in [([identifier], nil as String?, "com.apple.developer.icloud-container-identifiers[0]"),
                                          ([], identifier, "com.apple.developer.ubiquity-kvstore-identifier")] {
            let workspace = try Workspace()
            let plist = try Self.manifest(workspace, "com.example.notes", containers: containers, store: store)
            do throws(RegistryError) {
                try workspace.registry.register(appAt: plist)
                Issue.record("'\(identifier)' was accepted")
            } catch {
                #expect(error.kind == .manifest && error.reason.manifestError?.key == key, "\(error)")
                #expect(error.description.contains("not an iCloud identifier"), "\(error)")
            }
            #expect(!FileManager.default.fileExists(atPath: workspace.registry.root + "/Mobile Documents"))
            #expect(!FileManager.default.fileExists(atPath: workspace.registry.root + "/registry.json"))
        }
    }

    @Test("two apps of one publisher share a container; another publisher's app is refused; a team's container is its team's")
    func sharing() throws {
        let workspace = try Workspace()
        try workspace.registry.register(appAt: try Self.manifest(workspace, "com.example.notes"))
        try workspace.registry.register(appAt: try Self.manifest(workspace, "com.example.reader"))
        #expect(try workspace.registry.ubiquityContainers().first?.members == ["com.example.notes", "com.example.reader"])
        #expect(try workspace.registry.path(ofUbiquityContainer: nil, for: "com.example.reader")
            == workspace.registry.root + "/Mobile Documents/iCloud~com~example~notes")
        let intruder = try Self.manifest(workspace, "org.intruder.app")
        do throws(RegistryError) {
            try workspace.registry.register(appAt: intruder)
            Issue.record("another publisher's app joined the container")
        } catch {
            #expect(error.kind == .manifest && error.description.contains("not this app's to use"), "\(error)")
        }
        // A container made by a team's app is joined only with that team's identifier.
        try workspace.registry.register(appAt: try Self.manifest(workspace, "com.example.team", containers: ["ABCDE12345.shared"], team: "ABCDE12345"))
        let other = try Self.manifest(workspace, "com.example.other", containers: ["ABCDE12345.shared"], team: "ZZZZZ99999")
        do throws(RegistryError) {
            try workspace.registry.register(appAt: other)
            Issue.record("another team's app joined")
        } catch {
            #expect(error.description.contains("belongs to team ABCDE12345"), "\(error)")
        }
        try workspace.registry.register(appAt: try Self.manifest(workspace, "org.partner.app", containers: ["ABCDE12345.shared"], team: "ABCDE12345"))
    }

    @Test("a shared container stays while a member remains or kept its data, and goes with the last member's data")
    func removal() throws {
        let workspace = try Workspace()
        try workspace.registry.register(appAt: try Self.manifest(workspace, "com.example.notes", store: "com.example.notes"))
        try workspace.registry.register(appAt: try Self.manifest(workspace, "com.example.reader", store: "com.example.notes"))
        let container = workspace.registry.root + "/Mobile Documents/iCloud~com~example~notes"
        let store = workspace.registry.root + "/SyncedPreferences/com.example.notes"
        try Data("kept".utf8).write(to: URL(filePath: container + "/Documents/a.txt"))
        try workspace.registry.keyValueStore(for: "com.example.notes").set(.string("x"), forKey: "k")
        try workspace.registry.unregister("com.example.notes", deleteData: true)
        #expect(FileManager.default.fileExists(atPath: container + "/Documents/a.txt") && FileManager.default.fileExists(atPath: store + "/values.plist"))
        // Unregistered with its data kept: the container stays for it.
        try workspace.registry.unregister("com.example.reader", deleteData: false)
        #expect(FileManager.default.fileExists(atPath: container + "/Documents/a.txt"))
        #expect(try workspace.registry.ubiquityContainers().first?.keptBy == ["com.example.reader"])
        try workspace.registry.register(appAt: try Self.manifest(workspace, "com.example.reader", store: "com.example.notes"))
        try workspace.registry.unregister("com.example.reader", deleteData: true)
        #expect(!FileManager.default.fileExists(atPath: container) && !FileManager.default.fileExists(atPath: store))
        #expect(try workspace.registry.ubiquityContainers().isEmpty)
        // Nothing is left of the removal either.
        let left = try FileManager.default.contentsOfDirectory(atPath: workspace.registry.root + "/Mobile Documents")
        #expect(left.isEmpty, "\(left)")
    }

    @Test("the storage view: each document under Documents/, a package counted once with what is in it, the rest as data")
    func usage() throws {
        let workspace = try Workspace()
        try workspace.registry.register(appAt: try Self.manifest(workspace, "com.example.notes"))
        let container = workspace.registry.root + "/Mobile Documents/iCloud~com~example~notes"
        let manager = FileManager.default
        try manager.createDirectory(atPath: container + "/Documents/Trip/Slides.key/Data", withIntermediateDirectories: true)
        try Data(repeating: 1, count: 1_000).write(to: URL(filePath: container + "/Documents/Trip/Slides.key/Data/image.png"))
        try Data("<?xml version=\"1.0\"?><x/>".utf8).write(to: URL(filePath: container + "/Documents/Trip/Slides.key/Index.xml"))
        try Data(pngBytes).write(to: URL(filePath: container + "/Documents/photo.png"))
        try Data("note\n".utf8).write(to: URL(filePath: container + "/Documents/Trip/notes.txt"))
        try manager.createDirectory(atPath: container + "/Library/Caches", withIntermediateDirectories: true)
        try Data(repeating: 0, count: 300).write(to: URL(filePath: container + "/Library/state.db"))
        try Data(repeating: 0, count: 20).write(to: URL(filePath: container + "/Library/Caches/c"))
        try manager.createSymbolicLink(atPath: container + "/Documents/link", withDestinationPath: "/etc/passwd")
        let usage = try #require(try workspace.registry.ubiquityUsage(for: "com.example.notes").first)
        #expect(usage.container == Self.container)
        #expect(usage.documents.map(\.path) == ["Documents/Trip/Slides.key", "Documents/Trip/notes.txt", "Documents/link", "Documents/photo.png"])
        let slides = usage.documents[0]
        #expect(slides.isPackage && slides.type.conforms(to: .package) && slides.size == 1_000 + 25, "\(slides)")
        #expect(usage.documents[3].type == .png && usage.documents[3].size == pngBytes.count)
        #expect(usage.documents[2].type == .symbolicLink)
        #expect(usage.dataSize == 320 && usage.totalSize == 320 + 1_025 + pngBytes.count + 5 + usage.documents[2].size)
    }

    @Test("the key-value store keeps every property-list value, in one private file replaced atomically")
    func storeValues() throws {
        let workspace = try Workspace()
        try workspace.registry.register(appAt: try Self.manifest(workspace, "com.example.notes", store: "ABCDE12345.com.example.notes", team: "ABCDE12345"))
        let store = try workspace.registry.keyValueStore(for: "com.example.notes")
        let values: [String: UbiquitousKeyValueStore.Value] = [
            "s": .string("héllo <&> \r"), "i": .integer(-42), "r": .real(0.125), "b": .boolean(true), "d": .data([0, 255, 1]),
            "t": .date(786_000_000), "a": .array([.string("x"), .integer(1)]), "m": .dictionary(["k": .array([]), "e": .dictionary([:])]),
        ]
        for (key, value) in values { try store.set(value, forKey: key) }
        #expect(try store.values() == values)
        #expect(try store.value(forKey: "m") == values["m"])
        #expect(store.path == workspace.registry.root + "/SyncedPreferences/ABCDE12345.com.example.notes/values.plist")
        #expect(Self.mode(store.path) == 0o600)
        #expect(try store.removeValue(forKey: "s") && !(try store.removeValue(forKey: "s")))
        #expect(try store.value(forKey: "s") == nil)
        // What Foundation reads from the file is the same.
        let read = try PropertyListSerialization.propertyList(from: Data(contentsOf: URL(filePath: store.path)), format: nil) as? [String: Any]
        #expect((read?["values"] as? [String: Any])?["i"] as? Int == -42)
        do {
            _ = try workspace.registry.keyValueStore(for: "com.example.nothing")
            Issue.record("an app not registered was given a store")
        } catch {
            #expect(error.kind == .notRegistered)
        }
    }

    @Test("a date is kept to the second, as the store's file holds it: one set with a fraction, or read from another machine's binary store, reads back the same after a write")
    func storeDatesWholeSeconds() throws {
        let workspace = try Workspace()
        try workspace.registry.register(appAt: try Self.manifest(workspace, "com.example.notes", store: "com.example.notes"))
        let store = try workspace.registry.keyValueStore(for: "com.example.notes")
        try store.set(.array([.date(786_000_000.75), .date(-0.5)]), forKey: "t")
        #expect(try store.value(forKey: "t") == .array([.date(786_000_000), .date(-1)]))
        // Another machine's store, as a binary property list with a date 153 µs past a second.
        let plist: [String: Any] = ["values": ["k": Date(timeIntervalSinceReferenceDate: 0.000_152_587_890_625)],
                                    "modified": ["k": 1.0], "removed": [String: Any]()]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0).write(to: URL(filePath: store.path))
        #expect(try store.value(forKey: "k") == .date(0))
        try store.set(.string("v"), forKey: "other")
        #expect(try store.value(forKey: "k") == .date(0))
        // A date past the year 9999 (a binary property list holds one; XML's four-digit years do not) is refused.
        let before = try Data(contentsOf: URL(filePath: store.path))
        for seconds in [3e11, -7e10] {
            do {
                try store.set(.dictionary(["when": .date(seconds)]), forKey: "far")
                Issue.record("a date \(seconds) s from 2001 was written")
            } catch {
                #expect(error.kind == .unreadable && "\(error)".contains("years 1 to 9999"), "\(error)")
            }
        }
        #expect(try Data(contentsOf: URL(filePath: store.path)) == before)
    }

    @Test("a write past a limit (1,024 keys, 64-byte keys, 1 MB in all) is refused, naming it, and nothing is written")
    func storeLimits() throws {
        let workspace = try Workspace()
        try workspace.registry.register(appAt: try Self.manifest(workspace, "com.example.notes", store: "com.example.notes"))
        let store = try workspace.registry.keyValueStore(for: "com.example.notes")
        // A full store, written as another machine's sync would have (one set per key would write 1,024 files).
        try store.set(.integer(0), forKey: "key0")
        let keys = (0..<UbiquitousKeyValueStore.maximumKeyCount).map { "key\($0)" }
        let full: [String: Any] = ["values": Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) }),
                                   "modified": Dictionary(uniqueKeysWithValues: keys.map { ($0, 1.0) }), "removed": [String: Any]()]
        try PropertyListSerialization.data(fromPropertyList: full, format: .xml, options: 0).write(to: URL(filePath: store.path))
        #expect(try store.values().count == UbiquitousKeyValueStore.maximumKeyCount)
        let before = try Data(contentsOf: URL(filePath: store.path))
        func refused(_ kind: KeyValueStoreError.Kind, _ write: () throws(KeyValueStoreError) -> Void) {
            do {
                try write()
                Issue.record("\(kind) was not refused")
            } catch {
                #expect(error.kind == kind && error.path == store.path, "\(error)")
            }
            #expect((try? Data(contentsOf: URL(filePath: store.path))) == before, "\(kind): the file changed")
        }
        refused(.tooManyKeys) { () throws(KeyValueStoreError) in try store.set(.boolean(true), forKey: "one-more") }
        refused(.keyTooLong) { () throws(KeyValueStoreError) in try store.set(.boolean(true), forKey: String(repeating: "é", count: 33)) }
        refused(.keyTooLong) { () throws(KeyValueStoreError) in try store.set(.boolean(true), forKey: "") }
        try store.set(.integer(5), forKey: "key0")  // replacing a key is no new key
        let replaced = try Data(contentsOf: URL(filePath: store.path))
        #expect(replaced != before)
        let sizeBefore = try Data(contentsOf: URL(filePath: store.path))
        do {
            try store.set(.data([UInt8](repeating: 7, count: UbiquitousKeyValueStore.maximumTotalSize)), forKey: "key1")
            Issue.record("1 MB more was accepted")
        } catch {
            #expect(error.kind == .tooLarge, "\(error)")
        }
        #expect(try Data(contentsOf: URL(filePath: store.path)) == sizeBefore)
        // A 64-byte key of UTF-8 is at the limit, and accepted once there is room.
        _ = try store.removeValue(forKey: "key2")
        try store.set(.boolean(false), forKey: String(repeating: "é", count: 32))
    }

    @Test("what a value costs is what it costs in the file: a million empty strings are past 1 MB; a value too deep for the store's reader is refused; nothing is written")
    func storeCostsAsEncoded() throws {
        let workspace = try Workspace()
        try workspace.registry.register(appAt: try Self.manifest(workspace, "com.example.notes", store: "com.example.notes"))
        let store = try workspace.registry.keyValueStore(for: "com.example.notes")
        try store.set(.string("v"), forKey: "k")
        let before = try Data(contentsOf: URL(filePath: store.path))
        let empties = UbiquitousKeyValueStore.Value.array(Array(repeating: .string(""), count: 900_000))
        #expect(empties.size == 900_000 * UbiquitousKeyValueStore.Value.elementOverhead)
        do {
            try store.set(empties, forKey: "empties")
            Issue.record("900,000 empty strings were accepted")
        } catch {
            #expect(error.kind == .tooLarge, "\(error)")
        }
        // 64 arrays within one another: a value the property-list reader takes (`kv set --plist` reads it), but
        // not inside the store's file, where it sits two levels down.
        let levels = 64
        let xml = "<plist>" + String(repeating: "<array>", count: levels) + "<true/>" + String(repeating: "</array>", count: levels) + "</plist>"
        let deep = try UbiquitousKeyValueStore.Value(propertyList: Array(xml.utf8))
        do {
            try store.set(deep, forKey: "deep")
            Issue.record("a value the store could not read back was written")
        } catch {
            #expect(error.kind == .unreadable && error.path == store.path, "\(error)")
        }
        #expect(try Data(contentsOf: URL(filePath: store.path)) == before)
        #expect(try store.values() == ["k": .string("v")])
    }

    @Test("a local write counts as later than what the store holds for its key, even a time from a clock that ran ahead")
    func localWriteIsLater() throws {
        let workspace = try Workspace()
        try workspace.registry.register(appAt: try Self.manifest(workspace, "com.example.notes", store: "com.example.notes"))
        let store = try workspace.registry.keyValueStore(for: "com.example.notes")
        try store.set(.string("v"), forKey: "k")
        let plist: [String: Any] = ["values": ["k": "ahead"], "modified": ["k": 1e300], "removed": ["r": 1e300]]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0).write(to: URL(filePath: store.path))
        try store.set(.string("now"), forKey: "k")
        try store.set(.string("again"), forKey: "r")
        let read = try PropertyListSerialization.propertyList(from: Data(contentsOf: URL(filePath: store.path)), format: nil) as? [String: Any]
        let times = read?["modified"] as? [String: Double] ?? [:]
        let now = Date().timeIntervalSince1970
        #expect(try store.values() == ["k": .string("now"), "r": .string("again")])
        #expect(times.values.allSatisfy { $0 <= now + 1 }, "\(times)")
    }

    @Test("a removed key in a store is checked like a live one: a 65-byte key there refuses the store, naming it")
    func removedKeysChecked() throws {
        let workspace = try Workspace()
        try workspace.registry.register(appAt: try Self.manifest(workspace, "com.example.notes", store: "com.example.notes"))
        let store = try workspace.registry.keyValueStore(for: "com.example.notes")
        try store.set(.string("v"), forKey: "k")
        let plist: [String: Any] = ["values": [String: Any](), "modified": [String: Any](), "removed": [String(repeating: "k", count: 65): 1.0]]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0).write(to: URL(filePath: store.path))
        do {
            _ = try store.values()
            Issue.record("a 65-byte removed key was read")
        } catch {
            #expect(error.kind == .keyTooLong && error.path == store.path, "\(error)")
        }
    }

    @Test("a store file edited by hand into garbage is refused with the file named, and nothing is changed", arguments: [
        "garbage", "<plist><array/></plist>", "<plist><dict><key>values</key><string>x</string></dict></plist>",
        "<plist><dict><key>modified</key><dict><key>k</key><string>yesterday</string></dict></dict></plist>",
    ])
    func garbageStore(contents: String) throws {
        let workspace = try Workspace()
        try workspace.registry.register(appAt: try Self.manifest(workspace, "com.example.notes", store: "com.example.notes"))
        let store = try workspace.registry.keyValueStore(for: "com.example.notes")
        try store.set(.string("v"), forKey: "k")
        try Data(contents.utf8).write(to: URL(filePath: store.path))
        for attempt in 0..<3 {
            do {
                switch attempt {
                case 0: _ = try store.values()
                case 1: try store.set(.string("w"), forKey: "k")
                default: _ = try store.removeValue(forKey: "k")
                }
                Issue.record("garbage was read")
            } catch {
                #expect(error.kind == .corrupt && error.path == store.path, "\(error)")
            }
            #expect(try String(contentsOf: URL(filePath: store.path), encoding: .utf8) == contents)
        }
    }
}
