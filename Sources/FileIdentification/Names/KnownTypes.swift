internal import UniformTypeIdentifiers

/// The types identification names itself, beyond Apple's constants: file-system objects Apple declares
/// without a constant, and formats whose identifiers come from the TypeDB. Every one must be declared
/// built in (`KnownTypesTests` checks `KnownTypes.all`); a misspelt identifier here would otherwise be a
/// type nothing conforms to.
enum KnownTypes {
    /// `public.named-pipe`: a FIFO.
    static let namedPipe = UTType(declaredIdentifier: "public.named-pipe")
    /// `public.socket`.
    static let socket = UTType(declaredIdentifier: "public.socket")
    /// `public.character-special`: a character device.
    static let characterDevice = UTType(declaredIdentifier: "public.character-special")
    /// `public.block-special`: a block device.
    static let blockDevice = UTType(declaredIdentifier: "public.block-special")
    /// An empty file with no name to say more (freedesktop's `application/x-zerosize`).
    static let emptyFile = UTType(declaredIdentifier: "uti.mime.application.x-zerosize")
    /// An OLE2 compound file ("structured storage"), the container of Word, Excel, MSI ... files.
    static let oleStorage = UTType(declaredIdentifier: "uti.mime.application.x-ole-storage")
    /// xz-compressed data.
    static let xz = UTType(declaredIdentifier: "org.tukaani.xz-archive")
    /// Zstandard-compressed data.
    static let zstandard = UTType(declaredIdentifier: "uti.mime.application.zstd")
    /// A 7-Zip archive.
    static let sevenZip = UTType(declaredIdentifier: "org.7-zip.7-zip-archive")

    static let all: [UTType] = [namedPipe, socket, characterDevice, blockDevice, emptyFile, oleStorage, xz, zstandard, sevenZip]
}
