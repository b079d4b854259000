import Testing
import UniformTypeIdentifiers
import AppContainers
import ContainerTestSupport
@testable import DocumentRouting

@Suite("Choosing the handler")
struct HandlerChoiceTests {
    private func order(_ workspace: Workspace, _ type: UTType, role: AppManifest.DocumentType.Role? = nil) throws -> [String] {
        HandlerChoice.candidates(for: type, apps: try workspace.registry.apps(), defaults: try workspace.registry.defaults(), role: role)
            .map(\.bundleIdentifier)
    }

    @Test("the most specific claim wins: public.jpeg before public.image before public.data")
    func specificity() throws {
        let workspace = try Workspace()
        for (identifier, type) in [("com.example.anything", "public.data"), ("com.example.images", "public.image"), ("com.example.jpegs", "public.jpeg")] {
            try workspace.registry.register(appAt: try workspace.app(identifier, [.init(types: [type], rank: "Owner")]))
        }
        #expect(try order(workspace, .jpeg) == ["com.example.jpegs", "com.example.images", "com.example.anything"])
        #expect(try order(workspace, .png) == ["com.example.images", "com.example.anything"])
        #expect(try order(workspace, .plainText) == ["com.example.anything"])
    }

    @Test("then rank: Owner, Default, Alternate; None never opens")
    func rank() throws {
        let workspace = try Workspace()
        for (identifier, rank) in [("com.example.alternate", "Alternate"), ("com.example.none", "None"), ("com.example.default", "Default"), ("com.example.owner", "Owner")] {
            try workspace.registry.register(appAt: try workspace.app(identifier, [.init(types: ["public.png"], rank: rank)]))
        }
        #expect(try order(workspace, .png) == ["com.example.owner", "com.example.default", "com.example.alternate"])
    }

    @Test("then Editor before Viewer, unless a role is asked; then registration order")
    func role() throws {
        let workspace = try Workspace()
        for (identifier, role) in [("com.example.viewer", "Viewer"), ("com.example.editor", "Editor"), ("com.example.second-editor", "Editor")] {
            try workspace.registry.register(appAt: try workspace.app(identifier, [.init(types: ["public.png"], role: role)]))
        }
        #expect(try order(workspace, .png) == ["com.example.editor", "com.example.second-editor", "com.example.viewer"])
        #expect(try order(workspace, .png, role: .viewer) == ["com.example.viewer", "com.example.editor", "com.example.second-editor"])
    }

    @Test("a user default for the type, or its nearest supertype with one, comes first")
    func defaults() throws {
        let workspace = try Workspace()
        try workspace.registry.register(appAt: try workspace.app("com.example.jpegs", [.init(types: ["public.jpeg"], rank: "Owner")]))
        try workspace.registry.register(appAt: try workspace.app("com.example.images", [.init(types: ["public.image"], rank: "Alternate", extensions: [])]))
        try workspace.registry.register(appAt: try workspace.app("com.example.viewer", [.init(types: ["public.image"], role: "Viewer", rank: "Alternate")]))
        #expect(try order(workspace, .jpeg).first == "com.example.jpegs")
        try workspace.registry.setDefault(type: .image, role: nil, bundleIdentifier: "com.example.images")
        let chosen = HandlerChoice.candidates(for: .jpeg, apps: try workspace.registry.apps(), defaults: try workspace.registry.defaults())
        #expect(chosen.map(\.bundleIdentifier) == ["com.example.images", "com.example.jpegs", "com.example.viewer"])
        #expect(chosen.first?.defaultFor == .image)
        #expect(chosen.first?.explanation.hasPrefix("user default for public.image") == true)
        // A default for the type itself is nearer than one for its supertype.
        try workspace.registry.setDefault(type: .jpeg, role: nil, bundleIdentifier: "com.example.viewer")
        #expect(try order(workspace, .jpeg).first == "com.example.viewer")
        // A role's default when that role is asked.
        try workspace.registry.setDefault(type: .jpeg, role: .editor, bundleIdentifier: "com.example.jpegs")
        #expect(try order(workspace, .jpeg, role: .editor).first == "com.example.jpegs")
        #expect(try workspace.registry.unsetDefault(type: .jpeg, role: nil))
        // With no role asked, any default of the nearest type counts, a role's one too.
        #expect(try order(workspace, .jpeg).first == "com.example.jpegs")
        #expect(try workspace.registry.unsetDefault(type: .jpeg, role: .editor))
        #expect(try order(workspace, .jpeg).first == "com.example.images")
        // Unregistering an app drops its defaults.
        try workspace.registry.unregister("com.example.images", deleteData: true)
        #expect(try workspace.registry.defaults().allSatisfy { $0.bundleIdentifier != "com.example.images" })
    }
}
