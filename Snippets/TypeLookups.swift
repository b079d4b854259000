// Types by identifier, filename extension and MIME type; conformance; dynamic identifiers for tags nobody
// declares; and declarations of your own, from a declaration file or an app's Info.plist.
import UniformTypeIdentifiers   // on Linux: this package; on Apple platforms: the system framework

let type = UTType(filenameExtension: "JPG")                      // public.jpeg
print(type?.conforms(to: .image) == true)                        // true
print(type?.preferredMIMEType ?? "")                             // image/jpeg
print(UTType(mimeType: "application/x-gzip")?.identifier ?? "")  // org.gnu.gnu-zip-archive
print(UTType(filenameExtension: "tar.gz") == nil)                // true: an extension has no dot
print(UTType("dyn.ah62d4rv4ge8043a")?.tags ?? [:])               // [.filenameExtension: ["md"]], conforming to public.data
print(UTType.filenameExtension(ofPath: "archive.tar.gz") ?? "")  // gz

// snippet.hide
func registerOwnTypes() throws {
// snippet.show
// Types of your own: a declaration file or an app's Info.plist, XML or binary.
try TypeDatabase.shared.registerDeclarations(contentsOfFile: "MyApp.app/Info.plist")
// snippet.hide
}
// snippet.show
