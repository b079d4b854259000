public import UniformTypeIdentifiers

extension UTTagClass {
    /// PRONOM's identifier of a format and version (`fmt/18`, `x-fmt/111`): The National Archives' registry, as
    /// DROID's signature file gives it. A format another source names carries its PUID on that type where PRONOM
    /// has one format for it (ZIP, `x-fmt/263`, on `public.zip-archive`); each version of a format has a type of its own,
    /// conforming to the format (`org.nationalarchives.pronom.fmt.18`, PDF 1.4, conforms to `com.adobe.pdf`).
    ///
    ///     UTType(tag: "fmt/354", tagClass: .pronomPUID, conformingTo: nil)   // PDF/A-1b
    public static let pronomPUID = UTTagClass(rawValue: "org.nationalarchives.pronom.puid")
}
