import Foundation
import AppContainers
import ContainerSync
import ContainerTestSupport
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The key-value store's sync through the library, with real rclone and a local remote: what a merge may
/// write (the store's limits hold on every path that writes it), times from the future, and one sync state
/// for each remote however it is spelled. (Containers' sync and crashes: UbiquityCommandTests.)
@Suite("Syncing the key-value store, in the library", .enabled(if: Tools.has("rclone"), "needs rclone (apt-get install rclone)"))
struct UbiquitySyncTests {
    static let app = "com.example.notes"
    static let storeIdentifier = "com.example.notes"

    /// Two machines (two registry roots) with the app registered, and a local remote between them.
    final class Machines {
        let workspace: Workspace
        let registries: [Registry]
        let remote: String

        init() throws {
            workspace = try Workspace()
            let manifest = try workspace.iCloudManifest(UbiquitySyncTests.app, containers: [], store: UbiquitySyncTests.storeIdentifier)
            registries = [Registry(root: workspace.path + "/A"), Registry(root: workspace.path + "/B")]
            for registry in registries { try registry.register(appAt: manifest) }
            remote = workspace.path + "/remote"
        }

        func store(_ machine: Int) throws -> UbiquitousKeyValueStore { try registries[machine].keyValueStore(for: UbiquitySyncTests.app) }

        @discardableResult
        func sync(_ machine: Int, remote: String? = nil) throws(SyncError) -> UbiquitySync.Summary {
            try UbiquitySync(registry: registries[machine]).sync(UbiquitySyncTests.app, options: .init(remote: remote ?? self.remote, rcloneConfiguration: "/dev/null"))
        }

        /// The remote's store file.
        var remoteStore: String { remote + "/SyncedPreferences/" + UbiquitySyncTests.storeIdentifier + ".plist" }

        /// Writes a store file (values, their times, removals) where `path` says, as Foundation writes one.
        func writeStore(_ path: String, values: [String: Any], modified: [String: Double], removed: [String: Double] = [:],
                        format: PropertyListSerialization.PropertyListFormat = .xml) throws {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let plist: [String: Any] = ["values": values, "modified": modified, "removed": removed]
            try PropertyListSerialization.data(fromPropertyList: plist, format: format, options: 0).write(to: URL(filePath: path))
        }
    }

    /// `count` keys named `prefix0`... set at once, as a store file (one `set` per key would write the file each time).
    static func keys(_ prefix: String, _ count: Int) -> (values: [String: Any], modified: [String: Double]) {
        let keys = (0..<count).map { "\(prefix)\($0)" }
        let now = Date().timeIntervalSince1970
        return (Dictionary(uniqueKeysWithValues: keys.map { ($0, $0) }), Dictionary(uniqueKeysWithValues: keys.map { ($0, now - 60) }))
    }

    @Test("two machines of 601 keys each: the merge would hold 1,202, so it is refused and reported; neither store passes 1,024 keys and both still take new keys")
    func mergePastKeyCount() throws {
        let machines = try Machines()
        for (machine, prefix) in [(0, "a"), (1, "b")] {
            let (values, modified) = Self.keys(prefix, 601)
            try machines.writeStore(try machines.store(machine).path, values: values, modified: modified)
        }
        try machines.sync(0)
        let remoteBefore = try Data(contentsOf: URL(filePath: machines.remoteStore))
        let storeBefore = try Data(contentsOf: URL(filePath: try machines.store(1).path))
        do {
            try machines.sync(1)
            Issue.record("a merge of 1,202 keys was written")
        } catch {
            #expect(error.kind == .keyValueStore && error.message.contains("1202 keys") && error.message.contains("kept as it was"), "\(error.message)")
        }
        #expect(try Data(contentsOf: URL(filePath: try machines.store(1).path)) == storeBefore, "machine B's store changed")
        #expect(try Data(contentsOf: URL(filePath: machines.remoteStore)) == remoteBefore, "the remote's store changed")
        try machines.sync(0)
        for machine in [0, 1] {
            let store = try machines.store(machine)
            #expect(try store.values().count == 601)
            try store.set(.string("new"), forKey: "new")
            #expect(try store.value(forKey: "new") == .string("new"))
        }
    }

