/// A class of tags that map to types: filename extensions, MIME types and others.
///
/// Tag classes are identified by their raw value, which is itself a type identifier
/// (`public.filename-extension`, `public.mime-type`). Any tag class that appears in a
/// declaration's `UTTypeTagSpecification` can be used for lookups.
public struct UTTagClass: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The tag class's identifier, such as `public.mime-type`, as it was spelled.
    public let rawValue: String

    /// The tag class with this identifier; any identifier is accepted.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The tag class for filename extensions, such as `jpeg` (without the leading dot).
    public static let filenameExtension = UTTagClass(rawValue: "public.filename-extension")

    /// The tag class for MIME types, such as `image/jpeg`.
    public static let mimeType = UTTagClass(rawValue: "public.mime-type")

    /// The tag class's identifier.
    public var description: String { rawValue }

    /// The raw value folded for comparison: tag classes, like identifiers, compare case-insensitively.
    package var key: String { rawValue.lowercased() }
}
