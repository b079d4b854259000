// An upload handler that refuses an archive holding a program, at any depth, without extracting anything:
// each member is identified as it streams out of libarchive, and the reading stops at the first program.
import FileIdentification
import UniformTypeIdentifiers

let identifier = FileIdentifier()
var limits = ArchiveLimits()
limits.maxExpandedBytes = 1 << 30                       // an upload expands to 1 GiB at most
var refused: ArchiveMember?
let reading = try identifier.readMembers(ofFileAt: "upload.zip", limits: limits) { member in
    guard let type = member.identification?.type, type.conforms(to: .executable) else { return true }
    refused = member
    return false                                        // stop: one is enough
}
if let refused {
    print("refused: \(refused.path(in: "upload.zip").escaped) is \(refused.identification?.type.identifier ?? "?")")
} else if let truncated = reading.truncated {
    print("refused: the archive's reading stopped (\(truncated))")  // a bomb, damage, an encrypted list
}
