// Classify a whole tree in parallel, as an asynchronous sequence: cancelling the consuming task stops the walk.
import FileIdentification
import UniformTypeIdentifiers

// snippet.hide
func quarantine(_ path: RawFilePath) { print("quarantined", path.escaped) }
// snippet.show
for await entry in FileIdentifier().classify(directory: "/srv/uploads", options: .init(includeHidden: true)) {
    if let found = entry.identification, found.isMismatch { quarantine(entry.path) }
}
