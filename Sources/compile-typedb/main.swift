// Compiles TypeDB/*.plist into Sources/CTypeDatabase/typedb.c, the built-in database the library
// reads in place. Run from the package root: `swift run compile-typedb` (or `--check` to verify
// that the compiled file is up to date, exit status 1 when it is not).
import UniformTypeIdentifiers
#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments.dropFirst()
let check = arguments.contains("--check")
let root = arguments.first(where: { !$0.hasPrefix("-") }) ?? "."
let output = root + "/Sources/CTypeDatabase/typedb.c"

func printError(_ message: String) {
    let line = "compile-typedb: \(message)\n"
    _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
}

func fail(_ message: String) -> Never {
    printError(message)
    exit(2)
}

do {
    let source = try TypeDBCompiler.cSource(typeDB: root + "/TypeDB")
    if check {
        let existing = try TypeDBCompiler.read(output)
        if existing != source {
            printError("\(output) is out of date; run `swift run compile-typedb`")
            exit(1)
        }
        print("\(output) is up to date")
    } else {
        try TypeDBCompiler.write(source, to: output)
        print("wrote \(output)")
    }
} catch {
    fail(String(describing: error))
}
