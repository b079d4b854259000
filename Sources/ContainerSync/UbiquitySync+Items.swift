internal import AppContainers
#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
internal import FileIdentification
internal import SystemCalls
internal import SystemPackage
internal import UniformTypeIdentifiers

/// What a container walk for the sync skips: the sentinel, `Library/Caches/`, `tmp/`, and `excluded` (items
/// excluded from backup, found once before the sync: `ExcludedItems.find`), with everything in them.
private func isSkipped(_ entry: TreeWalkEntry, _ relative: String, excluded: Set<String>) -> Bool {
    guard entry.depth > 0 else { return false }
    if entry.depth == 1, relative == UbiquitySync.sentinelName || relative == "tmp" { return true }
    return relative == "Library/Caches" || excluded.contains(relative)
}

/// Items excluded from backup (`BackupExclusion`'s attribute), which the sync leaves out.
enum ExcludedItems {
    static func isExcluded(_ entry: TreeWalkEntry) -> Bool {
        guard entry.status.type == .regular || entry.status.type == .directory else { return false }
        return (try? entry.parent.extendedAttribute(BackupExclusion.attributeName, of: entry.name)) == BackupExclusion.attributeValue
    }

    /// The excluded items under a container, by their paths in it, and whether each is a directory.
    static func find(under container: String) -> [(path: String, isDirectory: Bool)] {
        var found: [(String, Bool)] = []
        walk(container) { entry, relative in
            guard entry.depth > 0 else { return .proceed }
            if relative == "Library/Caches" || relative == "tmp" { return .skipContents }  // not synced anyway
            guard isExcluded(entry) else { return .proceed }
            found.append((relative, entry.status.type == .directory))
            return .skipContents
        }
        return found
    }

    /// A path as an rclone filter pattern that matches it alone: its glob characters escaped.
    static func escapedPattern(_ path: String) -> String {
        var result = ""
        for character in path {
            if "\\*?[]{}".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }
}

/// Walks a container through directory descriptors, handing each entry with its path in the container.
private func walk(_ container: String, _ visit: (TreeWalkEntry, String) -> TreeWalkAction) {
    let (parent, name) = AtomicFile.split(container)
    guard let directory = try? FileDescriptor.open(parent, .readOnly, options: [.directory]) else { return }
    defer { directory.closeQuietly() }
    let start = Array(container.utf8)
    var walk = TreeWalk()
    walk.sorted = true
    walk.walk(Array(name.utf8), in: directory, path: start, visit: { entry in
        let relative = entry.depth == 0 ? "" : String(decoding: entry.path.dropFirst(start.count + 1), as: UTF8.self)
        return visit(entry, relative)
    }, fail: { _, _, _ in true })
}

/// Conflict versions: their names, and turning rclone's conflict pairs into them.
enum ConflictNames {
    /// The suffixes rclone 1.60 gives the two versions of a file changed on both sides.
    static let pairSuffixes = ["..path1", "..path2"]

    /// `Report (conflict 2026-11-26 101500).pdf` for `Report.pdf`, now (UTC), with ` 2`, ` 3` ... when taken.
    static func name(for name: String, taken: (String) -> Bool) -> String {
        let dot = name.dropFirst().lastIndex(of: ".")
        let stem = dot.map { String(name[..<$0]) } ?? name
        let ext = dot.map { String(name[$0...]) } ?? ""
        let stamp = ISO8601Dates.conflictStamp(Date())
        var candidate = "\(stem) (conflict \(stamp))\(ext)"
        var number = 2
        while taken(candidate) {
            candidate = "\(stem) (conflict \(stamp) \(number))\(ext)"
            number += 1
        }
        return candidate
    }

    /// A free conflict-version name for `path` (in the container at `local`), as a path in the container.
    static func freeName(for path: String, in local: String) -> String {
        let (directory, file) = AtomicFile.split(path)
        let folder = directory == "." ? "" : directory + "/"
        let version = name(for: file) { (try? FileDescriptor.workingDirectory.status(of: local + "/" + folder + $0)) != nil }
        return folder + version
    }

