import Foundation
import AppContainers
import ContainerSync
import ContainerTestSupport
import TestSupport
import Testing
import UniformTypeIdentifiers
#if canImport(Glibc)
import Glibc
#endif

/// The key-value store through the library: its model, its limits, its file. (Syncing: UbiquitySyncTests; the
/// command line: UbiquityCommandTests.)
@Suite("The key-value store, in the library")
struct KeyValueStoreTests {
    @Test("the key-value store keeps every property-list value, in one private file replaced atomically")
    func storeValues() throws {
        let workspace = try Workspace()
        try workspace.registry.register(appAt: try workspace.iCloudManifest("com.example.notes", store: "ABCDE12345.com.example.notes", team: "ABCDE12345"))
        let store = try workspace.registry.keyValueStore(for: "com.example.notes")
        let values: [String: UbiquitousKeyValueStore.Value] = [
            "s": .string("héllo <&> \r"), "i": .integer(-42), "r": .real(0.125), "b": .boolean(true), "d": .data([0, 255, 1]),
            "t": .date(786_000_000), "a": .array([.string("x"), .integer(1)]), "m": .dictionary(["k": .array([]), "e": .dictionary([:])]),
        ]
        for (key, value) in values { try store.set(value, forKey: key) }
        #expect(try store.values() == values)
        #expect(try store.value(forKey: "m") == values["m"])
        #expect(store.path == workspace.registry.root + "/SyncedPreferences/ABCDE12345.com.example.notes/values.plist")
        #expect(Workspace.mode(store.path) == 0o600)
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
        try workspace.registry.register(appAt: try workspace.iCloudManifest("com.example.notes", store: "com.example.notes"))
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
        try workspace.registry.register(appAt: try workspace.iCloudManifest("com.example.notes", store: "com.example.notes"))
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
        try workspace.registry.register(appAt: try workspace.iCloudManifest("com.example.notes", store: "com.example.notes"))
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
        try workspace.registry.register(appAt: try workspace.iCloudManifest("com.example.notes", store: "com.example.notes"))
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
        try workspace.registry.register(appAt: try workspace.iCloudManifest("com.example.notes", store: "com.example.notes"))
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
        try workspace.registry.register(appAt: try workspace.iCloudManifest("com.example.notes", store: "com.example.notes"))
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
