// Identify a file from its name and its bytes, and read why: the name's candidates, each reader's opinion,
// the rule that decided, and whether the name lies about the content.
import FileIdentification
import UniformTypeIdentifiers

let identifier = FileIdentifier()                       // share it: it is Sendable and pools libmagic handles
let result = try identifier.identify(fileAt: "upload.bin")
if result.isMismatch, let named = result.evidence.name?.candidates.first {
    print("the name lies: \(named) vs \(result.type)")
}
print(result.type.conforms(to: .image), result.evidence.rule, result.mimeType)