    /// The document a conflict version's name is a version of, `nil` for any other name.
    static func document(ofVersion name: String) -> String? {
        let marker = Array(" (conflict ".utf8), bytes = Array(name.utf8)
        guard bytes.count > marker.count,
              let open = (0...(bytes.count - marker.count)).last(where: { bytes[$0..<($0 + marker.count)].elementsEqual(marker) }),
              let close = bytes[(open + marker.count)...].firstIndex(of: UInt8(ascii: ")")) else { return nil }
        // `2026-11-26 101500`, then perhaps ` 2`.
        let parts = bytes[(open + marker.count)..<close].split(separator: UInt8(ascii: " "))
        guard parts.count == 2 || parts.count == 3, parts[0].count == 10, parts[1].count == 6,
              parts.allSatisfy({ $0.allSatisfy { (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-") } }) else { return nil }
        let after = bytes[(close + 1)...]
        guard after.isEmpty || (after.first == UInt8(ascii: ".") && !after.dropFirst().contains(UInt8(ascii: "."))) else { return nil }
        return String(decoding: bytes[..<open] + after, as: UTF8.self)
    }

    /// The conflict versions under a container: (the document's path, the version's path), both in it.
    static func versions(under container: String) -> [(document: String, version: String)] {
        var found: [(String, String)] = []
        let excluded = Set(ExcludedItems.find(under: container).map(\.path))
        walk(container) { entry, relative in
            guard entry.depth > 0, !isSkipped(entry, relative, excluded: excluded) else { return entry.depth == 0 ? .proceed : .skipContents }
            let name = String(decoding: entry.name, as: UTF8.self)
            if entry.status.type == .regular || entry.status.type == .directory, let document = document(ofVersion: name) {
                let folder = relative.dropLast(entry.name.count)
                found.append((String(folder) + document, relative))
            }
            return .proceed
        }
        return found
    }

    /// Turns each of rclone's conflict pairs under a container into one file (two identical versions) or a
    /// file and its conflict version: the newer keeps the name, except that a copy a dead run of rclone cut
    /// short (`deadRun` says it wrote that member and not the other, and its bytes begin the other's) yields
    /// the name to the whole one. Whatever the rule decides, the other version is kept as a conflict version:
    /// nothing is deleted that no other file holds. Acts through the descriptor of each pair's directory.
    /// Returns whether anything changed, and how many conflict versions were made.
    static func resolvePairs(in container: String, deadRun: DeadRunListings?, excluded: Set<String>) -> (changed: Bool, conflicts: Int) {
        var changed = false
        var conflicts = 0
        walk(container) { entry, relative in
            guard !isSkipped(entry, relative, excluded: excluded) else { return .skipContents }
            guard entry.status.type == .regular else { return .proceed }
            let name = String(decoding: entry.name, as: UTF8.self)
            guard let suffix = pairSuffixes.first(where: { name.hasSuffix($0) && name.count > $0.count }) else { return .proceed }
            let base = String(name.dropLast(suffix.count))
            let basePath = String(relative.dropLast(suffix.count))
            let folder = entry.parent
            func exists(_ name: String) -> Stat? {
                guard let status = try? folder.status(of: name), status.type == .regular else { return nil }
                return status
            }
            let first = base + pairSuffixes[0], second = base + pairSuffixes[1]
            var versions: [(String, Stat)] = []
            for candidate in [first, second] {
                if let status = exists(candidate) { versions.append((candidate, status)) }
            }
            // The newer first: it keeps the name.
            versions.sort { lhs, rhs in
                let left = lhs.1.st_mtim, right = rhs.1.st_mtim
                if left.tv_sec != right.tv_sec { return left.tv_sec > right.tv_sec }
                if left.tv_nsec != right.tv_nsec { return left.tv_nsec > right.tv_nsec }
                return lhs.0 < rhs.0
            }
            guard let newest = versions.first else { return .proceed }
            var keep = newest
            if versions.count == 2 {
                var loser = versions[1]
                switch compare(newest.0, loser.0, in: folder) {
                case .same:
                    try? folder.remove(loser.0)
                case .prefix(let longer):
                    // A copy the dead run cut short yields the name to the whole one it was copied from.
                    let (whole, short) = longer == newest.0 ? (newest, loser) : (loser, newest)
                    func wrote(_ member: (String, Stat)) -> Bool {
                        deadRun?.wrote(basePath, side: member.0.hasSuffix(pairSuffixes[0]) ? 0 : 1, status: member.1) ?? false
                    }
                    if wrote(short) && !wrote(whole) { (keep, loser) = (whole, short) }
                    fallthrough
                case .different:
                    let version = Self.name(for: base) { exists($0) != nil }
                    if (try? folder.rename(loser.0, to: folder, as: version)) != nil { conflicts += 1 }
                }
            }
            if exists(base) == nil {
                try? folder.rename(keep.0, to: folder, as: base)
            } else if case .same = compare(keep.0, base, in: folder) {
                try? folder.remove(keep.0)
            } else {
                let version = Self.name(for: base) { exists($0) != nil }
                if (try? folder.rename(keep.0, to: folder, as: version)) != nil { conflicts += 1 }
            }
            changed = true
            return .proceed
        }
        return (changed, conflicts)
    }

    private enum Comparison: Equatable { case same, prefix(String), different }

    /// Whether two files of a directory hold the same bytes, or one's bytes are the start of the other's
    /// (which is then named).
    private static func compare(_ one: String, _ other: String, in folder: FileDescriptor) -> Comparison {
        guard let first = try? FileDescriptor.open(one, relativeTo: folder, .readOnly, options: [.noFollow, .nonBlocking]) else { return .different }
        defer { first.closeQuietly() }
        guard let second = try? FileDescriptor.open(other, relativeTo: folder, .readOnly, options: [.noFollow, .nonBlocking]) else { return .different }
        defer { second.closeQuietly() }
        var offset = 0
        while true {
            let a = (try? first.read(at: offset, count: 1 << 16)) ?? []
            let b = (try? second.read(at: offset, count: 1 << 16)) ?? []
            let common = min(a.count, b.count)
            guard a.prefix(common).elementsEqual(b.prefix(common)) else { return .different }
            if a.count == b.count {
                if a.isEmpty { return .same }
                offset += common
                continue
            }
            // One ended: the other is longer from here on.
            return a.count < b.count ? .prefix(other) : .prefix(one)
        }
    }
}

/// The user extended attributes of a container's files and directories, by their paths in it: what the sync
/// keeps in the remote (`.uti/attributes/<container>.plist`), since rclone carries none over SFTP.
struct AttributeManifest: Equatable {
    var files: [String: [String: [UInt8]]] = [:]
    /// The paths there are (with attributes or without): a path the merge keeps must be one.
    var existing: Set<String> = []

    /// The attributes of everything under a container that the sync carries (names under `user.`).
    static func collect(under container: String, excluded: Set<String>) -> AttributeManifest {
        var manifest = AttributeManifest()
        walk(container) { entry, relative in
            guard entry.depth > 0 else { return .proceed }
            guard !isSkipped(entry, relative, excluded: excluded) else { return .skipContents }
            guard entry.status.type == .regular || entry.status.type == .directory,
                  !ConflictNames.pairSuffixes.contains(where: { relative.hasSuffix($0) }) else { return .proceed }
            manifest.existing.insert(relative)
            if let attributes = read(entry), !attributes.isEmpty { manifest.files[relative] = attributes }
            return .proceed
        }
        return manifest
    }

    /// Three ways, attribute by attribute: a change on one side since the last sync wins; on both, ours.
    /// Only paths that are here stay.
    static func merged(ours: AttributeManifest, theirs: AttributeManifest, base: AttributeManifest) -> AttributeManifest {
        var result = AttributeManifest(existing: ours.existing)
        for path in ours.existing {
            let names = Set((ours.files[path] ?? [:]).keys).union((theirs.files[path] ?? [:]).keys).union((base.files[path] ?? [:]).keys)
            var attributes: [String: [UInt8]] = [:]
            for name in names {
                let mine = ours.files[path]?[name], yours = theirs.files[path]?[name], before = base.files[path]?[name]
                if let value = mine == before ? yours : mine { attributes[name] = value }
            }
            if !attributes.isEmpty { result.files[path] = attributes }
        }
        return result
    }

    /// Makes the attributes under the container what `merged` says, where they are not already (`ours`);
    /// returns how many files and directories changed.
    static func apply(_ merged: AttributeManifest, over ours: AttributeManifest, under container: String, excluded: Set<String>) -> Int {
        guard merged.files != ours.files else { return 0 }
        var changed = 0
        walk(container) { entry, relative in
            guard entry.depth > 0 else { return .proceed }
            guard !isSkipped(entry, relative, excluded: excluded) else { return .skipContents }
            let wanted = merged.files[relative] ?? [:], have = ours.files[relative] ?? [:]
            guard merged.existing.contains(relative), wanted != have else { return .proceed }
            let options: FileDescriptor.OpenOptions = entry.status.type == .directory ? [.directory, .noFollow] : [.noFollow, .nonBlocking]
            guard let file = try? FileDescriptor.open(PathBytes(entry.name), relativeTo: entry.parent, .readOnly, options: options) else { return .proceed }
            defer { file.closeQuietly() }
            for (name, value) in wanted where have[name] != value { try? file.setExtendedAttribute(name, to: value) }
            for name in have.keys where wanted[name] == nil { _ = try? file.removeExtendedAttribute(name) }
            changed += 1
            return .proceed
        }
        return changed
    }

    /// The entry's user attributes, read through its directory without opening it (most have none: one
    /// system call).
    private static func read(_ entry: TreeWalkEntry) -> [String: [UInt8]]? {
        var attributes: [String: [UInt8]] = [:]
        for name in (try? entry.parent.extendedAttributeNames(of: entry.name)) ?? [] where name.hasPrefix("user.") {
            if let value = try? entry.parent.extendedAttribute(name, of: entry.name) { attributes[name] = value }
        }
        return attributes
    }

    /// What a manifest may cost, read or written (the one rule for both: `decode` and `encoded(path:)`).
    static let limits = PropertyListLimits(size: 256 << 20, depth: 4)

    /// The manifest as a property list: paths, then names, then the values as data; refused (naming `path`)
    /// when `decode` would refuse it, so that no side is left a manifest no machine can read.
    func encoded(path: String) throws(SyncError) -> [UInt8] {
        do {
            return try PropertyListValue.dictionary(files.mapValues { attributes in .dictionary(attributes.mapValues { .data(Data($0)) }) })
                .xmlDocument(readableWithin: Self.limits)
        } catch {
            throw SyncError(path: path, reason: .engine("the attributes' manifest would not be readable (\(error.message)); nothing written of it"))
        }
    }

    /// A manifest's bytes; empty bytes are an empty manifest.
    static func decode(_ bytes: [UInt8], path: String) throws(SyncError) -> AttributeManifest {
        guard !bytes.isEmpty else { return AttributeManifest() }
        var manifest = AttributeManifest()
        do throws(PropertyListError) {
            for (file, value) in try PropertyListValue.dictionary(from: bytes, limits: limits) {
                guard case .dictionary(let attributes) = value else { throw PropertyListError("'\(file)' is \(value.typeName), not a dictionary") }
                var values: [String: [UInt8]] = [:]
                for (name, data) in attributes {
                    guard case .data(let bytes) = data, name.hasPrefix("user.") else {
                        throw PropertyListError("'\(file)': '\(name)' is not a user attribute with data")
                    }
                    values[name] = Array(bytes)
                }
                manifest.files[file] = values
            }
        } catch {
            throw SyncError(path: path, reason: .engine("the attributes' manifest is not one (\(error.message)); nothing synced of them"))
        }
        return manifest
    }
}

/// What a sync reads from a remote, reachable for the fuzz target `FuzzSyncedFiles` (package access only: not
/// part of the library's API): a key-value store's file and an attributes' manifest, each decoded, merged and
/// written back, which must read back the same.
package enum SyncFuzzingEntryPoints {
    package static func keyValueStore(_ bytes: [UInt8]) {
        guard let contents = try? UbiquitousKeyValueStore.decode(bytes, path: "store") else { return }
        let merged = UbiquitousKeyValueStore.Contents.merged(contents, contents, now: .greatestFiniteMagnitude)
        let holdsNaN = contents.values.values.contains(where: \.holdsNaN)  // NaN is not equal to itself
        precondition(merged.values == contents.values || holdsNaN, "a store merged with itself changed its values")
        precondition(merged.removed.count <= UbiquitousKeyValueStore.maximumRemovedKeyCount, "a merge kept too many removals")
        // What is written must read back the same, or not be written at all.
        guard let encoded = try? UbiquitousKeyValueStore.encode(contents, path: "store") else { return }
        let again = try? UbiquitousKeyValueStore.decode(encoded, path: "store")
        precondition(again?.values == contents.values || holdsNaN,
                     "a store written back did not read the same")
    }

    package static func attributeManifest(_ bytes: [UInt8]) {
        guard let manifest = try? AttributeManifest.decode(bytes, path: "manifest") else { return }
        guard let encoded = try? manifest.encoded(path: "manifest") else { return }
        let again = try? AttributeManifest.decode(encoded, path: "manifest")
        precondition(again?.files == manifest.files, "a manifest written back did not read the same")
    }
}

extension UbiquitousKeyValueStore.Value {
    /// Whether a real number that is not a number is in it (which equals nothing, itself included).
    var holdsNaN: Bool {
        switch self {
        case .real(let number): number.isNaN
        case .array(let values): values.contains(where: \.holdsNaN)
        case .dictionary(let values): values.values.contains(where: \.holdsNaN)
        default: false
        }
    }
}
