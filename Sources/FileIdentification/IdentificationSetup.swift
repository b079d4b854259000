internal import CMagic

/// What an identifier reads with on this machine: libmagic's database, the shared-mime-info databases that
/// take part (the newer first: it decides), and Magika's model, whether it is installed and whether this
/// identifier asks it. `uti info` prints it; a program can log it beside its answers, since two machines that
/// differ here may answer differently.
public struct IdentificationSetup: Sendable, Hashable {
    /// The compiled libmagic database (`magic.mgc`), `nil` when none was found (libmagic is then not asked).
    public var libmagicDatabase: String?
    /// The libmagic library's version (`544` for 5.44).
    public var libmagicVersion: Int
    /// The shared-mime-info databases that take part, the one that decides first.
    public var sharedMIMEInfo: [Database]
    /// Magika's model.
    public var model: Model

    /// A shared-mime-info database: the built-in one (the `BuiltInSharedMIMEInfo` trait) or a directory.
    public struct Database: Sendable, Hashable {
        /// The directory, `nil` for the one built into the library.
        public var directory: String?
        /// Its `version` file (`2.4`), empty when it has none.
        public var version: String
    }

    /// Whether Magika's model can be asked here and whether it is.
    public struct Model: Sendable, Hashable {
        /// Whether the model and ONNX Runtime were found and load (only looked for when `isOn` or when asked
        /// for the setup with `probingModel`).
        public var isAvailable: Bool
        /// Whether this identifier asks the model (`FileIdentifier.Options.usesModel`).
        public var isOn: Bool
        /// What was found: `loaded standard_v3_3 from ...`, `not installed ...`, `off (UTI_MAGIKA=off)`, or
        /// `not looked for`.
        public var status: String
    }
}

extension FileIdentifier {
    /// What this identifier reads with (`IdentificationSetup`). With `probingModel`, Magika's model is looked
    /// for (and loaded) even when this identifier does not ask it, to say whether it could.
    public func setup(probingModel: Bool = true) -> IdentificationSetup {
        let databases = sharedMIMEInfo.sources.map { source -> IdentificationSetup.Database in
            let version = source.version.map(String.init).joined(separator: ".")
            switch source {
            case .builtIn: return .init(directory: nil, version: version)
            case .directory(let directory): return .init(directory: directory, version: version)
            }
        }
        let looked = options.usesModel || probingModel
        let model = IdentificationSetup.Model(isAvailable: looked && MagikaModel.shared != nil, isOn: options.usesModel,
                                              status: looked ? MagikaModel.status : "not looked for")
        return IdentificationSetup(libmagicDatabase: options.magicDatabase ?? Magic.defaultDatabasePath,
                                   libmagicVersion: Int(magic_version()), sharedMIMEInfo: databases, model: model)
    }
}
