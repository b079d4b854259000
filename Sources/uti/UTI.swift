import ArgumentParser
import UTIReports

/// The command line. Every command names itself (`commandName`): swift-argument-parser otherwise derives each
/// name from `String(describing:)` of the command's type, for every command in the tree at each start, and in a
/// statically linked program each of those looks through every protocol conformance the program holds (three
/// times a type: most of the instructions `uti classify` spent starting; docs/Performance.md, "Start-up").
struct UTI: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uti",
        abstract: "Uniform Type Identifiers for Linux: the type database, identification and routing.",
        discussion: """
            Types are Apple's identifiers (public.jpeg, com.apple.bundle) with their conformance \
            hierarchy, filename extensions and MIME types. Extra declarations (plist files with \
            UTExportedTypeDeclarations / UTImportedTypeDeclarations) come from --types FILE and from \
            the directories listed in UTI_TYPES_PATH (colon-separated).
            """,
        version: UTIVersion.string,
        subcommands: [Identify.self, Classify.self, Info.self, Conforms.self, Types.self, Apps.self, Handlers.self, Default.self, Route.self, InboxCommand.self, Backup.self, Purge.self, Ubiquity.self, Serve.self]
    )
}
