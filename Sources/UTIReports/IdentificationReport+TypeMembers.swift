import Synchronization
package import UniformTypeIdentifiers

extension IdentificationReport {
    /// The members of a report that its type alone decides, made once for each built-in type: a service answers
    /// the same few types all day, and looking up a type's description, MIME types and supertypes (and quoting
    /// them) was a third of writing its answer.
    package struct TypeMembers: Sendable {
        /// `identifier`, `description`.
        package let head: JSONMembers
        /// `preferredMIMEType`, `mimeTypes`: when the type has MIME types of its own (else they depend on the
        /// identification, and are written with it).
        package let mimeTypes: JSONMembers?
        /// `language`, `conformsTo`.
        package let tail: JSONMembers

        package init(_ type: UTType) {
            head = JSONMembers([(Key.identifier, .string(type.identifier)), (Key.description, JSONValue(type.localizedDescription))])
            let names = type.tags(of: .mimeType)
            mimeTypes = names.isEmpty ? nil : JSONMembers([
                (Key.preferredMIMEType, JSONValue(type.preferredMIMEType)), (Key.mimeTypes, JSONValue(names)),
            ])
            tail = JSONMembers([
                (Key.language, JSONValue(type.tags(of: .linguistLanguage).first)),
                (Key.conformsTo, JSONValue(type.orderedSupertypes.map(\.identifier))),
            ])
        }

        /// The members of `type`: made once for a built-in type while its built-in declaration is in force, anew
        /// for any other (a registered type may change).
        package static func of(_ type: UTType) -> TypeMembers {
            guard let ordinal = type.builtInOrdinal else { return TypeMembers(type) }
            if let made = cache.withLock({ $0[ordinal] }) { return made }
            let made = TypeMembers(type)
            cache.withLock { $0[ordinal] = made }
            return made
        }

        private static let cache = Mutex<[Int: TypeMembers]>([:])
    }
}
