import Testing
import UniformTypeIdentifiers
@testable import FileIdentification

@Suite("Types identification names itself")
struct KnownTypesTests {
    @Test("every identifier identification relies on is declared built in", arguments: KnownTypes.all)
    func declared(type: UTType) throws {
        let declaration = try #require(TypeDatabase(includingBuiltInTypes: true).declaration(of: type), "\(type.identifier) is not declared")
        #expect(declaration.identifier == type.identifier, "spelt as declared")
        #expect(type.isDeclared)
    }
}
