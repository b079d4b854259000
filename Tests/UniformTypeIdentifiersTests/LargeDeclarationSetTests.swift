import Testing
@testable import UniformTypeIdentifiers

/// Declaration sets that are large but legal: what they cost must grow with their size, not its square,
/// and no walk of the hierarchy may recurse once per level.
@Suite("Large declaration sets")
struct LargeDeclarationSetTests {
    @Test("a 20,000-link conformance chain registers, and its last type conforms to its root")
    func longChain() throws {
        let database = TypeDatabase(includingBuiltInTypes: true)
        let count = 20_000
        let declarations = (0..<count).map { index in
            TypeDeclaration(identifier: "com.example.chain.t\(index)", conformsTo: [index == 0 ? "public.data" : "com.example.chain.t\(index - 1)"])
        }
        try database.register(declarations)
        let overlay = database.snapshot
        #expect(database.declaredType("com.example.chain.t\(count - 1)", hasAncestor: "com.example.chain.t0", in: overlay))
        #expect(database.declaredType("com.example.chain.t\(count - 1)", hasAncestor: "public.item", in: overlay))
        #expect(!database.declaredType("com.example.chain.t0", hasAncestor: "com.example.chain.t1", in: overlay))
        #expect(database.ancestorKeys(ofParents: ["com.example.chain.t\(count - 1)"], in: overlay).count == count + 2)
    }

    @Test("a cycle closed at the end of a long chain is refused, naming its members")
    func cycleAtTheEndOfAChain() {
        let database = TypeDatabase(includingBuiltInTypes: true)
        let count = 20_000
        let declarations = (0..<count).map { index in
            TypeDeclaration(identifier: "com.example.loop.t\(index)", conformsTo: ["com.example.loop.t\((index + 1) % count)"])
        }
        let error = #expect(throws: TypeDeclarationError.self) { try database.register(declarations) }
        #expect(error?.problem.kind == .conformanceCycle)
        let members = error?.problem.cycle ?? []
        #expect(members.count == count + 1 && members.first == members.last)
        #expect(database.declarations.count == database.builtInTypeCount, "nothing registered")
    }

    @Test("100,000 types claiming one extension register, and the first declared is the answer")
    func manyClaimsOfOneTag() throws {
        let database = TypeDatabase(includingBuiltInTypes: true)
        let declarations = (0..<100_000).map { index in
            TypeDeclaration(identifier: "com.example.same.t\(index)", conformsTo: ["public.data"], tags: [.filenameExtension: ["same", "SAME"]])
        }
        try database.register(declarations)
        let types = database.declaredTypes(tag: "same", tagClass: .filenameExtension)
        #expect(types.count == 100_000, "each type once, however often it claims the tag")
        #expect(types.first?.identifier == "com.example.same.t0")
    }
}
