import Hummingbird
import UniformTypeIdentifiers
import UTIReports

/// The type database: `GET /types/{identifier}`, `GET /types`, `GET /conforms`.
struct TypesController<Context: RequestContext>: Sendable {
    func addRoutes(to routes: some RouterMethods<Context>) {
        routes.get("types/:identifier") { _, context in try Self.typeInfo(context.parameters.require("identifier")) }
        routes.get("types") { request, _ in try await Self.types(request) }
        routes.get("conforms") { request, _ in try Self.conforms(request) }
    }

    /// `uti info --json`'s object; 404 for an identifier nobody declares (a dynamic identifier is described,
    /// as `uti info` describes it).
    static func typeInfo(_ identifier: String) throws -> Response {
        guard let type = UTType(identifier), type.isDeclared || type.isDynamic else { throw unknown(identifier) }
        return Responses.json(TypeReport(type).json)
    }

    /// `?extension=&mime=&conformingTo=&q=`: `uti types --json`'s objects, as an array. Open to anyone, so
    /// bounded: `q` is at most `TypeQuery.maximumWords` words of `TypeQuery.maximumWordLength` characters
    /// (400 past them, before any work), and the search, proportional to the database, runs on the blocking pool.
    static func types(_ request: Request) async throws -> Response {
        let query = Responses.Query(request.uri)
        for name in ["extension", "mime", "conformingTo"] where query.get(name)?.isEmpty == true {
            throw HTTPError(.badRequest, message: "\(name)= needs a value")
        }
        let words = try query.get("q").map { query throws(TypeQuery.Failure) in try TypeQuery.words(in: query) } ?? []
        let (filenameExtension, mimeType, conformingTo) = (query.get("extension"), query.get("mime"), query.get("conformingTo"))
        return try await BlockingWork.identification.runIfActive {
            if let conformingTo, UTType(conformingTo) == nil { throw unknown(conformingTo) }
            let types = try TypeQuery.types(filenameExtension: filenameExtension, mimeType: mimeType, conformingTo: conformingTo, words: words)
            return Responses.json(.array(types.map { TypeReport($0).json }))
        }
    }

    /// `?type=A&to=B`.
    static func conforms(_ request: Request) throws -> Response {
        let query = Responses.Query(request.uri)
        guard let identifier = query.get("type"), let supertypeIdentifier = query.get("to") else {
            throw HTTPError(.badRequest, message: "give both type= and to=")
        }
        guard let type = UTType(identifier) else { throw unknown(identifier) }
        guard let supertype = UTType(supertypeIdentifier) else { throw unknown(supertypeIdentifier) }
        return Responses.json(.object([("type", .string(type.identifier)), ("to", .string(supertype.identifier)),
                                       ("conforms", .boolean(type.conforms(to: supertype)))]))
    }

    private static func unknown(_ identifier: String) -> HTTPError {
        HTTPError(.notFound, message: "unknown type identifier '\(identifier)'")
    }
}
