import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

/// The entry point: the commonest invocations of `identify` and `info` are parsed here directly,
/// everything else by swift-argument-parser.
///
/// swift-argument-parser builds its picture of the commands by reflection, which costs about a
/// millisecond at every start; `uti identify FILE` must cost no more than `file FILE`. The fast path
/// accepts only arguments it understands completely and hands anything else (help, a misspelled
/// option, other commands) to swift-argument-parser, so usage errors read the same either way. Both
/// paths run the same `IdentifyJob` and `InfoJob`.
@main
enum Main {
    static func main() {
        if let status = FastPath.run(Array(CommandLine.arguments.dropFirst())) {
            exit(status)
        }
        UTI.main()
    }
}

enum FastPath {
    /// The exit status when the arguments were handled here, `nil` to leave them to swift-argument-parser.
    static func run(_ arguments: [String]) -> Int32? {
        guard let command = arguments.first else { return nil }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "identify": return identify(rest)
        case "info": return info(rest)
        default: return nil
        }
    }

    private static func identify(_ arguments: [String]) -> Int32? {
        var job = IdentifyJob(paths: [])
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                job.paths.append(argument)
                continue
            }
            switch argument {
            case "--": optionsEnded = true
            case "--mime": job.mime = true
            case "--json": job.json = true
            case "--no-content": job.nameOnly = true
            case "-L": job.followSymlinks = true
            case "--name", "--types":
                guard index < arguments.count else { return nil }
                if argument == "--name" {
                    guard job.name == nil else { return nil }
                    job.name = arguments[index]
                } else {
                    job.typeFiles.append(arguments[index])
                }
                index += 1
            default: return nil
            }
        }
        guard !job.paths.isEmpty, !(job.mime && job.json), job.name == nil || job.paths.contains("-") else { return nil }
        return job.run()
    }

    private static func info(_ arguments: [String]) -> Int32? {
        var job = InfoJob(identifiers: [])
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            switch argument {
            case "--json": job.json = true
            case "--types":
                guard index < arguments.count else { return nil }
                job.typeFiles.append(arguments[index])
                index += 1
            default:
                guard !argument.hasPrefix("-") else { return nil }
                job.identifiers.append(argument)
            }
        }
        return job.identifiers.isEmpty ? nil : job.run()
    }
}
