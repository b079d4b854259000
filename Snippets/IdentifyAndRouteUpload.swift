// An upload handler from end to end: identify the bytes of an upload, flag a name that lies about them, and
// deliver them into the Inbox of the app that handles their type.
import AppContainers
import DocumentRouting
import FileIdentification
import UniformTypeIdentifiers

// snippet.hide
// A one-pixel PNG, as a client might upload it under a name that says text.
let uploadedBytes: [UInt8] = [
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89,
]
let uploadedName = "holiday.txt"
// snippet.show
let identifier = FileIdentifier()
let found = try identifier.identify(data: uploadedBytes, filename: uploadedName)
if found.isMismatch {
    print("\(uploadedName) is no \(found.evidence.name?.candidates.first?.identifier ?? "?"): it is \(found.type.identifier)")
}

let router = try DocumentRouter(registry: Registry(root: Registry.defaultRoot()), identifier: identifier)
do {
    let outcome = try router.route(contents: SpooledBytes(contents: uploadedBytes), named: RawFilePath(uploadedName))
    print("\(outcome.handler) has it: \(outcome.location.escaped)")
} catch {
    print("not delivered: \(error.message)")   // no app handles the type: nothing written anywhere
}
