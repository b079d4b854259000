/// The types a query names, as `uti types` and `GET /types` ask: those claiming an extension or a MIME
/// type (best first; the dynamic type when nobody declares one), else every declared type; kept when they
/// conform to `conformingTo` and hold every word in their identifier or description.
package enum TypeQuery {
    package struct Failure: Error {
        package var message: String
    }

    package static func types(filenameExtension: String? = nil, mimeType: String? = nil, conformingTo: String? = nil,
                              words: [String] = []) throws(Failure) -> [UTType] {
        var supertype: UTType?
        if let conformingTo {
            guard let type = UTType(conformingTo) else { throw Failure(message: "unknown type identifier '\(conformingTo)'") }
            supertype = type
        }
        var types: [UTType]
        if let filenameExtension {
            types = try tagged(filenameExtension.hasPrefix(".") ? String(filenameExtension.dropFirst()) : filenameExtension, .filenameExtension)
        } else if let mimeType {
            types = try tagged(mimeType, .mimeType)
        } else {
            types = TypeDatabase.shared.declarations.compactMap { UTType($0.identifier) }
        }
        if let mimeType, filenameExtension != nil {
            let claiming = Set(try tagged(mimeType, .mimeType))
            types = types.filter { claiming.contains($0) }
        }
        if let supertype { types = types.filter { $0.conforms(to: supertype) } }
        let needles = words.map { $0.lowercased() }
        if !needles.isEmpty {
            types = types.filter { type in
                let haystack = (type.identifier + " " + (type.localizedDescription ?? "")).lowercased()
                return needles.allSatisfy { haystack.contains($0) }
            }
        }
        return types
    }

    private static func tagged(_ tag: String, _ tagClass: UTTagClass) throws(Failure) -> [UTType] {
        let declared = TypeDatabase.shared.declaredTypes(tag: tag, tagClass: tagClass)
        if !declared.isEmpty { return declared }
        guard let dynamic = UTType(tag: tag, tagClass: tagClass, conformingTo: .data) else {
            throw Failure(message: "'\(tag)' is not a valid \(tagClass == .filenameExtension ? "filename extension" : "tag")")
        }
        return [dynamic]
    }
}
