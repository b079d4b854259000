import UTIReports
import ArgumentParser
import FileIdentification
import UniformTypeIdentifiers

extension UTI {
    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "info",
            abstract: "Describe types: description, status, where declared, tags and conformance tree.",
            discussion: """
                Exit status: 0 when every identifier is known, 2 when one is not (the others are still described).

                With no identifier: what identification reads with on this machine: libmagic's database, the \
                shared-mime-info databases (the newer decides), and Magika's model, whether it is installed and \
                whether identification asks it (only with --model, or UTI_MAGIKA=on).
                """
        )

        @OptionGroup var typeOptions: TypeOptions

        @Flag(name: .customLong(String(InfoJob.jsonFlag.dropFirst(2))), help: "Print one JSON object per line per type.")
        var json = false

        @Argument(help: "Type identifiers (public.jpeg, dyn.ah62d4rv4ge8043a, ...); none: identification's setup.")
        var identifiers: [String] = []

        var job: InfoJob { InfoJob(identifiers: identifiers, typeFiles: typeOptions.typeFiles, json: json) }

        func run() throws {
            let status = job.run()
            if status != 0 { throw ExitCode(status) }
        }
    }
}

/// What `uti info` does once its arguments are parsed (by `UTI.Info`, or the fast path in Main.swift, which
/// reads the options' spellings here and in `TypeOptions`).
struct InfoJob: Equatable {
    /// How `--json` is written.
    static let jsonFlag = "--json"

    var identifiers: [String]
    var typeFiles: [String] = []
    var json = false

    /// Describes every type; the exit status: 0, or 2 when an identifier is unknown or a
    /// declaration file was refused.
    func run() -> Int32 {
        guard TypeOptions.loadDeclarations(typeFiles: typeFiles) else { return 2 }
        if identifiers.isEmpty { return setup() }
        var output = StandardOutput()
        var failed = false
        var printed = 0
        for identifier in identifiers {
            guard let type = UTType(identifier) else {
                output.flush()
                Terminal.error(UnknownIdentifier.message(identifier))
                failed = true
                continue
            }
            let report = TypeReport(type)
            if json {
                output.line(report.json.rendered)
            } else {
                if printed > 0 { output.line("") }
                for line in report.lines { output.line(line) }
            }
            printed += 1
        }
        output.flush()
        return failed ? 2 : 0
    }

    /// What identification reads with here (`FileIdentifier.setup`): status 0.
    private func setup() -> Int32 {
        let setup = FileIdentifier().setup()
        var output = StandardOutput()
        let libmagicVersion = "\(setup.libmagicVersion / 100).\(setup.libmagicVersion % 100)"
        let model = setup.model
        let modelUse = model.isOn ? "on" : "off (asked only with --model, or UTI_MAGIKA=on)"
        if json {
            let databases = setup.sharedMIMEInfo.map { database -> JSONValue in
                .object([("directory", database.directory.map(JSONValue.string) ?? .null), ("builtIn", .boolean(database.directory == nil)),
                         ("version", .string(database.version))])
            }
            let report = JSONValue.object([
                ("libmagic", .object([("version", .string(libmagicVersion)), ("database", setup.libmagicDatabase.map(JSONValue.string) ?? .null)])),
                ("sharedMIMEInfo", .array(databases)),
                ("model", .object([("available", .boolean(model.isAvailable)), ("on", .boolean(model.isOn)), ("status", .string(model.status))])),
            ])
            output.line(report.rendered)
        } else {
            output.line("libmagic: \(libmagicVersion), " + (setup.libmagicDatabase ?? "no database found (not asked)"))
            for (index, database) in setup.sharedMIMEInfo.enumerated() {
                let name = database.directory ?? "built in (the BuiltInSharedMIMEInfo trait)"
                output.line("shared-mime-info: \(database.version.isEmpty ? "no version" : database.version), \(name)"
                            + (index == 0 ? " (decides)" : " (for the types the other does not know)"))
            }
            if setup.sharedMIMEInfo.isEmpty { output.line("shared-mime-info: none") }
            output.line("Magika's model: " + (model.isAvailable ? "available, " : "unavailable, ") + modelUse)
            output.line("  " + model.status)
        }
        output.flush()
        return 0
    }
}
