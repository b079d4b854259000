import Testing
import UniformTypeIdentifiers
import FileIdentification
import SystemPackage
import AppContainers
import ContainerTestSupport
@testable import DocumentRouting

/// What routing asks of the registry it builds on: declared types in handler choice, bundle identifiers checked
/// by the Inbox too, and the errors of both layers, one carrying the other.
@Suite("Routing over the registry")
struct RoutingOverRegistryTests {
    @Test func declaredTypesJoinTheDatabase() throws {
        let workspace = try Workspace()
        let bundle = try workspace.app("com.example.notebooks", [.init(types: ["com.example.routing-notebook"], rank: "Owner")], declarations: [[
            "UTTypeIdentifier": "com.example.routing-notebook", "UTTypeConformsTo": ["public.json"],
            "UTTypeTagSpecification": ["public.filename-extension": ["rnb"]],
        ]])
        try workspace.registry.register(appAt: bundle)
        try workspace.registry.loadDeclarations()
        let type = try #require(UTType(filenameExtension: "rnb"))
        #expect(type.identifier == "com.example.routing-notebook")
        #expect(type.conforms(to: .json))
        let candidates = HandlerChoice.candidates(for: type, apps: try workspace.registry.apps(), defaults: [])
        #expect(candidates.map(\.bundleIdentifier) == ["com.example.notebooks"])
    }

    @Test("the library checks a bundle identifier before any path is built from it", arguments: ["../x", "/abs", "a/b", "..", ".x", "a..b"])
    func bundleIdentifiersAreCheckedByTheLibrary(identifier: String) throws {
        let workspace = try Workspace()
        let app = #expect(throws: RegistryError.self) { try workspace.registry.app(identifier) }
        #expect(app?.reason.kind == .invalidBundleIdentifier)
        #expect(throws: RegistryError.self) { try workspace.registry.containerPath(identifier) }
        #expect(throws: RegistryError.self) { try workspace.registry.unregister(identifier, deleteData: true) }
        #expect(throws: RegistryError.self) { try workspace.registry.setDefault(type: .data, role: nil, bundleIdentifier: identifier) }
        let inbox = Inbox(registry: workspace.registry, bundleIdentifier: identifier)
        let listed = #expect(throws: DeliveryError.self) { try inbox.list() }
        #expect(listed?.reason.kind == .registry && listed?.reason.registryError?.reason.kind == .invalidBundleIdentifier)
        #expect(throws: DeliveryError.self) { try inbox.deliver(contents: SpooledBytes(contents: [1]), as: "x") }
    }
}

@Suite("The routing libraries' errors")
struct RoutingErrorShapeTests {
    @Test func eachDomainDescribesItsReasonsAndKeepsTheirCauses() {
        let registry = RegistryError(path: "/r/state", reason: .notRegistered("com.example.app"))
        #expect(registry.description == "/r/state: 'com.example.app' is not registered")
        #expect(registry.kind == .notRegistered && registry.reason.subject == "com.example.app")

        let delivery = DeliveryError(path: "photo.jpg", reason: .registry(registry))
        #expect(delivery.description == "photo.jpg: 'com.example.app' is not registered")
        #expect(delivery.reason.registryError == registry)

        let backup = BackupError(path: "a/b", reason: .system(.permissionDenied, while: "reading user.uti.backup"))
        #expect(backup.description == "a/b: reading user.uti.backup: \(Errno.permissionDenied)")

        // A routing error names the file's type, which it carries beside its cause.
        let routing = RoutingError(path: "photo.jpg", type: .jpeg, reason: .targetDoesNotOpen("com.example.viewer"))
        #expect(routing.type == .jpeg)
        #expect(routing.description == "photo.jpg: com.example.viewer does not open public.jpeg; nothing delivered")
        let failed = RoutingError(path: "photo.jpg", type: .jpeg, reason: .delivery(delivery, to: "com.example.viewer"))
        #expect(failed.type == .jpeg && failed.reason.deliveryError == delivery && failed.reason.bundleIdentifier == "com.example.viewer")
        #expect(RoutingError(path: "-", type: nil, reason: .noHandler).message == "no registered app opens it; nothing delivered")
    }
}
