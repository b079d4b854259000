import UTIReports
import FileIdentification
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// `uti identify --framed -`: many files through one process, for programs that hold the bytes rather
/// than a path (Spark's `binaryFile` rows, an upload queue). Standard input is a sequence of records, read by
/// FileIdentification's `FramedRecords` (the format is documented there). For each record one line goes to standard output, in
/// order: `uti identify --json`'s object with the name as `path` (escaped as `\xNN` with `"pathEscaped":
/// true` where it is not UTF-8), or `{"path": ..., "error": ...}`. Output is flushed whenever uti is about to
/// wait for input, so a client may send a record and wait for its line. Content is spooled as an upload is:
/// its first MiB in memory, the rest in a private temporary file without a name.
///
/// Exit status 0; 1 when a record could not be identified (its line says why); 2 when the input is not
/// records (cut short, or a length out of bounds), after the lines of the records before it.
struct FramedIdentifyJob: Equatable {
    var typeFiles: [String] = []
    var mimeNames: MIMENames = .standard
    /// `--model`: ask Magika's model (else as `UTI_MAGIKA` says).
    var model = false

    func run() -> Int32 {
        guard TypeOptions.loadDeclarations(typeFiles: typeFiles) else { return 2 }
        let identifier = FileIdentifier(options: .init(usesModel: model ? true : nil, mimeNames: mimeNames))
        var output = StandardOutput()
        var records = FramedRecords(descriptor: .standardInput)
        var failed = false
        do throws(FramedRecords.Failure) {
            while true {
                if records.isWaiting { output.flush() }
                guard let record = try records.next() else { break }
                let path = RawFilePath(bytes: record.name)
                let shown = path.dataText
                let result: Result<Identification, IdentificationError>
                if let spoolError = record.spoolError {
                    result = .failure(IdentificationError(path: shown, reason: .system(spoolError)))
                } else {
                    result = Result { () throws(IdentificationError) in
                        try identifier.identify(record.content, filename: String(decoding: record.name, as: UTF8.self))
                    }
                }
                switch result {
                case .success(let identification):
                    let report = IdentificationReport(identification, path: shown, pathEscaped: !path.isValidUTF8)
                    output.line { line in report.withRenderedUTF8 { line.append(bytes: $0) } }
                case .failure(let error):
                    failed = true
                    var members: [(String, JSONValue)] = [("path", .string(shown))]
                    if !path.isValidUTF8 { members.append(("pathEscaped", true)) }
                    members.append(("error", .string(error.message)))
                    output.line(JSONValue.object(members).rendered)
                }
            }
        } catch {
            output.flush()
            Terminal.error("standard input: \(error)")
            return 2
        }
        output.flush()
        return failed ? 1 : 0
    }
}