    @Test("a remote store holding a 6 MiB value (binary) is not merged: reported, and the local store and every kv command still work")
    func largeRemoteValue() throws {
        let machines = try Machines()
        try machines.store(0).set(.string("mine"), forKey: "k")
        try machines.sync(0)
        let now = Date().timeIntervalSince1970
        try machines.writeStore(machines.remoteStore, values: ["k": "mine", "big": Data(repeating: 7, count: 6 << 20)],
                                modified: ["k": now - 10, "big": now - 5], format: .binary)
        let storeBefore = try Data(contentsOf: URL(filePath: try machines.store(0).path))
        do {
            try machines.sync(0)
            Issue.record("a 6 MiB value was merged")
        } catch {
            #expect(error.kind == .keyValueStore && error.message.contains("past the limit of 1048576"), "\(error.message)")
        }
        #expect(try Data(contentsOf: URL(filePath: try machines.store(0).path)) == storeBefore)
        let store = try machines.store(0)
        #expect(try store.values() == ["k": .string("mine")])
        try store.set(.integer(1), forKey: "other")
        #expect(try store.value(forKey: "other") == .integer(1))
    }

    @Test("a value dated in the future (1e300) wins one merge, no more: a later local write wins the next; a future-dated removal does not keep a key from being set again")
    func futureTimes() throws {
        let machines = try Machines()
        try machines.store(0).set(.string("first"), forKey: "k")
        try machines.store(0).set(.string("here"), forKey: "gone")
        try machines.sync(0)
        // A crafted remote: k set in the year 10^300, `gone` removed then.
        try machines.writeStore(machines.remoteStore, values: ["k": "crafted"], modified: ["k": 1e300], removed: ["gone": 1e300])
        try machines.sync(0)
        let store = try machines.store(0)
        #expect(try store.value(forKey: "k") == .string("crafted"))
        #expect(try store.value(forKey: "gone") == nil)
        // Writes made here after that merge are later than it, on this machine and, once synced, on the other.
        try store.set(.string("mine"), forKey: "k")
        try store.set(.string("back"), forKey: "gone")
        try machines.sync(0)
        try machines.sync(1)
        for machine in [0, 1] {
            let values = try machines.store(machine).values()
            #expect(values["k"] == .string("mine") && values["gone"] == .string("back"), "machine \(machine): \(values)")
        }
        // The remote no longer holds a time from the future.
        let remote = try PropertyListSerialization.propertyList(from: Data(contentsOf: URL(filePath: machines.remoteStore)), format: nil) as? [String: Any]
        let times = ((remote?["modified"] as? [String: Double]) ?? [:]).values
        #expect(!times.isEmpty && times.allSatisfy { $0 < Date().timeIntervalSince1970 + 1 }, "\(times)")
    }

    @Test("removed keys are remembered up to 1,024, the newest, the same on both machines after a sync")
    func boundedRemovals() throws {
        let machines = try Machines()
        let store = try machines.store(0)
        let now = Date().timeIntervalSince1970
        // 1,000 removals here, 1,000 others on the remote, older and newer alternately.
        try machines.writeStore(store.path, values: ["k": 1], modified: ["k": now - 100],
                                removed: Dictionary(uniqueKeysWithValues: (0..<1_000).map { ("here\($0)", now - 1_000 + Double($0)) }))
        try machines.writeStore(machines.remoteStore, values: [:], modified: [:],
                                removed: Dictionary(uniqueKeysWithValues: (0..<1_000).map { ("there\($0)", now - 999.5 + Double($0)) }))
        try machines.sync(0)
        try machines.sync(1)
        var removals: [Set<String>] = []
        for path in [store.path, try machines.store(1).path, machines.remoteStore] {
            let plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: URL(filePath: path)), format: nil) as? [String: Any]
            removals.append(Set(((plist?["removed"] as? [String: Double]) ?? [:]).keys))
        }
        #expect(removals[0].count == UbiquitousKeyValueStore.maximumRemovedKeyCount)
        #expect(removals[0] == removals[1] && removals[1] == removals[2])
        // The newest of both sides' removals are kept, the oldest forgotten.
        #expect(removals[0].contains("here999") && removals[0].contains("there999") && !removals[0].contains("here0"))
    }

    @Test("one remote spelled three ways (/r, /r/, /./r//.) is one sync state and one lock")
    func remoteSpellings() throws {
        let machines = try Machines()
        try machines.store(0).set(.integer(1), forKey: "k")
        let spellings = [machines.remote, machines.remote + "/", machines.remote.replacingOccurrences(of: "/remote", with: "/./remote//.")]
        for spelling in spellings { try machines.sync(0, remote: spelling) }
        let states = try FileManager.default.contentsOfDirectory(atPath: machines.registries[0].root + "/Sync")
        #expect(states.count == 1, "\(states)")
    }
}
