// The last step of `python3 TypeDB/tools/make-typedb.py`: compiles a TypeDB directory into the C sources
// the library builds from. Not meant to be run alone; make-typedb.py runs it on the files it generates.
//
//     compile-typedb [--typedb DIR] [--sources DIR] [--check]
//
// writes every generated C source, from what make-typedb.py wrote into the TypeDB directory:
// DIR/CTypeDatabase/typedb.c (the declarations, TypeDB/*.plist), DIR/CTypeDatabase/mediatypes.c
// (TypeDB/media-types.json), DIR/CTypeDatabase/languages.c (TypeDB/languages.json),
// DIR/CTypeDatabase/pronom.c (TypeDB/pronom.json) and
// DIR/CSharedMIMEInfo/sharedmimeinfo.c (TypeDB/mime); `--check` writes nothing and exits 1 when one differs
// from what it would write. The one writer of generated code: make-typedb.py writes data, this writes C.
import TypeDatabaseCompiler
#if canImport(Glibc)
import Glibc
#endif

func printError(_ message: String) {
    let line = "compile-typedb: \(message)\n"
    _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
}

var typeDB = "TypeDB"
var sources = "Sources"
var check = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--check": check = true
    case "--typedb", "--sources":
        guard let value = arguments.popFirst() else {
            printError("\(argument) needs a directory")
            exit(64)
        }
        if argument == "--typedb" { typeDB = value } else { sources = value }
    default:
        printError("unknown argument '\(argument)'; usage: compile-typedb [--typedb DIR] [--sources DIR] [--check]")
        exit(64)
    }
}

do {
    let outputs = [
        (sources + "/CTypeDatabase/typedb.c", CSource.typeDatabase(try TypeDBDirectory.compiledDatabase(in: typeDB))),
        (sources + "/CTypeDatabase/mediatypes.c", CSource.mediaTypes(try TypeDBDirectory.mediaTypes(in: typeDB))),
        (sources + "/CTypeDatabase/languages.c", CSource.languages(try TypeDBDirectory.languages(in: typeDB))),
        (sources + "/CTypeDatabase/pronom.c", try CSource.pronom(try TypeDBDirectory.pronom(in: typeDB))),
        (sources + "/CSharedMIMEInfo/sharedmimeinfo.c", CSource.sharedMIMEInfo(try TypeDBDirectory.mimeData(in: typeDB))),
    ]
    var current = true
    for (path, text) in outputs {
        if check {
            let existing = try? TypeDBDirectory.read(path)
            if existing != text {
                printError("\(path) is out of date; run `python3 TypeDB/tools/make-typedb.py`")
                current = false
            }
        } else {
            try TypeDBDirectory.write(text, to: path)
            print("wrote \(path)")
        }
    }
    exit(current ? 0 : 1)
} catch {
    printError(String(describing: error))
    exit(2)
}
