#if canImport(FoundationEssentials)
public import struct FoundationEssentials.URL
#else
public import struct Foundation.URL
#endif

/// Filename extensions chosen by type: appending a type's preferred extension to a URL.
extension URL {
    /// The URL with `contentType`'s preferred filename extension appended, unless its last path
    /// component already has an extension whose type conforms to `contentType`.
    ///
    ///     file:///tmp/readme  + public.plain-text  => file:///tmp/readme.txt
    ///     file:///tmp/puppy.jpg + public.jpeg      => file:///tmp/puppy.jpg
    public func appendingPathExtension(for contentType: UTType) -> URL {
        guard let preferred = contentType.preferredFilenameExtension else { return self }
        if let existing = UTType.filenameExtension(ofPath: lastPathComponent),
           let existingType = UTType(filenameExtension: existing, conformingTo: contentType),
           existingType.conforms(to: contentType), existingType.isDeclared {
            return self
        }
        return appendingPathExtension(preferred)
    }

    /// Appends `contentType`'s preferred filename extension; see `appendingPathExtension(for:)`.
    public mutating func appendPathExtension(for contentType: UTType) {
        self = appendingPathExtension(for: contentType)
    }

    /// The URL with `partialName` appended as a path component, followed by `contentType`'s
    /// preferred filename extension unless `partialName` already has one valid for `contentType`.
    ///
    ///     file:///tmp/ + readme    + public.plain-text => file:///tmp/readme.txt
    ///     file:///tmp/ + puppy.jpg + public.jpeg       => file:///tmp/puppy.jpg
    public func appendingPathComponent(_ partialName: String, conformingTo contentType: UTType) -> URL {
        appendingPathComponent(partialName, isDirectory: false).appendingPathExtension(for: contentType)
    }

    /// Appends `partialName` and, when needed, `contentType`'s preferred filename extension.
    public mutating func appendPathComponent(_ partialName: String, conformingTo contentType: UTType) {
        self = appendingPathComponent(partialName, conformingTo: contentType)
    }
}
