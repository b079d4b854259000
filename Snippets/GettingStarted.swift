// What a file is, by its name and its bytes, and what a type conforms to: the README's first lines.
import UniformTypeIdentifiers     // Apple's API, on Linux
import FileIdentification

let jpeg = UTType(filenameExtension: "JPG")                         // public.jpeg
print(jpeg?.conforms(to: .image) == true)                           // true
let found = try FileIdentifier().identify(fileAt: "upload.bin")     // name + content, with the evidence
if found.isMismatch { print("the name lies: it is \(found.type.identifier), \(found.mimeType)") }
