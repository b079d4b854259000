// Route a file to the app that handles its type, as `uti route` does: identified, then copied into the app's
// Documents/Inbox atomically, never overwriting, never outside the container.
import AppContainers
import DocumentRouting

let router = try DocumentRouter(registry: Registry(root: Registry.defaultRoot()))
do {
    let outcome = try router.route(fileAt: "photo.jpg", options: .init(move: false))
    print(outcome.handler, outcome.location, outcome.disposition)   // com.example.viewer …/Inbox/photo.jpg copied
} catch {
    print(error.reason.kind, error.message)   // no-handler: "no registered app opens public.jpeg; nothing delivered"
}
